#include "pipelines/particles/particle_query.hpp"
#include "pipelines/same_arguments.hpp"
#include "pipelines/particles/particle_rows.hpp"
#include "pipelines/phase_clock.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/checksum.hpp"
#include "core/worker_pool.hpp"
#include "storage/file.hpp"

namespace lodex {

void validate_box(const Box& b) {
  for (int a = 0; a < 3; ++a) {
    if (std::isnan(b.inclusive_min[a]) || std::isnan(b.exclusive_max[a]))
      fail(ErrorCode::kInvalidArgument, "the query box ", to_string(b), " has a NaN coordinate");
    if (b.inclusive_min[a] > b.exclusive_max[a])
      fail(ErrorCode::kInvalidArgument, "the query box ", to_string(b), " is inverted on axis ", "xyz"[a],
           " (min > max)");
  }
}

std::vector<size_t> candidate_order(const SpatialMetadata& meta, const Box& query) {
  Box domain = Box::nothing();
  for (const auto& r : meta.files) domain.extend(r.partition_box);
  std::vector<std::pair<uint64_t, size_t>> keyed;
  for (size_t i = 0; i < meta.files.size(); ++i) {
    const DataFileRecord& r = meta.files[i];
    if (r.count > 0 && bounds_meet(r.bounds, query)) keyed.push_back({spatial_key(r.partition_box, domain), i});
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<size_t> order;
  for (const auto& [key, i] : keyed) order.push_back(i);
  return order;
}

std::vector<Box> spatial_parts(const SpatialMetadata& meta, const std::vector<size_t>& order, const Box& query,
                               uint32_t n, const LodParams& lod, uint64_t row_bytes) {
  std::vector<FileExtent> extents;
  for (size_t i : order) {
    const DataFileRecord& r = meta.files[i];
    // The writer's brick grid of this file (a hint for placing cuts; reads never depend on it).
    extents.push_back({r.bounds, r.count, r.partition_box, lod_brick_bits(r.count, lod, row_bytes)});
  }
  return spatial_split(query, extents, n);
}

ParticleQuery::ParticleQuery(std::string step_dir, const Confinement& confinement, const Schema& schema,
                             const LodParams& lod, SpatialMetadata meta, uint64_t metadata_bytes,
                             const ReadRequest& request, bool sampled, MPI_Comm comm, const std::optional<Error>& prior,
                             const std::optional<Error>& input_error)
    : dir_(std::move(step_dir)),
      confinement_(confinement),
      schema_(schema),
      group_lod_(lod),
      meta_(std::move(meta)),
      cache_(64, confinement) {
  const double t0 = wall_seconds();
  if (comm != MPI_COMM_NULL) comm_ = Comm(comm);
  setup_.metadata_bytes = metadata_bytes;
  setup_.bytes_read = metadata_bytes;
  // A rank whose arguments its binding could not convert, or whose metadata failed to load.
  comm_.agree(input_error ? input_error : prior, [] {});
  // Every rank must ask the same question, or the collectives below would not match.
  const auto box_str = [](const Box& b) { return to_string(b); };
  const auto level_str = [](uint32_t l) { return std::to_string(l); };
  const auto fraction_str = [](double f) { return cat(f); };
  require_same_arguments(
      comm_, "particle read",
      {{"step", dir_},
       {"box", argument_text(request.box, box_str)},
       {"fields", argument_text(request.fields)},
       {"level", argument_text(request.level, level_str)},
       {"fraction", argument_text(request.fraction, fraction_str)},
       {"level-of-detail parameters", cat(request.lod.readers, ',', request.lod.P, ',', request.lod.S)},
       {"split", cat(static_cast<int>(request.split), sampled)}});
  comm_.agree([&] { setup(request, sampled); });
  if (sampled) {
    // Every rank learns every candidate file's exact count: the sample line is global.
    std::vector<uint64_t> counts(candidates_order_.size(), UINT64_MAX);
    for (const auto& f : files_) counts[f.candidate] = f.candidates;
    comm_.allreduce_u64(counts, MPI_MIN);
    file_offset_.assign(counts.size(), 0);
    uint64_t sum = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] == UINT64_MAX)
        fail(ErrorCode::kInternal, "no reader opened candidate file '", meta_.files[candidates_order_[i]].file_name,
             "'");
      file_offset_[i] = sum;
      sum += counts[i];
    }
    candidates_ = sum;
    sampler_ = std::make_unique<NestedSampler>(candidates_);
  }
  setup_.candidates = candidates_;
  setup_.seconds = wall_seconds() - t0;
}

