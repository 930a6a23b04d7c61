// C API: grid variables and IDX datasets (lodex.h, "Grid variables").
#include "capi/grid_reads.hpp"

using namespace lodex;
using namespace lodex::capi;

namespace {

std::string optional_text(const char* s, const char* fallback) { return s && *s ? s : fallback; }

GridSpec spec_of(const lodex_grid_def* def) {
  const lodex_grid_def& d = not_null(def, "def");
  GridSpec s;
  s.dims = {d.dims[0], d.dims[1], d.dims[2]};
  s.ndims = d.ndims;
  if (d.num_fields > 0 && !d.fields)
    fail(ErrorCode::kInvalidArgument, "def.fields is NULL but num_fields is ", d.num_fields);
  for (size_t i = 0; i < d.num_fields; ++i)
    s.fields.push_back(field_spec(d.fields[i], cat("def.fields[", i, "]").c_str()));
  s.bitmask = optional_text(d.bitmask, "");
  s.bits_per_block = d.bits_per_block;
  s.blocks_per_file = d.blocks_per_file;
  s.aggregation = optional_text(d.aggregation, "localized");
  s.partitions = d.partitions;
  s.index_space = optional_text(d.index_space, "global");
  s.zip = d.zip != 0;
  return s;
}

std::string field_or_first(const lodex_grid* g, const char* field) {
  return field ? std::string(field) : g->group->meta().fields.at(0).name;
}

void info_of(const GridMeta& m, lodex_grid_info* out) {
  lodex_grid_info& o = not_null(out, "out");
  o = lodex_grid_info{};
  for (int a = 0; a < 3; ++a) o.dims[a] = m.dims[a];
  o.ndims = m.ndims;
  o.max_resolution = m.bitmask.empty() ? -1 : static_cast<int32_t>(m.bitmask.size()) - 1;
  o.bits_per_block = m.bits_per_block;
  o.partitions = m.partitions;
  o.local_index_space = m.index_space == "local" ? 1 : 0;
  o.num_fields = m.fields.size();
}

}  // namespace

namespace {

// The step's checked arguments; an argument error is raised on every rank by the write.
void write_step(lodex_grid* g, int64_t step, const int64_t box[6], const lodex_field_data* fields, size_t num_fields,
                bool async, unsigned flags) {
  InputCheck check;
  std::vector<FieldView> views;
  GridBox b;
  check.attempt([&] {
    views = field_views(fields, num_fields);
    b = grid_box(box, "box");
  });
  check.attempt([&] {
    if (flags & ~unsigned{LODEX_WRITE_NO_COPY})
      fail(ErrorCode::kInvalidArgument, "flags ", flags, " has bits other than LODEX_WRITE_NO_COPY");
  });
  if (async) g->group->write_async(step, b, views, check.error());
  else g->group->write(step, b, views, check.error());
}

}  // namespace

extern "C" {

int lodex_grid_def_init(lodex_grid_def* def) {
  return guarded([&] {
    const GridSpec d;
    not_null(def, "def") = lodex_grid_def{{1, 1, 1},         3,       nullptr,      0,       nullptr, d.bits_per_block,
                                          d.blocks_per_file, nullptr, d.partitions, nullptr, 0};
  });
}

int lodex_grid_define(lodex_dataset* ds, const char* name, const lodex_grid_def* def, lodex_grid** out) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    InputCheck check;
    GridSpec spec;
    check.require(out != nullptr, "out is NULL");
    check.require(name != nullptr, "name is NULL");
    check.attempt([&] { spec = spec_of(def); });
    GridGroup& g = ds->ds->grid(name ? name : "", spec, check.error());   // an input error: raised on every rank
    *out = group_handle(ds->grids, ds, g, Kind::kGrid);
  });
}

int lodex_grid_open(lodex_dataset* ds, const char* name, lodex_grid** out) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    not_null(out, "out") = group_handle(ds->grids, ds, ds->ds->grid(text(name, "name")), Kind::kGrid);
  });
}

