#include "pipelines/particle_query.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/checksum.hpp"
#include "storage/file.hpp"

namespace lodex {

namespace {

}  // namespace

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
                               uint32_t n) {
  std::vector<FileExtent> extents;
  for (size_t i : order) extents.push_back({meta.files[i].bounds, meta.files[i].count});
  return spatial_split(query, extents, n);
}

namespace {

template <typename T>
bool in_box(const T* p, const Box& b) {
  for (int a = 0; a < 3; ++a) {
    const double v = static_cast<double>(p[a]);
    if (!(v >= b.inclusive_min[a] && v < b.exclusive_max[a])) return false;
  }
  return true;
}

uint64_t request_hash(const ReadRequest& r, const std::string& dir, bool sampled) {
  std::string key = cat(dir, '|', sampled, '|', static_cast<int>(r.split), '|', r.lod.readers, '|', r.lod.P, '|',
                        r.lod.S, '|', r.level.value_or(UINT32_MAX), '|', r.fraction.value_or(-1.0), '|');
  if (r.box) key += to_string(*r.box);
  for (const auto& f : r.fields) key += "|" + f;
  return checksum64(key.data(), key.size());
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

ParticleQuery::ParticleQuery(std::string step_dir, const Schema& schema, SpatialMetadata meta, uint64_t metadata_bytes,
                             const ReadRequest& request, bool sampled, MPI_Comm comm,
                             const std::optional<Error>& prior)
    : dir_(std::move(step_dir)), schema_(schema), meta_(std::move(meta)) {
  const auto t0 = std::chrono::steady_clock::now();
  if (comm != MPI_COMM_NULL) comm_ = Comm(comm);
  setup_.metadata_bytes = metadata_bytes;
  setup_.bytes_read = metadata_bytes;
  if (comm_.is_mpi()) {
    comm_.agree([] {});   // a rank whose arguments failed its binding's checks raises here (abort_read)
    // Every rank must ask the same question, or the collectives below would not match.
    std::vector<uint64_t> h{request_hash(request, dir_, sampled)};
    h.push_back(~h[0]);
    comm_.allreduce_u64(h, MPI_MIN);
    if (h[0] != ~h[1])
      fail(ErrorCode::kInvalidArgument, "the ranks of a parallel read passed different steps, boxes, fields, "
           "levels, fractions or splits; every rank must pass the same");
  }
  comm_.agree([&] {
    if (prior) throw *prior;
    setup(request, sampled);
  });
  if (sampled) {
    // Every rank learns every candidate file's exact count: the sample line is global.
    std::vector<uint64_t> counts(candidates_order_.size(), UINT64_MAX);
    for (const auto& f : files_) counts[f.candidate] = f.candidates;
    comm_.allreduce_u64(counts, MPI_MIN);
    file_offset_.assign(counts.size(), 0);
    uint64_t sum = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] == UINT64_MAX)
        fail(ErrorCode::kInternal, "no reader opened candidate file '", meta_.files[candidates_order_[i]].file_name, "'");
      file_offset_[i] = sum;
      sum += counts[i];
    }
    candidates_ = sum;
    sampler_ = std::make_unique<NestedSampler>(candidates_);
  }
  setup_.candidates = candidates_;
  setup_.seconds = seconds_since(t0);
}

ParticleQuery::~ParticleQuery() = default;

void ParticleQuery::setup(const ReadRequest& request, bool sampled) {
  if (request.level && request.fraction)
    fail(ErrorCode::kInvalidArgument, "give a level or a fraction, not both");
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
  if (request.split == ReadSplit::kSpatial) {
    mine_ = spatial_parts(meta_, candidates_order_, query_, n)[me];   // a part of the query box
    for (size_t c = 0; c < candidates_order_.size(); ++c)
      if (bounds_meet(meta_.files[candidates_order_[c]].bounds, mine_)) open_file(c, mine_, nullptr);
  } else {
    std::vector<uint64_t> weights;
    for (size_t i : candidates_order_) {
      const DataFileRecord& r = meta_.files[i];
      weights.push_back(static_cast<uint64_t>(std::ceil(estimated_inside(r.bounds, r.count, query_))));
    }
    const ByteSplit split(weights, n);
    mine_ = query_;
    for (size_t c = 0; c < candidates_order_.size(); ++c)
      if (split.reader_touches(me, c)) open_file(c, mine_, &split);
  }
  setup_.files_opened = cache_.opens();
}