ParticleQuery::~ParticleQuery() = default;

void ParticleQuery::setup(const ReadRequest& request, bool sampled) {
  if (request.level && request.fraction) fail(ErrorCode::kInvalidArgument, "give a level or a fraction, not both");
  if (request.fraction) validate_fraction(*request.fraction);
  lod_ = request.lod;
  if (lod_.readers == 0) lod_.readers = static_cast<uint64_t>(comm_.size());
  if (sampled) validate(lod_);
  if (request.box) validate_box(*request.box);
  query_ = request.box ? *request.box : unbounded_box();

  if (request.fields.empty()) {
    for (size_t i = 0; i < schema_.size(); ++i) field_index_.push_back(i);
  } else {
    for (const auto& n : request.fields) {
      const size_t i = schema_.index_of(n);
      if (std::find(field_index_.begin(), field_index_.end(), i) != field_index_.end())
        fail(ErrorCode::kInvalidArgument, "field '", n, "' is requested twice");
      field_index_.push_back(i);
    }
  }

  candidates_order_ = candidate_order(meta_, query_);   // the order of the sample line

  // This rank's share of the work.
  const uint32_t n = static_cast<uint32_t>(comm_.size()), me = static_cast<uint32_t>(comm_.rank());
  std::vector<size_t> mine;   // candidates this rank opens
  std::optional<ByteSplit> split;
  if (request.split == ReadSplit::kSpatial) {
    mine_ = spatial_parts(meta_, candidates_order_, query_, n, group_lod_,
                          schema_.row_bytes())[me];   // a part of the query box
    for (size_t c = 0; c < candidates_order_.size(); ++c)
      if (bounds_meet(meta_.files[candidates_order_[c]].bounds, mine_)) mine.push_back(c);
  } else {
    std::vector<uint64_t> weights;
    for (size_t i : candidates_order_) {
      const DataFileRecord& r = meta_.files[i];
      weights.push_back(static_cast<uint64_t>(std::ceil(estimated_inside(r.bounds, r.count, query_))));
    }
    split.emplace(weights, n);
    mine_ = query_;
    for (size_t c = 0; c < candidates_order_.size(); ++c)
      if (split->reader_touches(me, c)) mine.push_back(c);
  }
  // Heads are read a batch of files at a time (as many as the handle cache keeps open), the
  // files of a batch concurrently.
  const size_t batch = cache_.capacity();
  for (size_t b0 = 0; b0 < mine.size(); b0 += batch) {
    const size_t b1 = std::min(mine.size(), b0 + batch);
    std::vector<LoadedHead> heads(b1 - b0);
    parallel_for(heads.size(), io_threads(), [&](size_t i, size_t) { heads[i] = load_head(mine[b0 + i]); });
    for (size_t i = 0; i < heads.size(); ++i) add_file(mine[b0 + i], std::move(heads[i]), split ? &*split : nullptr);
  }
  setup_.files_opened = cache_.opens();
}

uint64_t ParticleQuery::level_target(uint32_t level) const {
  // Past the last level the prefix covers every candidate: the whole selection (a zoom into a
  // smaller box keeps working at the level it had).
  return level_prefix(lod_, std::min(level, level_count()));
}

