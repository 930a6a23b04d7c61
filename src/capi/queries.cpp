// C API: bitmap indexes and value queries (lodex.h).
#include "capi/handles.hpp"
#include "capi/results.hpp"

using namespace lodex;
using namespace lodex::capi;

namespace {

BinningSpec binning_of(int binning, uint32_t param) {
  switch (binning) {
    case 0: return BinningSpec{};
    case LODEX_BINNING_PRECISION: return BinningSpec{Binning::kPrecision, param};
    case LODEX_BINNING_EQUAL_WEIGHT: return BinningSpec{Binning::kEqualWeight, param};
  }
  fail(ErrorCode::kInvalidArgument, "binning ", binning,
       " is not 0 (default), LODEX_BINNING_PRECISION or LODEX_BINNING_EQUAL_WEIGHT");
}

ValueQuery query_of(const lodex_query* q) {
  if (!q) fail(ErrorCode::kInvalidArgument, "query is NULL");
  ValueQuery out;
  out.text = text(q->text, "query text");
  if (q->box) out.box = particle_box(q->box, "query box");
  if (q->level < -1) fail(ErrorCode::kInvalidArgument, "query level ", q->level, " is below -1 (none)");
  if (q->level >= 0) out.level = static_cast<uint32_t>(q->level);
  out.fields = names(q->fields, q->num_fields, "query fields");
  out.rows = q->rows != 0;
  out.use_index = q->use_index != 0;
  return out;
}

const lodex_query_result* live_result(const lodex_query_result* r) { return live(r, Kind::kQueryResult, "result"); }

}  // namespace

extern "C" {

int lodex_particles_build_index(lodex_particles* g, const char* const* fields, size_t num_fields, int binning,
                                uint32_t param, const int64_t* steps, size_t num_steps, lodex_index_stats* stats) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    InputCheck check;
    IndexSpec spec;
    std::vector<int64_t> step_list;
    check.attempt([&] {
      spec.fields = names(fields, num_fields, "fields");
      spec.binning = binning_of(binning, param);
      if (num_steps > 0 && !steps) fail(ErrorCode::kInvalidArgument, "steps is NULL but num_steps is ", num_steps);
      if (num_steps > 0) step_list.assign(steps, steps + num_steps);
    });
    const IndexBuildStats s = g->group->build_index(spec, step_list, check.error());
    if (stats)
      *stats = lodex_index_stats{s.steps, s.files, s.indexes, s.rows, s.column_bytes, s.index_bytes, s.seconds};
  });
}

int lodex_query_init(lodex_query* q) {
  return guarded([&] { not_null(q, "query") = lodex_query{nullptr, nullptr, -1, nullptr, 0, 1, 1}; });
}

int lodex_particles_query(const lodex_particles* g, int64_t step, const lodex_query* q, MPI_Comm comm,
                          lodex_query_result** out) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    InputCheck check;
    ValueQuery vq;
    check.require(out != nullptr, "out is NULL");
    check.attempt([&] { vq = query_of(q); });
    auto h = std::make_unique<lodex_query_result>();
    h->result = g->group->query(step, vq, comm, check.error());   // an input error: raised on every rank
    h->columns.columns = std::move(h->result.columns);
    h->columns.borrowed = true;
    h->columns_token = register_handle(&h->columns, Kind::kColumns);
    *out = register_handle(h.get(), Kind::kQueryResult);
    h.release();
  });
}

int lodex_particles_query_f(const lodex_particles* g, int64_t step, const lodex_query* q, MPI_Fint comm,
                            lodex_query_result** out) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) { return lodex_particles_query(g, step, q, c_comm, out); });
}

int lodex_query_result_count(const lodex_query_result* r, uint64_t* count, uint64_t* local_count) {
  return guarded([&] {
    r = live_result(r);
    if (count) *count = r->result.count;
    if (local_count) *local_count = r->result.local_count;
  });
}

int lodex_query_result_file_count(const lodex_query_result* r, size_t* count) {
  return guarded([&] { not_null(count, "count") = live_result(r)->result.files.size(); });
}

int lodex_query_result_file(const lodex_query_result* r, size_t index, const char** file, const uint32_t** rows,
                            uint64_t* num_rows) {
  return guarded([&] {
    const auto& files = live_result(r)->result.files;
    if (index >= files.size())
      fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", files.size(), " files");
    if (file) *file = files[index].file.c_str();
    if (rows) *rows = files[index].rows.data();
    if (num_rows) *num_rows = files[index].rows.size();
  });
}

int lodex_query_result_columns(const lodex_query_result* r, const lodex_columns** columns) {
  return guarded([&] { not_null(columns, "columns") = live_result(r)->columns_token; });
}

int lodex_query_result_note_count(const lodex_query_result* r, size_t* count) {
  return guarded([&] { not_null(count, "count") = live_result(r)->result.notes.size(); });
}

int lodex_query_result_note(const lodex_query_result* r, size_t index, const char** note) {
  return guarded([&] {
    const auto& notes = live_result(r)->result.notes;
    if (index >= notes.size())
      fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", notes.size(), " notes");
    not_null(note, "note") = notes[index].c_str();
  });
}

int lodex_query_result_stats(const lodex_query_result* r, lodex_query_stats* out) {
  return guarded([&] {
    const ValueQueryStats& s = live_result(r)->result.stats;
    not_null(out, "out") =
        lodex_query_stats{s.files,     s.files_pruned, s.files_indexed, s.files_scanned, s.rows_checked,
                          s.sure_rows, s.index_bytes,  s.data_bytes,    s.requests,      s.seconds};
  });
}

int lodex_query_result_free(lodex_query_result* r) {
  if (!r) return LODEX_OK;
  return guarded([&] {
    std::unique_ptr<lodex_query_result> owned(release_handle(r, Kind::kQueryResult, "result"));
    unregister_handle(owned->columns_token);
  });
}

}  // extern "C"