void ParticleQuery::open_file(size_t candidate, const Box& mine, const ByteSplit* split) {
  const DataFileRecord& rec = meta_.files[candidates_order_[candidate]];
  OpenFile f;
  f.candidate = candidate;
  f.path = join_path(dir_, rec.file_name);
  const std::string what = "'" + f.path + "'";
  File& file = cache_.get(f.path);
  const uint64_t size = file.size();
  if (size != rec.file_bytes)
    fail(ErrorCode::kFormat, what, " has ", size, " bytes; the spatial metadata says ", rec.file_bytes,
         " (truncated or replaced)");
  if (size < kParticleHeaderBytes)
    fail(ErrorCode::kFormat, what, " is truncated: ", size, " bytes is shorter than the header");
  std::vector<uint8_t> bytes(kParticleHeaderBytes);
  file.pread_all(bytes.data(), kParticleHeaderBytes, 0);
  const uint64_t head_size = decode_particle_header_size(bytes.data(), bytes.size(), size, what);
  bytes.resize(head_size);
  file.pread_all(bytes.data() + kParticleHeaderBytes, head_size - kParticleHeaderBytes, kParticleHeaderBytes);
  setup_.requests += 2;
  setup_.head_bytes += head_size;
  setup_.bytes_read += head_size;
  if (checksum64(bytes.data(), head_size) != rec.head_checksum)
    fail(ErrorCode::kFormat, what, " header does not match its spatial metadata checksum");
  f.head = decode_particle_head(bytes.data(), head_size, size, what);
  if (f.head.num_particles != rec.count || !(f.head.fields == schema_.fields()))
    fail(ErrorCode::kFormat, what, " holds a different particle count or schema than its metadata says");

  const ParticleFileHead& h = f.head;
  const uint32_t levels = static_cast<uint32_t>(h.level_ends.size());
  const BrickGrid grid(h.brick_box, h.brick_bits);
  const std::vector<BrickPick> picks = bricks_meeting(grid, rec.bounds, query_);
  std::vector<BrickPick> own;   // spatial split: the bricks meeting this rank's box
  if (!split) own = bricks_meeting(grid, rec.bounds, mine);
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
    for (Brick& b : f.bricks) b.mine = split->owner(candidate, b.before, f.candidates) == static_cast<uint32_t>(comm_.rank());
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

// Reads field `fi` of every run into `area` and verifies the segments of the pieces. With a
// cache, kept segments come from it, and segments used only in part are kept for next time.
void read_runs(const File& file, const ParticleFileHead& h, size_t fi, const FilePlan& plan, uint8_t* area,
               const std::string& path, ReadStats& stats, SegmentCache* cache, size_t file_index) {
  const size_t rb = h.fields[fi].row_bytes();
  const uint64_t nseg = h.num_segments();
  for (const Run& r : plan.runs) {
    if (r.kept) {
      const auto it = cache->find({file_index, plan.pieces[r.begin].rows.segment});
      if (it != cache->end() && !it->second[fi].empty()) {
        std::memcpy(area + r.area * rb, it->second[fi].data(), it->second[fi].size());
        continue;
      }
    }
    file.pread_all(area + r.area * rb, (r.last - r.first) * rb, h.column_offsets[fi] + r.first * rb);
    stats.requests += 1;
    stats.bytes_read += (r.last - r.first) * rb;
    for (size_t i = r.begin; i < r.end; ++i) {
      const Piece& p = plan.pieces[i];
      const uint64_t s = p.rows.segment, a = h.segment_starts[s], b = h.segment_starts[s + 1];
      const uint8_t* bytes = area + p.area * rb;
      if (checksum64(bytes, (b - a) * rb) != h.segment_checksums[fi * nseg + s])
        fail(ErrorCode::kFormat, "'", path, "' field '", h.fields[fi].name, "' rows ", a, "-", b, " (bytes from ",
             h.column_offsets[fi] + a * rb, ") fail their checksum");
      if (cache && p.rows.last < b) {
        auto& kept = (*cache)[{file_index, s}];
        kept.resize(h.fields.size());
        kept[fi].assign(bytes, bytes + (b - a) * rb);
      }
    }
  }
}
}  // namespace