std::map<size_t, std::vector<ParticleQuery::SampleRange>> ParticleQuery::sample_ranges(uint64_t t) const {
  if (!sampler_) fail(ErrorCode::kInternal, "sample ranges of a query set up without counting");
  const NestedSampler::Prefix p = sampler_->prefix(t);
  std::map<size_t, std::vector<SampleRange>> out;
  std::vector<RowPiece> pieces;
  for (const OpenFile& f : files_) {
    const ParticleFileHead& h = f.head;
    const uint32_t levels = static_cast<uint32_t>(h.level_ends.size());
    std::vector<SampleRange>& ranges = out[candidates_order_[f.candidate]];
    for (const Brick& b : f.bricks) {
      if (!b.mine) continue;
      const uint64_t a = file_offset_[f.candidate] + b.before;
      const uint64_t to = sampler_->count(p, a, a + b.count);
      if (to == 0) continue;
      pieces.clear();
      brick_pieces(h.segment_starts, levels, h.num_bricks(), b.brick, 0, to, pieces);
      for (const RowPiece& r : pieces) ranges.push_back({r.first, r.last, !b.inside});
    }
  }
  return out;
}

ParticleQuery::LoadedHead ParticleQuery::load_head(size_t candidate) const {
  IoCount io;
  DataFile df = open_data_file(confinement_, dir_, meta_.files[candidates_order_[candidate]], schema_, io);
  LoadedHead out;
  out.file = std::move(df.file);
  out.head = std::move(df.head);
  out.requests = io.requests;
  out.bytes_read = io.bytes;
  out.head_bytes = df.head_bytes;
  return out;
}

void ParticleQuery::add_file(size_t candidate, LoadedHead loaded, const ByteSplit* split) {
  const DataFileRecord& rec = meta_.files[candidates_order_[candidate]];
  OpenFile f;
  f.candidate = candidate;
  f.path = loaded.file.path();
  f.head = std::move(loaded.head);
  cache_.insert(std::move(loaded.file));
  setup_.requests += loaded.requests;
  setup_.head_bytes += loaded.head_bytes;
  setup_.bytes_read += loaded.bytes_read;

  const ParticleFileHead& h = f.head;
  const uint32_t levels = static_cast<uint32_t>(h.level_ends.size());
  const BrickGrid grid(h.brick_box, h.brick_bits);
  const std::vector<BrickPick> picks = bricks_meeting(grid, rec.bounds, query_);
  std::vector<BrickPick> own;   // spatial split: the bricks meeting this rank's box
  if (!split) own = bricks_meeting(grid, rec.bounds, mine_);
  auto own_it = own.begin();
  for (const BrickPick& p : picks) {
    const uint64_t count = brick_count(h.segment_starts, levels, h.num_bricks(), p.brick);
    if (count == 0) continue;
    Brick b{p.brick, count, f.candidates, false, p.inside};
    if (!split) {
      while (own_it != own.end() && own_it->brick < p.brick) ++own_it;
      if (own_it != own.end() && own_it->brick == p.brick) b.mine = true, b.inside = own_it->inside;
    }
    f.bricks.push_back(b);
    f.candidates += count;
  }
  if (split)
    for (Brick& b : f.bricks)
      b.mine = split->owner(candidate, b.before, f.candidates) == static_cast<uint32_t>(comm_.rank());
  files_.push_back(std::move(f));
}

