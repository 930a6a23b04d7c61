// C API: any IDX dataset on disk, for reads (lodex.h, "lodex_idx").
#include "capi/grid_reads.hpp"

using namespace lodex;
using namespace lodex::capi;

namespace {

const lodex_idx* live_idx(const lodex_idx* d) { return live(d, Kind::kIdx, "idx"); }

std::string field_or_first(const lodex_idx* d, const char* field) {
  if (field) return field;
  const auto& fields = d->dataset.header().fields;
  if (fields.empty()) fail(ErrorCode::kFormat, "'", d->dataset.path(), "' has no fields");
  return fields.front().name;
}

}  // namespace

extern "C" {

int lodex_idx_open(const char* idx_path, lodex_idx** out) { return lodex_idx_open_flags(idx_path, 0, out); }

int lodex_idx_open_flags(const char* idx_path, unsigned flags, lodex_idx** out) {
  return guarded([&] {
    if (flags & ~unsigned{LODEX_ALLOW_OUTSIDE})
      fail(ErrorCode::kInvalidArgument, "flags ", flags, " has bits other than LODEX_ALLOW_OUTSIDE");
    const bool allow_outside = flags & LODEX_ALLOW_OUTSIDE;
    auto h = std::unique_ptr<lodex_idx>(new lodex_idx{IdxDataset::open(text(idx_path, "idx_path"), allow_outside)});
    not_null(out, "out") = register_handle(h.get(), Kind::kIdx);
    h.release();
  });
}

int lodex_idx_info_get(const lodex_idx* d, lodex_grid_info* out) {
  return guarded([&] {
    d = live_idx(d);
    const IdxHeader& h = d->dataset.header();
    lodex_grid_info& o = not_null(out, "out");
    o = lodex_grid_info{};
    for (int a = 0; a < 3; ++a) o.dims[a] = static_cast<uint64_t>(h.box_max[a] - h.box_min[a] + 1);
    o.ndims = h.ndims;
    o.max_resolution = d->dataset.max_resolution();
    o.bits_per_block = h.bits_per_block;
    o.partitions = 1;
    o.num_fields = h.fields.size();
  });
}

int lodex_idx_field(const lodex_idx* d, size_t index, lodex_field_def* out) {
  return guarded([&] {
    const auto& fields = live_idx(d)->dataset.header().fields;
    if (index >= fields.size())
      fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", fields.size(), " fields");
    lodex_field_def& o = not_null(out, "out");
    o = lodex_field_def{fields[index].name.c_str(), static_cast<int32_t>(fields[index].dtype),
                        fields[index].components};
  });
}

int lodex_idx_read_part(const lodex_idx* d, const char* field, int64_t time, const int64_t* box, int resolution,
                        MPI_Comm comm, lodex_grid_part* out) {
  return guarded([&] {
    d = live_idx(d);
    read_part_into(d->dataset, field_or_first(d, field), time, box, resolution, comm, out);
  });
}

int lodex_idx_read(const lodex_idx* d, const char* field, int64_t time, const int64_t* box, int resolution,
                   MPI_Comm comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats) {
  return guarded([&] {
    d = live_idx(d);
    read_into(
        d->dataset, [&] { return field_or_first(d, field); }, time, box, resolution, comm, buffer, buffer_bytes, stats);
  });
}

int lodex_idx_read_part_f(const lodex_idx* d, const char* field, int64_t time, const int64_t* box, int resolution,
                          MPI_Fint comm, lodex_grid_part* out) {
  return with_fortran_comm(
      comm, [&](MPI_Comm c_comm) { return lodex_idx_read_part(d, field, time, box, resolution, c_comm, out); });
}

int lodex_idx_read_f(const lodex_idx* d, const char* field, int64_t time, const int64_t* box, int resolution,
                     MPI_Fint comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) {
    return lodex_idx_read(d, field, time, box, resolution, c_comm, buffer, buffer_bytes, stats);
  });
}

int lodex_idx_close(lodex_idx* d) {
  if (!d) return LODEX_OK;
  return guarded([&] { delete release_handle(d, Kind::kIdx, "idx"); });
}

}  // extern "C"