std::vector<FieldColumn> ParticleQuery::read(uint64_t t0, uint64_t t1, ReadStats& stats) {
  const auto clock0 = std::chrono::steady_clock::now();
  std::vector<FieldColumn> out(field_index_.size());
  comm_.agree([&] {
    const bool whole = t0 == 0 && t1 == UINT64_MAX;
    if (!whole && !sampler_) fail(ErrorCode::kInternal, "a sampled read of a query set up without counting");
    NestedSampler::Prefix p0, p1;
    if (!whole) p0 = sampler_->prefix(t0), p1 = sampler_->prefix(t1);

    // Plan every file first, so the result is allocated once.
    std::vector<FilePlan> plans(files_.size());
    uint64_t area_total = 0;
    std::vector<RowPiece> tmp;
    for (size_t fi = 0; fi < files_.size(); ++fi) {
      const OpenFile& f = files_[fi];
      const ParticleFileHead& h = f.head;
      const uint32_t levels = static_cast<uint32_t>(h.level_ends.size());
      FilePlan& plan = plans[fi];
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
      area_total += plan.area_rows;
    }
    for (size_t k = 0; k < field_index_.size(); ++k) {
      out[k].spec = schema_.field(field_index_[k]);
      out[k].bytes.allocate(area_total * out[k].spec.row_bytes());
    }

    SegmentCache* cache = keep_partial_ ? &partial_ : nullptr;
    // Positions decide which rows of tested pieces stay; read them first.
    const size_t pos_field = schema_.index_of("position");
    const auto pos_out = std::find(field_index_.begin(), field_index_.end(), pos_field);
    const bool f8 = schema_.field(pos_field).dtype == DType::kF8;
    const size_t pos_rb = schema_.field(pos_field).row_bytes();
    HeapBytes scratch;
    uint64_t rows = 0;
    std::vector<std::pair<uint64_t, uint64_t>> keep;   // area rows kept, ascending
    for (size_t fi = 0; fi < files_.size(); ++fi) {
      const OpenFile& f = files_[fi];
      FilePlan& plan = plans[fi];
      if (plan.pieces.empty()) continue;
      const ParticleFileHead& h = f.head;
      const File& file = cache_.get(f.path);
      const bool any_test = std::any_of(plan.pieces.begin(), plan.pieces.end(), [](const Piece& p) { return p.test; });

      // 1. Which area rows stay.
      const uint8_t* pos = nullptr;           // positions of the tested pieces, by area row
      std::vector<uint64_t> pos_area;         // tested pieces' rows in `pos` (when read separately)
      if (any_test) {
        if (pos_out != field_index_.end()) {
          uint8_t* area = out[pos_out - field_index_.begin()].bytes.data() + rows * pos_rb;
          read_runs(file, h, pos_field, plan, area, f.path, stats, cache, fi);
          pos = area;
        } else {
          FilePlan tested;   // only the tested pieces' segments
          std::vector<size_t> which;
          for (size_t i = 0; i < plan.pieces.size(); ++i)
            if (plan.pieces[i].test) tested.pieces.push_back(plan.pieces[i]), which.push_back(i);
          plan_runs(h, tested);
          if (scratch.size() < tested.area_rows * pos_rb) scratch.allocate(tested.area_rows * pos_rb);
          read_runs(file, h, pos_field, tested, scratch.data(), f.path, stats, cache, fi);
          pos = scratch.data();
          pos_area.assign(plan.pieces.size(), 0);
          for (size_t j = 0; j < which.size(); ++j) pos_area[which[j]] = tested.pieces[j].area;
        }
      }
      keep.clear();
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
        const uint64_t base = pos_area.empty() ? p.area : pos_area[i];   // the segment's start in `pos`
        for (uint64_t row = p.rows.first; row < p.rows.last; ++row) {
          const uint8_t* q = pos + (base + row - seg0) * pos_rb;
          const bool in = f8 ? in_box(reinterpret_cast<const double*>(q), mine_)
                             : in_box(reinterpret_cast<const float*>(q), mine_);
          if (in) add(a + (row - p.rows.first), a + (row - p.rows.first) + 1);
        }
      }

      // 2. Every field: read the runs into the area at `rows`, verify, keep the kept rows.
      uint64_t kept = 0;
      for (const auto& [a, b] : keep) kept += b - a;
      for (size_t k = 0; k < field_index_.size(); ++k) {
        const size_t fidx = field_index_[k];
        const size_t rb = out[k].spec.row_bytes();
        uint8_t* area = out[k].bytes.data() + rows * rb;
        if (!(fidx == pos_field && any_test && pos_out != field_index_.end()))
          read_runs(file, h, fidx, plan, area, f.path, stats, cache, fi);
        uint64_t w = 0;
        for (const auto& [a, b] : keep) {
          if (a != w) std::memmove(area + w * rb, area + a * rb, (b - a) * rb);
          w += b - a;
        }
      }
      rows += kept;
      if (cache)   // segments used to their end are done with
        for (const Piece& p : plan.pieces)
          if (p.rows.last == h.segment_starts[p.rows.segment + 1]) partial_.erase({fi, p.rows.segment});
    }
    for (auto& c : out) {
      c.rows = rows;
      c.bytes.shrink(rows * c.spec.row_bytes());
      stats.bytes_returned += c.bytes.size();
    }
    stats.particles = rows;
  });
  stats.candidates = candidates_;
  stats.seconds += seconds_since(clock0);
  return out;
}

}  // namespace lodex
