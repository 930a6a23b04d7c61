// C API: series (lodex.h, "Series").
#include <cstring>

#include "capi/grid_reads.hpp"

using namespace lodex;
using namespace lodex::capi;

namespace {

SeriesSpec spec_of(const lodex_series_def* def) {
  const lodex_series_def& d = not_null(def, "def");
  SeriesSpec s;
  s.dims = {d.dims[0], d.dims[1], d.dims[2]};
  if (d.num_variables > 0 && !d.variables)
    fail(ErrorCode::kInvalidArgument, "def.variables is NULL but num_variables is ", d.num_variables);
  for (size_t i = 0; i < d.num_variables; ++i) {
    const lodex_series_var& v = d.variables[i];
    const std::string name = text(v.name, cat("def.variables[", i, "].name").c_str());
    s.variables.push_back(SeriesVariable{name, dtype_of(v.dtype, cat("variable '", name, "'").c_str()), v.ndim});
  }
  s.settings.memory_budget = d.memory_budget;
  s.settings.d_tar = d.d_tar;
  s.settings.d_sar = d.d_sar;
  s.settings.bw_io = d.bw_io;
  s.settings.cc = d.cc;
  s.settings.ts = d.ts;
  return s;
}

std::vector<int64_t> step_list(const int64_t* steps, size_t num_steps) {
  if (num_steps > 0 && !steps) fail(ErrorCode::kInvalidArgument, "steps is NULL but num_steps is ", num_steps);
  return num_steps ? std::vector<int64_t>(steps, steps + num_steps) : std::vector<int64_t>{};
}

std::optional<uint64_t> optional_gap(int64_t merge_gap) {
  if (merge_gap < -1) fail(ErrorCode::kInvalidArgument, "merge_gap ", merge_gap, " is below -1 (the default)");
  if (merge_gap == -1) return std::nullopt;
  return static_cast<uint64_t>(merge_gap);
}

SeriesReadPart part_here(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                         const int64_t* box, MPI_Comm comm) {
  const auto [rank, size] = rank_and_size(comm);
  return s->group->read_part(text(var, "var"), step_list(steps, num_steps), optional_grid_box(box), rank, size);
}

}  // namespace

namespace {

// The step's checked arguments; an argument error is raised on every rank by the write.
void write_step(lodex_series* s, int64_t step, const int64_t box[6], const lodex_field_data* vars, size_t num_vars,
                bool async, unsigned flags) {
  InputCheck check;
  std::vector<FieldView> views;
  GridBox b;
  check.attempt([&] {
    views = field_views(vars, num_vars);
    b = grid_box(box, "box");
  });
  check.attempt([&] {
    if (flags & ~unsigned{LODEX_WRITE_NO_COPY})
      fail(ErrorCode::kInvalidArgument, "flags ", flags, " has bits other than LODEX_WRITE_NO_COPY");
  });
  if (async) s->group->write_async(step, b, views, check.error());
  else s->group->write(step, b, views, check.error());
}

}  // namespace

extern "C" {

int lodex_series_def_init(lodex_series_def* def) {
  return guarded([&] {
    const StarSettings d;
    not_null(def, "def") =
        lodex_series_def{{1, 1, 1}, nullptr, 0, d.memory_budget, d.d_tar, d.d_sar, d.bw_io, d.cc, d.ts};
  });
}

int lodex_series_define(lodex_dataset* ds, const char* name, const lodex_series_def* def, lodex_series** out) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    InputCheck check;
    SeriesSpec spec;
    check.require(out != nullptr, "out is NULL");
    check.require(name != nullptr, "name is NULL");
    check.attempt([&] { spec = spec_of(def); });
    SeriesGroup& g = ds->ds->series(name ? name : "", spec, check.error());   // an input error: raised on every rank
    *out = group_handle(ds->series, ds, g, Kind::kSeries);
  });
}

int lodex_series_open(lodex_dataset* ds, const char* name, lodex_series** out) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    not_null(out, "out") = group_handle(ds->series, ds, ds->ds->series(text(name, "name")), Kind::kSeries);
  });
}

int lodex_series_info_get(const lodex_series* s, lodex_series_info* out) {
  return guarded([&] {
    const SeriesMeta& m = live(s, Kind::kSeries, "series")->group->meta();
    not_null(out, "out") = lodex_series_info{{m.dims[0], m.dims[1], m.dims[2]}, m.variables.size(), m.d_tar, m.d_sar};
  });
}

int lodex_series_variable(const lodex_series* s, size_t index, lodex_series_var* out) {
  return guarded([&] {
    const auto& vars = live(s, Kind::kSeries, "series")->group->meta().variables;
    if (index >= vars.size())
      fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", vars.size(), " variables");
    const SeriesVariable& v = vars[index];
    not_null(out, "out") = lodex_series_var{v.name.c_str(), static_cast<int32_t>(v.dtype), v.ndim};
  });
}