int lodex_grid_info_get(const lodex_grid* g, lodex_grid_info* out) {
  return guarded([&] { info_of(live(g, Kind::kGrid, "grid")->group->meta(), out); });
}

int lodex_grid_field(const lodex_grid* g, size_t index, lodex_field_def* out) {
  return guarded([&] {
    const auto& fields = live(g, Kind::kGrid, "grid")->group->meta().fields;
    if (index >= fields.size())
      fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", fields.size(), " fields");
    to_c(fields[index], &not_null(out, "out"));
  });
}

int lodex_grid_steps(const lodex_grid* g, int64_t* steps, size_t capacity, size_t* count) {
  return guarded([&] { copy_steps(live(g, Kind::kGrid, "grid")->group->steps(), steps, capacity, count); });
}

int lodex_grid_idx_path(const lodex_grid* g, const char** path) {
  return guarded([&] {
    auto* h = const_cast<lodex_grid*>(live(g, Kind::kGrid, "grid"));
    h->idx_path = h->group->idx_path();
    not_null(path, "path") = h->idx_path.c_str();
  });
}

int lodex_grid_write(lodex_grid* g, int64_t step, const int64_t box[6], const lodex_field_data* fields,
                     size_t num_fields) {
  return guarded([&] { write_step(live(g, Kind::kGrid, "grid"), step, box, fields, num_fields, false, 0); });
}

int lodex_grid_write_async(lodex_grid* g, int64_t step, const int64_t box[6], const lodex_field_data* fields,
                           size_t num_fields, unsigned flags, lodex_pending** out) {
  return guarded([&] {
    lodex_grid* const token = g;
    if (out) *out = nullptr;
    write_step(live(g, Kind::kGrid, "grid"), step, box, fields, num_fields, true, flags);
    if (out) {
      auto p = std::make_unique<lodex_pending>();
      p->grid = token;
      p->step = step;
      *out = register_handle(p.get(), Kind::kPending);
      p.release();
    }
  });
}

int lodex_grid_profile(const lodex_grid* g, lodex_write_profile* out, const char** json) {
  return guarded([&] {
    auto* h = const_cast<lodex_grid*>(live(g, Kind::kGrid, "grid"));
    const GridWriteProfile& p = h->group->profile();
    not_null(out, "out") =
        lodex_write_profile{p.step, p.ranks, p.aggregators, p.files, 0, p.bytes, p.total_s, p.blocked_s};
    if (json) {
      h->profile_json = p.to_json();
      *json = h->profile_json.c_str();
    }
  });
}

int lodex_grid_read_part(const lodex_grid* g, const char* field, int64_t step, const int64_t* box, int resolution,
                         MPI_Comm comm, lodex_grid_part* out) {
  return guarded([&] {
    g = live(g, Kind::kGrid, "grid");
    read_part_into(*g->group, field_or_first(g, field), step, box, resolution, comm, out);
  });
}

int lodex_grid_read_part_f(const lodex_grid* g, const char* field, int64_t step, const int64_t* box, int resolution,
                           MPI_Fint comm, lodex_grid_part* out) {
  return with_fortran_comm(
      comm, [&](MPI_Comm c_comm) { return lodex_grid_read_part(g, field, step, box, resolution, c_comm, out); });
}

int lodex_grid_read(const lodex_grid* g, const char* field, int64_t step, const int64_t* box, int resolution,
                    MPI_Comm comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats) {
  return guarded([&] {
    g = live(g, Kind::kGrid, "grid");
    read_into(
        *g->group, [&] { return field_or_first(g, field); }, step, box, resolution, comm, buffer, buffer_bytes, stats);
  });
}

int lodex_grid_read_f(const lodex_grid* g, const char* field, int64_t step, const int64_t* box, int resolution,
                      MPI_Fint comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) {
    return lodex_grid_read(g, field, step, box, resolution, c_comm, buffer, buffer_bytes, stats);
  });
}

}  // extern "C"
