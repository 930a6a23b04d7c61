// A box's sample less the samples a viewer already holds (lodex serve's zoom; docs/serve.md): the
// rows of each sample come from the read planner (ParticleQuery::sample_ranges, a prefix of every
// brick's level-of-detail order), the held rows are taken out of the new ones as row sets, and only
// the rows whose answer depends on their position (a brick on a box's face, a clip box) have their
// positions read; then the fields of the rows left. Equal to a value query every particle of the
// box passes at level 0 with P = take, less the union of the same queries of the held samples
// (their positions also inside the clip box), matched by file and row.
#include <roaring/roaring.hh>

#include <algorithm>
#include <map>
#include <optional>

#include "core/worker_pool.hpp"
#include "layout/particle_domain.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/particle_query.hpp"
#include "pipelines/particles/particle_rows.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

namespace {

using SampleRows = std::map<size_t, std::vector<ParticleQuery::SampleRange>>;

// One sample as row sets of each file: rows whose bricks lie inside the box (no test) and rows
// on its faces (their position decides), with the boxes that decide.
struct SampleSets {
  Box box;                    // closed at the domain's maximum, as a read's
  std::optional<Box> clip;    // held samples only: the part held (its max exclusive)
  std::map<size_t, std::pair<Roaring, Roaring>> files;   // record -> (inside, face)
};

void check_sample_box(const Box& box, const ParticleGroupMeta& g, const char* what) {
  validate_box(box);
  refuse_periodic_images(box, g, what);
}

// The rows the sample positions [0, take) of `box` take in each file: the planner's ranges of a
// level-0 read with P = take by one reader, set up here alone (every candidate's head is read).
SampleSets sample_sets(const LoadedMetadata& loaded, const ParticleGroupMeta& g, const Box& domain, const Box& box,
                       uint64_t take, double S, ValueQueryStats& stats) {
  SampleSets out;
  out.box = closed_at_domain_max(box, domain, g.periodic);
  ReadRequest r;
  r.box = out.box;
  r.level = 0;
  r.lod = LodRequest{1, take, S};
  ParticleQuery q(loaded.step_dir, loaded.confinement, g.schema, g.lod, loaded.meta, loaded.bytes, r, true,
                  MPI_COMM_NULL, std::nullopt);
  const SampleRows ranges = q.sample_ranges(q.level_target(0));
  stats.data_bytes += q.setup_stats().head_bytes;
  stats.requests += q.setup_stats().requests;
  for (const auto& [file, rs] : ranges) {
    if (rs.empty()) continue;
    const DataFileRecord& rec = loaded.meta.files[file];
    if (rec.count >= (uint64_t{1} << 32))
      fail(ErrorCode::kUnsupported, "'", rec.file_name, "' has ", rec.count,
           " particles; sample differences cover files of fewer than 2^32");
    auto& [inside, face] = out.files[file];
    for (const ParticleQuery::SampleRange& x : rs) {
      if (x.last > rec.count)
        fail(ErrorCode::kInternal, "'", rec.file_name, "': a sample range ends at row ", x.last, " of ", rec.count);
      (x.test ? face : inside).addRange(x.first, x.last);
    }
  }
  return out;
}

// One file's part of the answer: the rows of `fresh` that no held sample holds, ascending, and
// the requested fields of those rows.
struct FileDifference {
  std::vector<uint32_t> rows;
  std::vector<std::vector<uint8_t>> columns;
  uint64_t sample = 0;   // the file's rows of the box's sample (counted when asked)
  ValueQueryStats stats;
};

class FileSubtraction {
 public:
  FileSubtraction(const LoadedMetadata& loaded, const Schema& schema, size_t record, const SampleSets& fresh,
                  const std::vector<SampleSets>& held, const std::vector<size_t>& fields, bool count_sample)
      : loaded_(loaded),
        schema_(schema),
        record_(record),
        fresh_(fresh),
        held_(held),
        fields_(fields),
        count_sample_(count_sample) {}

  FileDifference run() {
    const auto& [inside, face] = fresh_.files.at(record_);
    // Phase 1, row sets: the rows held whatever their position go; the rest left to decide.
    Roaring rows = inside | face;
    std::vector<const std::pair<Roaring, Roaring>*> held_here(held_.size(), nullptr);
    for (size_t i = 0; i < held_.size(); ++i)
      if (auto it = held_[i].files.find(record_); it != held_[i].files.end()) held_here[i] = &it->second;
    for (size_t i = 0; i < held_.size(); ++i)
      if (held_here[i] && !held_[i].clip) rows -= held_here[i]->first;
    Roaring decide = count_sample_ ? face : rows & face;
    answer_.sample = inside.cardinality();
    for (size_t i = 0; i < held_.size(); ++i)
      if (held_here[i])
        decide |= rows & (held_[i].clip ? held_here[i]->first | held_here[i]->second : held_here[i]->second);
    // Phase 2, positions: the rows to decide, read and tested.
    if (!decide.isEmpty()) rows -= dropped(decide, face, held_here);
    // Phase 3, the answer's fields.
    FileDifference& a = answer_;
    a.rows.resize(rows.cardinality());
    rows.toUint32Array(a.rows.data());
    for (size_t f : fields_) {
      a.columns.emplace_back(a.rows.size() * schema_.field(f).row_bytes());
      if (!a.rows.empty()) gather_rows(data(), f, a.rows.data(), a.rows.size(), a.columns.back().data(), io_);
    }
    a.stats.data_bytes += io_.bytes;
    a.stats.requests += io_.requests;
    return std::move(a);
  }