int lodex_series_steps(const lodex_series* s, int64_t* steps, size_t capacity, size_t* count) {
  return guarded([&] { copy_steps(live(s, Kind::kSeries, "series")->group->steps(), steps, capacity, count); });
}

int lodex_series_write(lodex_series* s, int64_t step, const int64_t box[6], const lodex_field_data* vars,
                       size_t num_vars) {
  return guarded([&] { write_step(live(s, Kind::kSeries, "series"), step, box, vars, num_vars, false, 0); });
}

int lodex_series_write_async(lodex_series* s, int64_t step, const int64_t box[6], const lodex_field_data* vars,
                             size_t num_vars, unsigned flags, lodex_pending** out) {
  return guarded([&] {
    lodex_series* const token = s;
    if (out) *out = nullptr;
    write_step(live(s, Kind::kSeries, "series"), step, box, vars, num_vars, true, flags);
    if (out) {
      auto p = std::make_unique<lodex_pending>();
      p->series = token;
      p->step = step;
      *out = register_handle(p.get(), Kind::kPending);
      p.release();
    }
  });
}

int lodex_series_flush(lodex_series* s) {
  return guarded([&] { live(s, Kind::kSeries, "series")->group->flush(); });
}

int lodex_series_profile(const lodex_series* s, lodex_write_profile* out, const char** json) {
  return guarded([&] {
    auto* h = const_cast<lodex_series*>(live(s, Kind::kSeries, "series"));
    const SeriesWriteProfile& p = h->group->profile();
    not_null(out, "out") =
        lodex_write_profile{p.step, p.ranks, p.writers, p.flushed ? 1u : 0u, 0, p.bytes, p.total_s, p.blocked_s};
    if (json) {
      h->profile_json = p.to_json();
      *json = h->profile_json.c_str();
    }
  });
}

int lodex_series_read_part(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                           const int64_t* box, MPI_Comm comm, lodex_series_part* out, int64_t* part_steps,
                           size_t part_steps_capacity) {
  return guarded([&] {
    s = live(s, Kind::kSeries, "series");
    lodex_series_part& o = not_null(out, "out");
    const SeriesReadPart p = part_here(s, var, steps, num_steps, box, comm);
    o.num_steps = p.steps.size();
    for (int a = 0; a < 3; ++a) o.box[a] = p.box.lo[a], o.box[3 + a] = p.box.hi[a];
    for (int a = 0; a < 4; ++a) o.shape[a] = p.shape[a];
    o.dtype = static_cast<int32_t>(p.dtype);
    o.bytes = p.bytes();
    size_t n = 0;
    copy_steps(p.steps, part_steps, part_steps_capacity, &n);
  });
}

int lodex_series_read_part_f(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                             const int64_t* box, MPI_Fint comm, lodex_series_part* out, int64_t* part_steps,
                             size_t part_steps_capacity) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) {
    return lodex_series_read_part(s, var, steps, num_steps, box, c_comm, out, part_steps, part_steps_capacity);
  });
}

int lodex_series_read(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                      const int64_t* box, int64_t merge_gap, MPI_Comm comm, void* buffer, uint64_t buffer_bytes) {
  return guarded([&] {
    s = live(s, Kind::kSeries, "series");
    InputCheck check;
    std::optional<uint64_t> gap;
    check.attempt([&] {
      gap = optional_gap(merge_gap);
      const SeriesReadPart p = part_here(s, var, steps, num_steps, box, comm);
      if (p.bytes() > buffer_bytes)
        fail(ErrorCode::kInvalidArgument, "the read returns ", p.bytes(), " bytes; the buffer holds ", buffer_bytes);
      if (p.bytes() > 0 && !buffer) fail(ErrorCode::kInvalidArgument, "buffer is NULL");
    });
    // An input error is raised on every rank (the read's other arguments are not looked at).
    const SeriesArray a = check.error()
                              ? s->group->read("", {}, std::nullopt, gap, comm, check.error())
                              : s->group->read(var, step_list(steps, num_steps), optional_grid_box(box), gap, comm);
    if (a.bytes.size() > 0) std::memcpy(buffer, a.bytes.data(), a.bytes.size());
  });
}

int lodex_series_read_f(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                        const int64_t* box, int64_t merge_gap, MPI_Fint comm, void* buffer, uint64_t buffer_bytes) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) {
    return lodex_series_read(s, var, steps, num_steps, box, merge_gap, c_comm, buffer, buffer_bytes);
  });
}

int lodex_series_read_stats(const lodex_series* s, lodex_series_stats* out) {
  return guarded([&] {
    const SeriesReadStats& r = live(s, Kind::kSeries, "series")->group->last_read_stats();
    not_null(out, "out") = lodex_series_stats{
        r.windows,    r.chunks,     r.blocks,         r.requests,  r.head_requests,  r.checksum_requests,
        r.bytes_read, r.head_bytes, r.checksum_bytes, r.merge_gap, r.bytes_returned, r.seconds};
  });
}

}   // extern "C"
