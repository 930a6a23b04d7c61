// Dense (z, y, x) arrays over grid boxes: a part of one as an MPI sub-box, and a region copied
// from one to another (internal to the pipelines layer; grid and series writes use both).
#pragma once

#include <cstdint>
#include <cstring>

#include "layout/grid_plan.hpp"
#include "mpi/comm.hpp"

namespace lodex {

// `part` of a dense (z, y, x) array of `sample`-byte values over `outer` at `base`.
inline Exchange::SubBox sub_box(const void* base, const GridBox& outer, const GridBox& part, uint64_t sample) {
  Exchange::SubBox b;
  b.base = base;
  for (int a = 0; a < 3; ++a) {
    b.sizes[2 - a] = static_cast<int>(outer.hi[a] - outer.lo[a]);
    b.sub[2 - a] = static_cast<int>(part.hi[a] - part.lo[a]);
    b.start[2 - a] = static_cast<int>(part.lo[a] - outer.lo[a]);
  }
  b.elem = static_cast<int>(sample);
  return b;
}

// Copies the region `r` (inside both boxes) from a dense array over `from_box` to one over `to_box`.
inline void copy_region(const uint8_t* from, const GridBox& from_box, uint8_t* to, const GridBox& to_box,
                        const GridBox& r, uint64_t sample) {
  const auto at = [&](const GridBox& b, int64_t y, int64_t z) {
    const uint64_t nx = static_cast<uint64_t>(b.hi[0] - b.lo[0]), ny = static_cast<uint64_t>(b.hi[1] - b.lo[1]);
    return ((static_cast<uint64_t>(z - b.lo[2]) * ny + static_cast<uint64_t>(y - b.lo[1])) * nx +
            static_cast<uint64_t>(r.lo[0] - b.lo[0])) *
           sample;
  };
  const uint64_t row = static_cast<uint64_t>(r.hi[0] - r.lo[0]) * sample;
  for (int64_t z = r.lo[2]; z < r.hi[2]; ++z)
    for (int64_t y = r.lo[1]; y < r.hi[1]; ++y) std::memcpy(to + at(to_box, y, z), from + at(from_box, y, z), row);
}

}  // namespace lodex