 private:
  // The rows of `decide` whose positions leave them out: outside the new box (face rows), or
  // inside a held sample (its face rows inside its box, and inside its clip box).
  Roaring dropped(const Roaring& decide, const Roaring& face,
                  const std::vector<const std::pair<Roaring, Roaring>*>& held) {
    std::vector<uint32_t> ids(decide.cardinality());
    decide.toUint32Array(ids.data());
    const size_t pos = schema_.position_index();
    const FieldSpec& ps = schema_.field(pos);
    std::vector<uint8_t> at(ids.size() * ps.row_bytes());
    gather_rows(data(), pos, ids.data(), ids.size(), at.data(), io_);
    answer_.stats.rows_checked += ids.size();
    std::vector<uint32_t> out;
    for (size_t k = 0; k < ids.size(); ++k) {
      const uint8_t* p = at.data() + k * ps.row_bytes();
      const bool on_face = face.contains(ids[k]), in_box = on_face && position_in_box(p, ps.dtype, fresh_.box);
      answer_.sample += in_box;
      bool drop = on_face && !in_box;
      for (size_t i = 0; i < held.size() && !drop; ++i) {
        if (!held[i]) continue;
        const bool in_inside = held[i]->first.contains(ids[k]),
                   in_face = !in_inside && held[i]->second.contains(ids[k]);
        drop = (in_inside || (in_face && position_in_box(p, ps.dtype, held_[i].box))) &&
               (!held_[i].clip || position_in_box(p, ps.dtype, *held_[i].clip));
      }
      if (drop) out.push_back(ids[k]);
    }
    Roaring r;
    r.addMany(out.size(), out.data());
    return r;
  }

  const DataFile& data() {
    if (!file_) {
      IoCount io;
      file_ = open_data_file(loaded_.confinement, loaded_.step_dir, loaded_.meta.files[record_], schema_, io);
      io_.bytes += io.bytes;
      io_.requests += io.requests;
    }
    return *file_;
  }

  const LoadedMetadata& loaded_;
  const Schema& schema_;
  size_t record_;
  const SampleSets& fresh_;
  const std::vector<SampleSets>& held_;
  const std::vector<size_t>& fields_;
  bool count_sample_ = false;
  std::optional<DataFile> file_;
  IoCount io_;
  FileDifference answer_;
};

}  // namespace

SampleDifferenceResult ParticleGroup::sample_difference(int64_t step, const SampleDifference& d) const {
  const double t0 = wall_seconds();
  ds_->require_open();
  const ParticleGroupMeta& g = group_meta(*ds_, name_);
  if (d.take == 0) fail(ErrorCode::kInvalidArgument, "a sample's take must be at least 1, got 0");
  check_sample_box(d.box, g, "a sample difference");
  for (const HeldSample& h : d.held) {
    if (h.take == 0) fail(ErrorCode::kInvalidArgument, "a held sample's take must be at least 1, got 0");
    check_sample_box(h.box, g, "a held sample");
    if (h.clip) validate_box(*h.clip);
  }
  std::vector<size_t> fields;
  for (const std::string& n : d.fields) {
    const size_t f = g.schema.index_of(n);
    if (std::find(fields.begin(), fields.end(), f) != fields.end())
      fail(ErrorCode::kInvalidArgument, "field '", n, "' is requested twice");
    fields.push_back(f);
  }
  const Box domain = g.step_domain(step_record(g, step));
  const LoadedMetadata loaded = load_metadata(*ds_, name_, step);

  SampleDifferenceResult result;
  ValueQueryResult& out = result.answer;
  out.stats.files = loaded.meta.files.size();
  const SampleSets fresh = sample_sets(loaded, g, domain, d.box, d.take, d.S, out.stats);
  std::vector<SampleSets> held;
  for (const HeldSample& h : d.held) {
    held.push_back(sample_sets(loaded, g, domain, h.box, h.take, d.S, out.stats));
    held.back().clip = h.clip;
  }
  std::vector<size_t> records;
  for (const auto& [record, sets] : fresh.files) records.push_back(record);
  std::vector<FileDifference> answers(records.size());
  parallel_for(records.size(), io_threads(), [&](size_t i, size_t) {
    answers[i] = FileSubtraction(loaded, g.schema, records[i], fresh, held, fields, d.count_sample).run();
  });

  // The files' answers in record order, each file's rows ascending (a value query's order).
  uint64_t total = 0;
  for (const FileDifference& a : answers) total += a.rows.size();
  out.columns.resize(fields.size());
  for (size_t k = 0; k < fields.size(); ++k) {
    out.columns[k].spec = g.schema.field(fields[k]);
    out.columns[k].bytes.allocate(total * out.columns[k].spec.row_bytes());
    out.columns[k].rows = total;
  }
  uint64_t at = 0, sample = 0;
  for (size_t i = 0; i < answers.size(); ++i) {
    FileDifference& a = answers[i];
    sample += a.sample;
    out.stats.rows_checked += a.stats.rows_checked;
    out.stats.data_bytes += a.stats.data_bytes;
    out.stats.requests += a.stats.requests;
    if (a.rows.empty()) continue;
    for (size_t k = 0; k < fields.size(); ++k) {
      const uint64_t rb = out.columns[k].spec.row_bytes();
      std::copy(a.columns[k].begin(), a.columns[k].end(), out.columns[k].bytes.data() + at * rb);
    }
    at += a.rows.size();
    out.files.push_back({loaded.meta.files[records[i]].file_name, std::move(a.rows)});
  }
  out.count = out.local_count = total;
  if (d.count_sample) result.sample = sample;
  out.stats.seconds = wall_seconds() - t0;
  return result;
}

}  // namespace lodex