namespace {
// One file's part of a read: pieces of whole segments read in runs of contiguous segments.
struct Piece {
  RowPiece rows;
  bool test = false;      // rows need the box test
  bool kept = false;      // the segment is in the refinement's cache
  uint64_t area = 0;      // row of the segment's start in the file's area
};
struct Run {
  uint64_t first = 0, last = 0;   // file rows
  uint64_t area = 0;              // row in the area where it lands
  size_t begin = 0, end = 0;      // its pieces
  bool kept = false;              // one kept segment, copied from the cache when it has the field
};
struct FilePlan {
  std::vector<Piece> pieces;
  std::vector<Run> runs;
  uint64_t area_rows = 0;
};

void plan_runs(const ParticleFileHead& h, FilePlan& plan) {
  plan.runs.clear();
  plan.area_rows = 0;
  for (size_t i = 0; i < plan.pieces.size(); ++i) {
    Piece& p = plan.pieces[i];
    const uint64_t first = h.segment_starts[p.rows.segment], last = h.segment_starts[p.rows.segment + 1];
    if (plan.runs.empty() || plan.runs.back().last != first || plan.runs.back().kept || p.kept)
      plan.runs.push_back({first, first, plan.area_rows, i, i, p.kept});
    Run& r = plan.runs.back();
    p.area = r.area + (first - r.first);
    r.last = last;
    r.end = i + 1;
    plan.area_rows += last - first;
  }
}

// One request: runs [first_run, end_run) of one field of one file, read by one preadv that puts
// each run where it lands in the area and the gaps between them into scratch space.
struct ReadJob {
  size_t file = 0;    // index into files_
  size_t field = 0;   // schema index
  const FilePlan* plan = nullptr;
  size_t first_run = 0, end_run = 0;
  uint8_t* area = nullptr;   // the field's area row 0 for this plan
};

// Reading through a gap beats a separate request when the gap takes less time to transfer than
// a request's latency (cold: ~0.5 ms, i.e. ~250 KiB at the ~500 MB/s measured here). Gaps stay
// within 1/8 of the bytes wanted, so a read stays within ~1.13x the bytes it needs.
constexpr uint64_t kMaxGapBytes = 256 << 10;
constexpr uint64_t kGapShare = 8;

// Adds the requests that read field `fi` of `plan`'s runs into `area`. Kept runs whose field the
// refinement's cache holds are copied from it now instead.
void add_jobs(const ParticleFileHead& h, size_t file_index, size_t fi, const FilePlan& plan, uint8_t* area,
              const SegmentCache* cache, std::vector<ReadJob>& jobs, ReadStats& stats) {
  const size_t rb = h.fields[fi].row_bytes();
  std::vector<bool> from_file(plan.runs.size(), true);
  uint64_t wanted = 0;
  for (size_t k = 0; k < plan.runs.size(); ++k) {
    const Run& r = plan.runs[k];
    if (r.kept && cache) {
      const auto it = cache->find({file_index, plan.pieces[r.begin].rows.segment});
      if (it != cache->end() && !it->second[fi].empty()) {
        std::memcpy(area + r.area * rb, it->second[fi].data(), it->second[fi].size());
        from_file[k] = false;
        continue;
      }
    }
    wanted += (r.last - r.first) * rb;
  }
  uint64_t gap_budget = wanted / kGapShare;
  for (size_t k = 0; k < plan.runs.size(); ++k) {
    if (!from_file[k]) continue;
    const Run& r = plan.runs[k];
    const bool follows = k > 0 && from_file[k - 1] && !jobs.empty() && jobs.back().plan == &plan &&
                         jobs.back().field == fi && jobs.back().end_run == k;
    const uint64_t gap = follows ? (r.first - plan.runs[k - 1].last) * rb : 0;
    const bool joins = follows && gap <= kMaxGapBytes && gap <= gap_budget;
    if (joins) {
      jobs.back().end_run = k + 1;
      gap_budget -= gap;
      stats.bytes_read += gap;
    } else {
      jobs.push_back({file_index, fi, &plan, k, k + 1, area});
      stats.requests += 1;
    }
    stats.bytes_read += (r.last - r.first) * rb;
  }
}

// Runs one request and verifies the checksum of every segment it read.
void run_job(const ReadJob& j, const File& file, const ParticleFileHead& h, std::vector<uint8_t>& junk) {
  const size_t rb = h.fields[j.field].row_bytes();
  const std::vector<Run>& runs = j.plan->runs;
  size_t max_gap = 0;
  for (size_t k = j.first_run + 1; k < j.end_run; ++k)
    max_gap = std::max<size_t>(max_gap, (runs[k].first - runs[k - 1].last) * rb);
  if (junk.size() < max_gap) junk.resize(max_gap);   // every gap's bytes go here, overwriting each other
  std::vector<iovec> parts;
  for (size_t k = j.first_run; k < j.end_run; ++k) {
    const Run& r = runs[k];
    if (k > j.first_run && r.first > runs[k - 1].last)
      parts.push_back({junk.data(), static_cast<size_t>((r.first - runs[k - 1].last) * rb)});
    parts.push_back({j.area + r.area * rb, (r.last - r.first) * rb});
  }
  file.preadv_all(std::move(parts), h.column_offsets[j.field] + runs[j.first_run].first * rb);
  for (size_t i = runs[j.first_run].begin; i < runs[j.end_run - 1].end; ++i) {
    const Piece& p = j.plan->pieces[i];
    verify_segment(file.path(), h, j.field, p.rows.segment, j.area + p.area * rb);
  }
}

// Refinements: keeps the segments of field `fi` that the plan uses only in part.
void keep_partial(const ParticleFileHead& h, size_t file_index, size_t fi, const FilePlan& plan, const uint8_t* area,
                  SegmentCache& cache) {
  const size_t rb = h.fields[fi].row_bytes();
  for (const Piece& p : plan.pieces) {
    const uint64_t s = p.rows.segment, a = h.segment_starts[s], b = h.segment_starts[s + 1];
    if (p.rows.last == b) continue;
    auto& kept = cache[{file_index, s}];
    kept.resize(h.fields.size());
    if (kept[fi].empty()) kept[fi].assign(area + p.area * rb, area + (p.area + b - a) * rb);
  }
}
}  // namespace

