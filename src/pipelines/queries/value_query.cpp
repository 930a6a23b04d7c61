// Value queries over particle steps (Byna et al. 2012 §IV-B; docs/queries.md): the spatial metadata
// prunes files; in each remaining file the bitmaps of the comparisons give rows that surely match
// and rows to check (layout/value_query_plan.hpp); a box and a level narrow both; the rows to
// check are read (whole verified segments) and tested against the query. The indexes are built
// in index_build.cpp.
#include <roaring/roaring.hh>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

#include "core/worker_pool.hpp"
#include "format/bitmap_index.hpp"
#include "layout/binning.hpp"
#include "layout/particle_read_plan.hpp"
#include "layout/query.hpp"
#include "layout/value_query_plan.hpp"
#include "mpi/comm.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/column_stats.hpp"
#include "pipelines/particles/particle_query.hpp"
#include "pipelines/particles/particle_rows.hpp"
#include "pipelines/queries/index_common.hpp"
#include "pipelines/same_arguments.hpp"

namespace lodex {

namespace {

constexpr uint64_t kMaxBitmapGap = 64 << 10;
// A union of bitmaps holding fewer than 1 row in this many is merged as sorted row ids.
constexpr uint64_t kSparseUnionDensity = 32;

// One index file opened for a query: header and component table read, bin tables on demand.
using BinSpan = std::pair<uint32_t, uint32_t>;
using BinSpans = std::vector<BinSpan>;

struct OpenIndex {
  File file;
  std::string path;
  BitmapIndexHead head;
  std::map<uint32_t, std::vector<IndexBin>> bins;   // per component, with the NaN entry last
};

struct FileAnswer {
  uint64_t count = 0;
  std::vector<uint32_t> rows;
  std::vector<std::vector<uint8_t>> columns;   // per requested field
  std::vector<std::string> notes;
  ValueQueryStats stats;
};

// A file's per-component min/max from its metadata record (components numbered across fields).
struct MetaRanges {
  const DataFileRecord& rec;
  const std::vector<size_t>& first;   // each field's first component
  std::pair<double, double> operator()(size_t f, uint32_t c) const {
    return {rec.min[first[f] + c], rec.max[first[f] + c]};
  }
};

class FileQuery {
 public:
  // `verdict`: the query's verdict on the file from its metadata (kSure or kCheck; kNone is pruned).
  // `sample`: a query at a level, the file's rows in the read's sample at that level.
  // `trust_ranges` false: the recorded ranges could not be checked against an index and decided
  // the file alone; its comparisons then ignore them (and its values are checked against them).
  FileQuery(const Confinement& confinement, const std::string& dir, const DataFileRecord& rec, const MetaRanges& ranges,
            Tri verdict, const Schema& schema, const StepRecord& step, const QueryNode& q, const ValueQuery& vq,
            const std::vector<size_t>& out_fields, const std::vector<ParticleQuery::SampleRange>* sample,
            bool trust_ranges)
      : confinement_(confinement),
        dir_(dir),
        rec_(rec),
        ranges_(ranges),
        verdict_(verdict),
        schema_(schema),
        step_(step),
        q_(q),
        vq_(vq),
        out_fields_(out_fields),
        sample_(sample),
        trust_ranges_(trust_ranges) {}

  FileAnswer run();

 private:
  const DataFile& data() {
    if (!data_) data_ = open_data_file(confinement_, dir_, rec_, schema_, data_io_);
    return *data_;
  }
  RowSets leaf(const QueryNode& n);
  // The index of field f, or nullptr (no index, unusable: noted).
  OpenIndex* index_of(size_t f);
  const std::vector<IndexBin>* bins_of(size_t f, uint32_t c);
  // The union of the rows of the bins in `spans` (half-open ranges of bins, ascending).
  Roaring load_union(OpenIndex& ix, const std::vector<IndexBin>& bins, const BinSpans& spans);
  void give_up_index(size_t f, const std::string& why);
  // The values of field f read for the check against the ranges the metadata records, which
  // pruned and accepted whole files: a value outside them is a forged or damaged record.
  void check_within_ranges(size_t f, const uint8_t* column, uint64_t rows) const;

