#include "capi/grid_reads.hpp"

#include <cstring>

#include "mpi/comm.hpp"

namespace lodex::capi {

std::optional<int> optional_resolution(int resolution) {
  if (resolution < -1) fail(ErrorCode::kInvalidArgument, "resolution ", resolution, " is below -1 (full)");
  if (resolution == -1) return std::nullopt;
  return resolution;
}

ReadArgs read_args(std::string field, const int64_t* box, int resolution) {
  return ReadArgs{std::move(field), optional_grid_box(box), optional_resolution(resolution)};
}

void check_buffer(const GridReadPart& part, const void* buffer, uint64_t buffer_bytes) {
  if (part.bytes() > buffer_bytes)
    fail(ErrorCode::kInvalidArgument, "the read returns ", part.bytes(), " bytes; the buffer holds ", buffer_bytes);
  if (part.bytes() > 0 && !buffer) fail(ErrorCode::kInvalidArgument, "buffer is NULL");
}

void part_of(const GridReadPart& p, lodex_grid_part* out) {
  lodex_grid_part& o = not_null(out, "out");
  for (int a = 0; a < 3; ++a) o.box[a] = p.box.lo[a], o.box[3 + a] = p.box.hi[a], o.shape[a] = p.shape[a];
  o.dtype = static_cast<int32_t>(p.dtype);
  o.components = p.components;
  o.resolution = p.resolution;
  o.bytes = p.bytes();
}

void deliver(const GridArray& a, void* buffer, uint64_t buffer_bytes) {
  if (a.bytes.size() > buffer_bytes)
    fail(ErrorCode::kInternal, "the read returned ", a.bytes.size(), " bytes; its part said ", buffer_bytes,
         " at most");
  if (a.bytes.size() > 0) std::memcpy(buffer, a.bytes.data(), a.bytes.size());
}

void grid_stats_of(const IdxReadStats& s, lodex_grid_stats* out) {
  if (out) *out = lodex_grid_stats{s.files_opened, s.blocks_read, s.bytes_read, s.bytes_returned};
}

}  // namespace lodex::capi
