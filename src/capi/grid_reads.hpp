// What grid-variable reads and IDX reads share in the C API: argument conversion, the caller's
// buffer checked against the part a rank reads, and results copied out.
#pragma once

#include "capi/handles.hpp"
#include "mpi/comm.hpp"

namespace lodex::capi {

struct ReadArgs {
  std::string field;
  std::optional<GridBox> box;
  std::optional<int> resolution;
};
// field (already defaulted by the caller), box (NULL: none), resolution (-1: full).
ReadArgs read_args(std::string field, const int64_t* box, int resolution);
std::optional<int> optional_resolution(int resolution);
// InvalidArgument unless `buffer` holds the part's bytes.
void check_buffer(const GridReadPart& part, const void* buffer, uint64_t buffer_bytes);
void part_of(const GridReadPart& p, lodex_grid_part* out);
void deliver(const GridArray& a, void* buffer, uint64_t buffer_bytes);
void grid_stats_of(const IdxReadStats& s, lodex_grid_stats* out);

// lodex_grid_read_part / lodex_idx_read_part over a reader with read_part (GridGroup, IdxDataset).
template <typename Reader>
void read_part_into(const Reader& r, std::string field, int64_t step, const int64_t* box, int resolution, MPI_Comm comm,
                    lodex_grid_part* out) {
  const auto [rank, size] = rank_and_size(comm);
  const ReadArgs a = read_args(std::move(field), box, resolution);
  part_of(r.read_part(a.field, step, a.box, a.resolution, rank, size), out);
}

// lodex_grid_read / lodex_idx_read: the arguments and the caller's buffer checked (an error
// enters the read as its input error, so every rank raises it), then the read.
template <typename Reader>
void read_into(const Reader& r, const std::function<std::string()>& field, int64_t step, const int64_t* box,
               int resolution, MPI_Comm comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats) {
  ReadArgs args;
  InputCheck check;
  check.attempt([&] {
    args = read_args(field(), box, resolution);
    const auto [rank, size] = rank_and_size(comm);
    check_buffer(r.read_part(args.field, step, args.box, args.resolution, rank, size), buffer, buffer_bytes);
  });
  IdxReadStats s;
  deliver(r.read(args.field, step, args.box, args.resolution, comm, &s, check.error()), buffer, buffer_bytes);
  grid_stats_of(s, stats);
}

}  // namespace lodex::capi