  const Confinement& confinement_;
  const std::string& dir_;
  const DataFileRecord& rec_;
  const MetaRanges ranges_;
  const Tri verdict_;
  const Schema& schema_;
  const StepRecord& step_;
  const QueryNode& q_;
  const ValueQuery& vq_;
  const std::vector<size_t>& out_fields_;
  const std::vector<ParticleQuery::SampleRange>* sample_;
  const bool trust_ranges_;
  uint32_t n_ = 0;
  std::optional<DataFile> data_;
  IoCount data_io_, index_io_;
  std::map<size_t, std::optional<OpenIndex>> indexes_;   // nullopt: none or unusable
  bool scanned_ = false, indexed_ = false;
  FileAnswer answer_;
};

void FileQuery::check_within_ranges(size_t f, const uint8_t* column, uint64_t rows) const {
  const FieldSpec& spec = schema_.field(f);
  std::vector<double> mn(spec.components), mx(spec.components);
  field_minmax(spec, column, rows, mn.data(), mx.data());
  for (uint32_t c = 0; c < spec.components; ++c) {
    const auto [lo, hi] = ranges_(f, c);
    if (std::isnan(mn[c])) continue;   // no value but NaN read
    if (!(mn[c] >= lo && mx[c] <= hi))
      fail(ErrorCode::kFormat, "'", rec_.file_name, "' holds values of field '", spec.name, "' (component ", c,
           ") from ", mn[c], " to ", mx[c], " outside the range its spatial metadata records (", lo, " .. ", hi,
           "): the record is forged or damaged");
  }
}

void FileQuery::give_up_index(size_t f, const std::string& why) {
  answer_.notes.push_back(why);
  indexes_[f].reset();
}

namespace {
// The bitmap index of field `spec` of data file `rec`: opened, its header and component table read
// and verified, and checked to describe this field of this version of the file (FormatError).
OpenIndex open_index(const Confinement& confinement, const std::string& dir, const DataFileRecord& rec,
                     const FieldSpec& spec, IoCount& io) {
  OpenIndex ix;
  ix.path = join_path(dir, index_file_name(rec.file_name, spec.name));
  ix.file = confinement.open(ix.path);
  const uint64_t size = ix.file.size();
  const std::string what = "index '" + ix.path + "'";
  std::vector<uint8_t> buf(std::min<uint64_t>(size, kIndexHeaderBytes));
  ix.file.pread_all(buf.data(), buf.size(), 0);
  ix.head = decode_index_header(buf.data(), buf.size(), size, what);
  buf.resize(ix.head.component_table_bytes());
  ix.file.pread_all(buf.data(), buf.size(), kIndexHeaderBytes);
  io.requests += 2;
  io.bytes += kIndexHeaderBytes + buf.size();
  decode_index_components(buf.data(), buf.size(), ix.head, what);
  if (ix.head.field != spec.name || ix.head.dtype != spec.dtype || ix.head.components.size() != spec.components ||
      ix.head.rows != rec.count)
    fail(ErrorCode::kFormat, what, " describes another field or file (", ix.head.field, ", ", ix.head.rows, " rows)");
  if (ix.head.data_head_checksum != rec.head_checksum)
    fail(ErrorCode::kFormat, what, " was built for another version of '", rec.file_name, "' (stale)");
  return ix;
}
}  // namespace

OpenIndex* FileQuery::index_of(size_t f) {
  auto it = indexes_.find(f);
  if (it != indexes_.end()) return it->second ? &*it->second : nullptr;
  std::optional<OpenIndex>& slot = indexes_[f];
  const std::string& name = schema_.field(f).name;
  const StepIndex* listed = step_.find_index(name);
  if (!vq_.use_index || !listed) return nullptr;
  OpenIndex ix;
  try {
    ix = open_index(confinement_, dir_, rec_, schema_.field(f), index_io_);
  } catch (const Error& e) {
    give_up_index(
        f, cat("bitmap index unusable, field '", name, "' of '", rec_.file_name, "' scanned instead: ", e.what()));
    return nullptr;
  }
  slot = std::move(ix);
  return &*slot;
}

const std::vector<IndexBin>* FileQuery::bins_of(size_t f, uint32_t c) {
  OpenIndex* ix = index_of(f);
  if (!ix) return nullptr;
  auto it = ix->bins.find(c);
  if (it != ix->bins.end()) return &it->second;
  try {
    const IndexComponent& ic = ix->head.components.at(c);
    std::vector<uint8_t> buf(ic.table_bytes());
    ix->file.pread_all(buf.data(), buf.size(), ic.table_offset);
    ++index_io_.requests;
    index_io_.bytes += buf.size();
    auto bins = decode_index_bins(buf.data(), buf.size(), ix->head, c, "index '" + ix->path + "'");
    return &(ix->bins[c] = std::move(bins));
  } catch (const Error& e) {
    give_up_index(f, cat("bitmap index unusable, field '", schema_.field(f).name, "' of '", rec_.file_name,
                         "' scanned instead: ", e.what()));
    return nullptr;
  }
}

Roaring FileQuery::load_union(OpenIndex& ix, const std::vector<IndexBin>& bins, const BinSpans& spans) {
  // A span's bitmaps lie back to back; spans closer than kMaxBitmapGap are read together.
  auto first_byte = [&](const BinSpan& s) { return bins[s.first].offset; };
  auto end_byte = [&](const BinSpan& s) { return bins[s.second - 1].offset + bins[s.second - 1].bytes; };
  uint64_t total = 0;
  for (const auto& [a, b] : spans)
    for (uint32_t k = a; k < b; ++k) total += bins[k].count;
  // A sparse union (the tail bins of a selective query) is merged as sorted row ids: CRoaring's
  // many-way union goes through dense containers and back. Dense ones use that union.
  const bool sparse = total * kSparseUnionDensity < n_;
  std::vector<uint32_t> ids;   // the sparse union, and raw bins of a dense one
  if (sparse) ids.reserve(total);
  std::vector<Roaring> parts;
  std::vector<uint8_t> buf;
  const std::string what = "index '" + ix.path + "'";
  for (size_t i = 0; i < spans.size();) {
    size_t j = i + 1;
    const uint64_t start = first_byte(spans[i]);
    uint64_t end = end_byte(spans[i]);
    while (j < spans.size() && first_byte(spans[j]) <= end + kMaxBitmapGap) end = end_byte(spans[j++]);
    buf.resize(end - start);
    ix.file.pread_all(buf.data(), buf.size(), start);
    ++index_io_.requests;
    index_io_.bytes += buf.size();
    for (size_t k = i; k < j; ++k)
      for (uint32_t b = spans[k].first; b < spans[k].second; ++b) {
        const IndexBin& e = bins[b];
        if (!e.count) continue;
        const uint8_t* p = buf.data() + (e.offset - start);
        if (bitmap_checksum(p, e.bytes) != e.checksum)
          fail(ErrorCode::kFormat, what, ": bitmap of bin ", b, " fails its checksum");
        if (sparse || e.raw) append_bin_rows(p, e, n_, ids, what);
        else parts.push_back(bin_bitmap(p, e, n_, what));
      }
    i = j;
  }
  Roaring out;
  if (parts.size() == 1) {
    out = std::move(parts[0]);
  } else if (parts.size() > 1) {
    std::vector<const Roaring*> ptrs;
    for (const auto& r : parts) ptrs.push_back(&r);
    out = Roaring::fastunion(ptrs.size(), ptrs.data());
  }
  if (!ids.empty()) {
    std::sort(ids.begin(), ids.end());
    out.addMany(ids.size(), ids.data());
  }
  return out;
}

RowSets FileQuery::leaf(const QueryNode& n) {
  RowSets s;
  const Tri t = trust_ranges_ ? classify_file(n, ranges_) : Tri::kCheck;
  if (t == Tri::kNone) return s;
  if (t == Tri::kSure) {
    s.sure = row_range(0, n_);
    return s;
  }
  const std::vector<IndexBin>* bins = bins_of(n.field_index, n.bound_component);
  if (bins) {
    const uint32_t nan_bin = static_cast<uint32_t>(bins->size() - 1);
    const BinChoice choice = choose_bins(
        nan_bin, [&](uint32_t b) { return std::pair{(*bins)[b].vmin, (*bins)[b].vmax}; }, bins->back().count, n.op,
        n.value);
    try {
      OpenIndex& ix = *index_of(n.field_index);
      // Sure rows: the union of the sure bins, or everything but the other bins when that reads less.
      BinSpans sure = choice.sure;
      if (choice.nan_sure) sure.push_back({nan_bin, nan_bin + 1});
      auto bytes_of = [&](const BinSpan& sp) {
        return sp.second > sp.first
                   ? (*bins)[sp.second - 1].offset + (*bins)[sp.second - 1].bytes - (*bins)[sp.first].offset
                   : 0;
      };
      uint64_t sure_bytes = 0;
      for (const BinSpan& sp : sure) sure_bytes += bytes_of(sp);
      const uint64_t rest_bytes = bytes_of({0, nan_bin + 1}) - sure_bytes;
      if (rest_bytes < sure_bytes) {
        BinSpans rest;
        uint32_t at = 0;
        for (const BinSpan& sp : sure) {
          if (sp.first > at) rest.push_back({at, sp.first});
          at = sp.second;
        }
        if (at < nan_bin + 1) rest.push_back({at, nan_bin + 1});
        s.sure = row_range(0, n_);
        s.sure -= load_union(ix, *bins, rest);
      } else {
        s.sure = load_union(ix, *bins, sure);
      }
      BinSpans check;
      for (uint32_t b : choice.check) check.push_back({b, b + 1});
      s.check = load_union(ix, *bins, check);
      indexed_ = true;
      return s;
    } catch (const Error& e) {
      give_up_index(n.field_index, cat("bitmap index unusable, field '", schema_.field(n.field_index).name, "' of '",
                                       rec_.file_name, "' scanned instead: ", e.what()));
      s = RowSets{};
    }
  }
  scanned_ = true;
  s.check = row_range(0, n_);
  return s;
}

FileAnswer FileQuery::run() {
  FileAnswer& a = answer_;
  const double t0 = wall_seconds();
  if (rec_.count >= (uint64_t{1} << 32))
    fail(ErrorCode::kUnsupported, "'", rec_.file_name, "' has ", rec_.count,
         " particles; value queries cover files of fewer than 2^32");
  n_ = static_cast<uint32_t>(rec_.count);
  RowSets sets;
  if (verdict_ == Tri::kSure) sets.sure = row_range(0, n_);
  else sets = combine_row_sets(q_, n_, [&](const QueryNode& n) { return leaf(n); });
  a.stats.index_s = since(t0);

  // The domain: a level's sample, or a box's bricks (inside: no test; faces: tested).
  const double t1 = wall_seconds();
  bool face_rows = false;
  if (vq_.box || sample_) {
    Roaring inside, face;
    if (sample_) {
      for (const ParticleQuery::SampleRange& r : *sample_) {
        if (r.last > n_)
          fail(ErrorCode::kInternal, "'", rec_.file_name, "': a sample range ends at row ", r.last, " of ", n_);
        (r.test ? face : inside).addRange(r.first, r.last);
      }
    } else {
      const ParticleFileHead& h = data().head;
      const uint32_t levels = static_cast<uint32_t>(h.level_ends.size());
      const BrickGrid grid(h.brick_box, h.brick_bits);
      for (const BrickPick& p : bricks_meeting(grid, rec_.bounds, *vq_.box))
        for (uint32_t l = 0; l < levels; ++l) {
          const uint64_t s = uint64_t{l} * h.num_bricks() + p.brick;
          const uint64_t a0 = h.segment_starts[s], a1 = h.segment_starts[s + 1];
          if (a1 > a0) (p.inside ? inside : face).addRange(a0, a1);
        }
    }
    Roaring check = sets.check & (inside | face);
    check |= sets.sure & face;
    sets.sure &= inside;
    sets.check = std::move(check);
    face_rows = !face.isEmpty();
  }
  a.stats.sure_rows = sets.sure.cardinality();

  // Candidate check: the query's fields (and positions, for face rows) of the rows to check.
  Roaring result = std::move(sets.sure);
  if (!sets.check.isEmpty()) {
    std::vector<uint32_t> rows(sets.check.cardinality());
    sets.check.toUint32Array(rows.data());
    a.stats.rows_checked = rows.size();
    std::vector<size_t> need = query_fields(q_);
    const size_t pos = schema_.position_index();
    if (face_rows && std::find(need.begin(), need.end(), pos) == need.end()) need.push_back(pos);
    std::vector<std::vector<uint8_t>> cols(schema_.size());
    for (size_t f : need) {
      cols[f].resize(rows.size() * schema_.field(f).row_bytes());
      gather_rows(data(), f, rows.data(), rows.size(), cols[f].data(), data_io_);
      check_within_ranges(f, cols[f].data(), rows.size());
    }
    std::vector<uint8_t> ok;
    eval_query_scan(q_, schema_, [&](size_t f) -> const void* { return cols[f].data(); }, rows.size(), ok);
    if (face_rows) {
      const FieldSpec& ps = schema_.field(pos);
      for (size_t i = 0; i < rows.size(); ++i)
        ok[i] = ok[i] && position_in_box(cols[pos].data() + i * ps.row_bytes(), ps.dtype, *vq_.box);
    }
    std::vector<uint32_t> hits;
    for (size_t i = 0; i < rows.size(); ++i)
      if (ok[i]) hits.push_back(rows[i]);
    result.addMany(hits.size(), hits.data());
  }
  a.stats.check_s = since(t1);
  a.count = result.cardinality();

  const double t2 = wall_seconds();
  if (vq_.rows && a.count) {
    a.rows.resize(a.count);
    result.toUint32Array(a.rows.data());
    for (size_t f : out_fields_) {
      a.columns.emplace_back(a.rows.size() * schema_.field(f).row_bytes());
      gather_rows(data(), f, a.rows.data(), a.rows.size(), a.columns.back().data(), data_io_);
    }
  }
  a.stats.data_s = since(t2);
  a.stats.files_indexed = indexed_ && !scanned_;
  a.stats.files_scanned = scanned_;
  a.stats.index_bytes = index_io_.bytes;
  a.stats.data_bytes = data_io_.bytes;
  a.stats.requests = index_io_.requests + data_io_.requests;
  return std::move(a);
}

void add_stats(ValueQueryStats& to, const ValueQueryStats& s) {
  to.files_indexed += s.files_indexed;
  to.files_scanned += s.files_scanned;
  to.rows_checked += s.rows_checked;
  to.sure_rows += s.sure_rows;
  to.index_bytes += s.index_bytes;
  to.data_bytes += s.data_bytes;
  to.requests += s.requests;
  to.index_s += s.index_s;
  to.check_s += s.check_s;
  to.data_s += s.data_s;
}

}  // namespace

namespace {
// Whether a recorded range [lo, hi] holds the range [vmin, vmax] of the values (NaN: no values).
// The metadata's ranges are outer bounds (integers past 2^53 rounded outwards), the index's the
// values rounded to the nearest double, so holding is the test, not equality.
bool holds(double lo, double hi, double vmin, double vmax) {
  if (std::isnan(vmin) || std::isnan(vmax)) return true;
  return !std::isnan(lo) && !std::isnan(hi) && lo <= vmin && vmax <= hi;
}

// Checks a file's recorded ranges of field `spec` against the ranges its bitmap index gives
// (FormatError when they do not hold them). False when there is no usable index to check with.
bool checked_against_index(const LoadedMetadata& loaded, const DataFileRecord& rec, const FieldSpec& spec, size_t first,
                           IoCount& io) {
  OpenIndex ix;
  try {
    ix = open_index(loaded.confinement, loaded.step_dir, rec, spec, io);
  } catch (const Error&) {
    return false;
  }
  for (uint32_t c = 0; c < spec.components; ++c)
    if (!holds(rec.min[first + c], rec.max[first + c], ix.head.components[c].min, ix.head.components[c].max))
      fail(ErrorCode::kFormat, "'", rec.file_name, "': the spatial metadata gives '", spec.name, "' component ", c,
           " the range [", rec.min[first + c], ", ", rec.max[first + c], "], which does not hold its bitmap index's [",
           ix.head.components[c].min, ", ", ix.head.components[c].max, "] (forged or damaged metadata)");
  return true;
}

// Files the component ranges alone decided (pruned, or every row a match) are never read, so
// their recorded ranges are all the answer rests on. Where the step indexes a query field, the
// file's bitmap index (a separate file, tied to the data file's head checksum) holds the same
// ranges: they must agree (FormatError otherwise). A file whose index cannot be used is read
// instead (its verdict becomes kCheck: its values are checked against the ranges as they are
// read). The files are shared among the ranks; every rank learns every verdict.
void check_decided_ranges(const Comm& comm, const LoadedMetadata& loaded, const Schema& schema, const StepRecord& step,
                          const QueryNode& q, const std::vector<size_t>& first_component,
                          const std::vector<size_t>& decided, std::vector<Tri>& verdicts, std::vector<bool>& distrusted,
                          ValueQueryStats& stats) {
  std::vector<size_t> indexed;
  for (size_t f : query_fields(q))
    if (step.find_index(schema.field(f).name)) indexed.push_back(f);
  if (indexed.empty() || decided.empty()) return;
  const std::vector<size_t> mine = share_files(std::vector<uint64_t>(decided.size(), 1), comm.size())[comm.rank()];
  std::vector<uint64_t> unverified(decided.size(), 0);
  std::vector<IoCount> io(mine.size());
  comm.agree([&] {
    parallel_for(mine.size(), io_threads(), [&](size_t i, size_t) {
      const DataFileRecord& rec = loaded.meta.files[decided[mine[i]]];
      for (size_t f : indexed)
        if (!checked_against_index(loaded, rec, schema.field(f), first_component[f], io[i])) unverified[mine[i]] = 1;
    });
  });
  comm.allreduce_u64(unverified, MPI_MAX);
  for (size_t k = 0; k < decided.size(); ++k)
    if (unverified[k]) verdicts[decided[k]] = Tri::kCheck, distrusted[decided[k]] = true;
  for (const IoCount& c : io) stats.index_bytes += c.bytes, stats.requests += c.requests;
}

using SampleRows = std::map<size_t, std::vector<ParticleQuery::SampleRange>>;

// The rows of every file that a read of the step (and box) at vq.level takes, by metadata record
// index: what a query at a level is filtered to. A read by vq.lod.readers readers (0: `ranks`),
// set up here by this rank alone over every candidate file (their heads are read; `stats` counts
// them), so every rank knows every file's share of the sample.
SampleRows level_sample(const LoadedMetadata& loaded, const ParticleGroupMeta& g, const ValueQuery& vq, int ranks,
                        ValueQueryStats& stats) {
  ReadRequest r;
  r.box = vq.box;
  r.level = vq.level;
  r.lod = vq.lod;
  if (r.lod.readers == 0) r.lod.readers = static_cast<uint64_t>(ranks);
  ParticleQuery q(loaded.step_dir, loaded.confinement, g.schema, g.lod, loaded.meta, loaded.bytes, r, true,
                  MPI_COMM_NULL, std::nullopt);
  SampleRows out = q.sample_ranges(q.level_target(*vq.level));
  stats.data_bytes += q.setup_stats().head_bytes;
  stats.requests += q.setup_stats().requests;
  return out;
}
}  // namespace

namespace {

// What the query needs once its arguments are checked (every rank agrees on them).
struct QuerySetup {
  QueryNode q;
  LoadedMetadata loaded;
  std::vector<size_t> out_fields;   // schema indices of the fields returned
  const StepRecord* step = nullptr;
  std::vector<size_t> first_component;   // per field: its first component in the metadata's ranges
};

QuerySetup set_up(const Comm& comm, const DatasetState& st, const std::string& name, int64_t step, const ValueQuery& vq,
                  const std::optional<Error>& input_error) {
  QuerySetup s;
  comm.agree(input_error, [&] {
    st.require_open();
    const ParticleGroupMeta& g = group_meta(st, name);
    s.q = parse_query(vq.text);
    bind_query(s.q, g.schema);
    if (vq.box) validate_box(*vq.box);
    if (vq.box) refuse_periodic_images(*vq.box, g, "a value query");
    check_query_fields(g.schema, vq.fields, "return");
    for (const auto& f : vq.fields) s.out_fields.push_back(g.schema.index_of(f));
    s.step = &step_record(g, step);
    s.loaded = load_metadata(st, name, step);
  });
  const auto box_str = [](const Box& b) { return to_string(b); };
  const auto level_str = [](uint32_t l) { return std::to_string(l); };
  require_same_arguments(comm, "value query",
                         {{"group", name},
                          {"query text", vq.text},
                          {"step", std::to_string(step)},
                          {"box", argument_text(vq.box, box_str)},
                          {"level", argument_text(vq.level, level_str)},
                          {"level-of-detail parameters", cat(vq.lod.readers, ',', vq.lod.P, ',', vq.lod.S)},
                          {"fields", argument_text(vq.fields)},
                          {"rows", std::to_string(vq.rows)},
                          {"use_index", std::to_string(vq.use_index)}});
  const Schema& schema = group_meta(st, name).schema;
  s.first_component.assign(schema.size(), 0);
  for (size_t f = 1; f < schema.size(); ++f)
    s.first_component[f] = s.first_component[f - 1] + schema.field(f - 1).components;
  return s;
}

// Step-wide notes: the query's fields without an index.
std::vector<std::string> index_notes(const QuerySetup& s, const Schema& schema, const ValueQuery& vq, int64_t step) {
  if (!vq.use_index) return {"use_index is off: every candidate file is scanned"};
  std::vector<std::string> notes;
  for (size_t f : query_fields(s.q))
    if (!s.step->find_index(schema.field(f).name))
      notes.push_back(cat("no bitmap index on '", schema.field(f).name, "' for step ", step,
                          ": its comparisons are checked by a scan"));
  return notes;
}

// The files left to read once the metadata has pruned (box, level sample, component ranges,
// those ranges checked against the indexes), with their verdicts.
struct LiveFiles {
  std::vector<size_t> index;     // metadata record of each
  std::vector<Tri> verdict;      // kCheck, or kAll: every row matches
  std::vector<uint64_t> rows;    // the work each is
  std::vector<bool> distrusted;  // per record: ranges not confirmed by the index (read ignoring them)
  SampleRows sample;             // a level: each record's rows in the read's sample
};

LiveFiles decide_files(const Comm& comm, const DatasetState& st, const std::string& name, const QuerySetup& s,
                       const ValueQuery& vq, ValueQueryStats& stats) {
  const SpatialMetadata& meta = s.loaded.meta;
  const Schema& schema = group_meta(st, name).schema;
  LiveFiles live;
  if (vq.level)   // files the sample takes nothing from go
    comm.agree([&] { live.sample = level_sample(s.loaded, group_meta(st, name), vq, comm.size(), stats); });
  auto sampled = [&](size_t i) {
    auto it = live.sample.find(i);
    return it != live.sample.end() && !it->second.empty();
  };
  std::vector<Tri> verdicts(meta.files.size(), Tri::kNone);
  std::vector<size_t> by_range;   // files the component ranges alone decide: pruned, or all rows match
  for (size_t i = 0; i < meta.files.size(); ++i) {
    const DataFileRecord& rec = meta.files[i];
    if (rec.count == 0 || (vq.box && !bounds_meet(rec.bounds, *vq.box)) || (vq.level && !sampled(i))) continue;
    verdicts[i] = classify_file(s.q, MetaRanges{rec, s.first_component});
    if (verdicts[i] != Tri::kCheck) by_range.push_back(i);
  }
  live.distrusted.assign(meta.files.size(), false);
  if (vq.use_index)
    check_decided_ranges(comm, s.loaded, schema, *s.step, s.q, s.first_component, by_range, verdicts, live.distrusted,
                         stats);
  for (size_t i = 0; i < meta.files.size(); ++i) {
    if (verdicts[i] == Tri::kNone) {
      ++stats.files_pruned;
      continue;
    }
    live.index.push_back(i);
    live.verdict.push_back(verdicts[i]);
    live.rows.push_back(meta.files[i].count);
  }
  return live;
}

// This rank's answers gathered into `out`: matching rows' columns in file order, the files and
// their rows, counts and stats; returns the files' notes.
std::vector<std::string> gather_answers(std::vector<FileAnswer>& answers, const std::vector<size_t>& files,
                                        const QuerySetup& s, const Schema& schema, ValueQueryResult& out) {
  std::vector<std::string> notes;
  out.columns.resize(s.out_fields.size());
  uint64_t total_rows = 0;
  for (const FileAnswer& a : answers) total_rows += a.rows.size();
  for (size_t k = 0; k < s.out_fields.size(); ++k) {
    out.columns[k].spec = schema.field(s.out_fields[k]);
    out.columns[k].bytes.allocate(total_rows * out.columns[k].spec.row_bytes());
    out.columns[k].rows = total_rows;
  }
  uint64_t at = 0;
  for (size_t i = 0; i < answers.size(); ++i) {
    FileAnswer& a = answers[i];
    out.local_count += a.count;
    add_stats(out.stats, a.stats);
    for (auto& n : a.notes) notes.push_back(std::move(n));
    if (a.rows.empty()) continue;
    for (size_t k = 0; k < s.out_fields.size(); ++k) {
      const uint64_t rb = out.columns[k].spec.row_bytes();
      std::memcpy(out.columns[k].bytes.data() + at * rb, a.columns[k].data(), a.columns[k].size());
    }
    at += a.rows.size();
    out.files.push_back({s.loaded.meta.files[files[i]].file_name, std::move(a.rows)});
  }
  return notes;
}

// Every rank's notes, on every rank.
std::vector<std::string> all_notes(const Comm& comm, const std::vector<std::string>& mine) {
  std::string joined;
  for (const auto& n : mine) joined += n + '\n';
  if (comm.is_mpi()) {
    const std::vector<uint8_t> all = comm.gatherv(std::vector<uint8_t>(joined.begin(), joined.end()), 0);
    joined.assign(all.begin(), all.end());
    comm.bcast_string(joined, 0);
  }
  std::vector<std::string> out;
  for (size_t p = 0, e; p < joined.size(); p = e + 1) {
    e = joined.find('\n', p);
    out.push_back(joined.substr(p, e - p));
  }
  return out;
}

}  // namespace

ValueQueryResult ParticleGroup::query(int64_t step, const ValueQuery& asked, MPI_Comm comm_raw,
                                      const std::optional<Error>& input_error) const {
  const double t_start = wall_seconds();
  // A box reaching the step's domain maximum holds the particles on it (the maximum is inclusive).
  ValueQuery vq = asked;
  const ParticleGroupMeta& g = group_meta(*ds_, name_);
  if (const StepRecord* r = g.find_step(step); r && vq.box && !input_error)
    vq.box = closed_at_domain_max(*vq.box, g.step_domain(*r), g.periodic);
  const Comm comm = comm_raw == MPI_COMM_NULL ? Comm() : Comm(comm_raw);
  const QuerySetup s = set_up(comm, *ds_, name_, step, vq, input_error);
  const Schema& schema = group_meta(*ds_, name_).schema;
  ValueQueryResult out;
  out.notes = index_notes(s, schema, vq, step);
  out.stats.files = s.loaded.meta.files.size();
  const LiveFiles live = decide_files(comm, *ds_, name_, s, vq, out.stats);

  // The remaining files shared among the ranks, each rank's on its threads.
  const std::vector<size_t> mine = share_files(live.rows, comm.size())[comm.rank()];
  std::vector<FileAnswer> answers(mine.size());
  std::vector<size_t> files(mine.size());
  comm.agree([&] {
    parallel_for(mine.size(), io_threads(), [&](size_t i, size_t) {
      const size_t k = mine[i], r = live.index[k];
      const DataFileRecord& rec = s.loaded.meta.files[r];
      files[i] = r;
      answers[i] = FileQuery(s.loaded.confinement, s.loaded.step_dir, rec, MetaRanges{rec, s.first_component},
                             live.verdict[k], schema, *s.step, s.q, vq, s.out_fields,
                             vq.level ? &live.sample.at(r) : nullptr, !live.distrusted[r])
                       .run();
    });
  });
  const std::vector<std::string> notes = gather_answers(answers, files, s, schema, out);
  out.count = comm.allreduce_u64(out.local_count, MPI_SUM);
  for (auto& n : all_notes(comm, notes)) out.notes.push_back(std::move(n));
  out.stats.seconds = since(t_start);
  return out;
}

}  // namespace lodex