// Where a read's rows go: each file's pieces land in its area of the result (rows [area_base,
// area_base + area_rows) of every column), compacted at the end; when the position is not among
// the returned fields, the pieces that need the box test read it into `scratch` too.
struct ParticleQuery::ReadLayout {
  std::vector<FilePlan> plans;                  // per file: the pieces it takes
  std::vector<FilePlan> tested;                 // position not returned: the pieces tested
  std::vector<uint64_t> area_base, scratch_base;
  std::vector<std::vector<uint64_t>> pos_area;  // piece -> its segment's row in the scratch
  uint64_t area_total = 0, scratch_rows = 0;
  size_t pos_field = 0;                         // schema index of the position
  size_t pos_rb = 0;
  std::optional<size_t> pos_out;                // its index among the returned fields
  HeapBytes scratch;
};

// Phase 1: every file's pieces for the sample positions [t0, t1) (t1 = UINT64_MAX, t0 = 0: all).
ParticleQuery::ReadLayout ParticleQuery::plan_read(uint64_t t0, uint64_t t1) const {
  const bool whole = t0 == 0 && t1 == UINT64_MAX;
  if (!whole && !sampler_) fail(ErrorCode::kInternal, "a sampled read of a query set up without counting");
  NestedSampler::Prefix p0, p1;
  if (!whole) p0 = sampler_->prefix(t0), p1 = sampler_->prefix(t1);
  ReadLayout L;
  L.pos_field = schema_.index_of("position");
  L.pos_rb = schema_.field(L.pos_field).row_bytes();
  if (auto it = std::find(field_index_.begin(), field_index_.end(), L.pos_field); it != field_index_.end())
    L.pos_out = static_cast<size_t>(it - field_index_.begin());
  L.plans.resize(files_.size());
  L.tested.resize(files_.size());
  L.area_base.resize(files_.size());
  L.scratch_base.resize(files_.size());
  L.pos_area.resize(files_.size());
  std::vector<RowPiece> tmp;
  for (size_t fi = 0; fi < files_.size(); ++fi) {
    const OpenFile& f = files_[fi];
    const ParticleFileHead& h = f.head;
    const uint32_t levels = static_cast<uint32_t>(h.level_ends.size());
    FilePlan& plan = L.plans[fi];
    for (const Brick& b : f.bricks) {
      if (!b.mine) continue;
      uint64_t from = 0, to = b.count;
      if (!whole) {
        const uint64_t a = file_offset_[f.candidate] + b.before;
        from = sampler_->count(p0, a, a + b.count);
        to = sampler_->count(p1, a, a + b.count);
      }
      if (from >= to) continue;
      tmp.clear();
      brick_pieces(h.segment_starts, levels, h.num_bricks(), b.brick, from, to, tmp);
      for (const RowPiece& r : tmp)
        plan.pieces.push_back({r, !b.inside, keep_partial_ && partial_.count({fi, r.segment}) > 0, 0});
    }
    std::sort(plan.pieces.begin(), plan.pieces.end(),
              [](const Piece& a, const Piece& b) { return a.rows.segment < b.rows.segment; });
    plan_runs(h, plan);
    L.area_base[fi] = L.area_total;
    L.area_total += plan.area_rows;
    if (!L.pos_out) {
      std::vector<size_t> which;
      for (size_t i = 0; i < plan.pieces.size(); ++i)
        if (plan.pieces[i].test) L.tested[fi].pieces.push_back(plan.pieces[i]), which.push_back(i);
      plan_runs(h, L.tested[fi]);
      L.scratch_base[fi] = L.scratch_rows;
      L.scratch_rows += L.tested[fi].area_rows;
      L.pos_area[fi].assign(plan.pieces.size(), 0);
      for (size_t j = 0; j < which.size(); ++j) L.pos_area[fi][which[j]] = L.tested[fi].pieces[j].area;
    }
  }
  if (L.scratch_rows > 0) L.scratch.allocate(L.scratch_rows * L.pos_rb);
  return L;
}

// Phase 2: the requests of files [b0, b1), all concurrently, each run landing in its file's area
// (kept segments copied from the refinement's cache instead); then the segments read only in
// part kept for the next level.
void ParticleQuery::fetch(size_t b0, size_t b1, ReadLayout& L, std::vector<FieldColumn>& out, ReadStats& stats) {
  SegmentCache* cache = keep_partial_ ? &partial_ : nullptr;
  std::vector<const File*> handles(files_.size(), nullptr);
  std::vector<ReadJob> jobs;
  for (size_t fi = b0; fi < b1; ++fi) {
    if (L.plans[fi].pieces.empty()) continue;
    handles[fi] = &cache_.get(files_[fi].path);
    const ParticleFileHead& h = files_[fi].head;
    for (size_t k = 0; k < field_index_.size(); ++k)
      add_jobs(h, fi, field_index_[k], L.plans[fi], out[k].bytes.data() + L.area_base[fi] * out[k].spec.row_bytes(),
               cache, jobs, stats);
    if (!L.tested[fi].pieces.empty())
      add_jobs(h, fi, L.pos_field, L.tested[fi], L.scratch.data() + L.scratch_base[fi] * L.pos_rb, cache, jobs, stats);
  }
  std::vector<std::vector<uint8_t>> junk(io_threads());
  parallel_for(jobs.size(), junk.size(), [&](size_t j, size_t worker) {
    run_job(jobs[j], *handles[jobs[j].file], files_[jobs[j].file].head, junk[worker]);
  });
  if (!cache) return;
  for (size_t fi = b0; fi < b1; ++fi) {
    const FilePlan& plan = L.plans[fi];
    if (plan.pieces.empty()) continue;
    const ParticleFileHead& h = files_[fi].head;
    for (size_t k = 0; k < field_index_.size(); ++k)
      keep_partial(h, fi, field_index_[k], plan, out[k].bytes.data() + L.area_base[fi] * out[k].spec.row_bytes(),
                   *cache);
    if (!L.tested[fi].pieces.empty())
      keep_partial(h, fi, L.pos_field, L.tested[fi], L.scratch.data() + L.scratch_base[fi] * L.pos_rb, *cache);
  }
}

// Phase 3: the rows of file fi's area that stay (ascending ranges): untested pieces whole, tested
// ones where the position lies in this rank's box.
std::vector<std::pair<uint64_t, uint64_t>> ParticleQuery::rows_kept(size_t fi, const ReadLayout& L,
                                                                    const std::vector<FieldColumn>& out) const {
  const FilePlan& plan = L.plans[fi];
  const ParticleFileHead& h = files_[fi].head;
  const DType pos_dtype = schema_.field(L.pos_field).dtype;
  const uint8_t* pos = L.pos_out ? out[*L.pos_out].bytes.data() + L.area_base[fi] * L.pos_rb
                                 : L.scratch.data() + L.scratch_base[fi] * L.pos_rb;
  std::vector<std::pair<uint64_t, uint64_t>> keep;
  auto add = [&](uint64_t a, uint64_t b) {
    if (!keep.empty() && keep.back().second == a) keep.back().second = b;
    else keep.push_back({a, b});
  };
  for (size_t i = 0; i < plan.pieces.size(); ++i) {
    const Piece& p = plan.pieces[i];
    const uint64_t seg0 = h.segment_starts[p.rows.segment];
    const uint64_t a = p.area + (p.rows.first - seg0), b = p.area + (p.rows.last - seg0);
    if (!p.test) {
      add(a, b);
      continue;
    }
    const uint64_t base = L.pos_area[fi].empty() ? p.area : L.pos_area[fi][i];   // the segment's start in `pos`
    for (uint64_t row = p.rows.first; row < p.rows.last; ++row) {
      const uint8_t* q = pos + (base + row - seg0) * L.pos_rb;
      if (position_in_box(q, pos_dtype, mine_)) add(a + (row - p.rows.first), a + (row - p.rows.first) + 1);
    }
  }
  return keep;
}

// Phase 4: every field's kept rows of file fi moved from its area to row `rows` of the result
// (areas come in file order, so a move never overwrites rows still to move); the rows kept.
uint64_t ParticleQuery::compact(size_t fi, const ReadLayout& L, const std::vector<std::pair<uint64_t, uint64_t>>& keep,
                                std::vector<FieldColumn>& out, uint64_t rows) const {
  uint64_t kept = 0;
  for (const auto& [a, b] : keep) kept += b - a;
  for (size_t k = 0; k < field_index_.size(); ++k) {
    const size_t rb = out[k].spec.row_bytes();
    const uint8_t* from = out[k].bytes.data() + L.area_base[fi] * rb;
    uint8_t* to = out[k].bytes.data() + rows * rb;
    uint64_t w = 0;
    for (const auto& [a, b] : keep) {
      if (to + w * rb != from + a * rb) std::memmove(to + w * rb, from + a * rb, (b - a) * rb);
      w += b - a;
    }
  }
  return kept;
}

std::vector<FieldColumn> ParticleQuery::read(uint64_t t0, uint64_t t1, ReadStats& stats) {
  const double clock0 = wall_seconds();
  std::vector<FieldColumn> out(field_index_.size());
  comm_.agree([&] {
    ReadLayout L = plan_read(t0, t1);
    for (size_t k = 0; k < field_index_.size(); ++k) {
      out[k].spec = schema_.field(field_index_[k]);
      out[k].bytes.allocate(L.area_total * out[k].spec.row_bytes());
    }
    // A batch of files at a time (as many as the handle cache keeps open): their requests, then
    // each file's rows tested and compacted, in file order.
    uint64_t rows = 0;
    for (size_t b0 = 0; b0 < files_.size(); b0 += cache_.capacity()) {
      const size_t b1 = std::min(files_.size(), b0 + cache_.capacity());
      fetch(b0, b1, L, out, stats);
      for (size_t fi = b0; fi < b1; ++fi) {
        if (L.plans[fi].pieces.empty()) continue;
        rows += compact(fi, L, rows_kept(fi, L, out), out, rows);
        if (keep_partial_)   // segments used to their end are done with
          for (const Piece& p : L.plans[fi].pieces)
            if (p.rows.last == files_[fi].head.segment_starts[p.rows.segment + 1]) partial_.erase({fi, p.rows.segment});
      }
    }
    for (auto& c : out) {
      c.rows = rows;
      c.bytes.shrink(rows * c.spec.row_bytes());
      stats.bytes_returned += c.bytes.size();
    }
    stats.particles = rows;
  });
  stats.candidates = candidates_;
  stats.seconds += wall_seconds() - clock0;
  return out;
}

}  // namespace lodex
