// Helpers shared by series writes and reads (internal to the pipelines layer).
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "layout/series_plan.hpp"
#include "mpi/comm.hpp"

namespace lodex {

inline std::string cuts_text(const std::array<std::vector<int64_t>, 3>& cuts) {
  std::string s;
  for (int a = 0; a < 3; ++a) {
    s += cat(a ? ", " : "", "xyz"[a], " cut at");
    for (int64_t c : cuts[a]) s += cat(" ", c);
  }
  return s;
}

// The part of `box` a variable has: 2-D variables have no z axis (z = [0, 1)).
inline GridBox var_box(const SeriesVariable& v, GridBox box) {
  if (v.ndim == 2) {
    box.lo[2] = 0;
    box.hi[2] = 1;
  }
  return box;
}

// Slabs per step of a chunk over `box`: its z-planes for a 3-D variable, one for a 2-D one.
inline uint32_t var_planes(const SeriesVariable& v, const GridBox& box) {
  return v.ndim == 2 ? 1u : static_cast<uint32_t>(box.hi[2] - box.lo[2]);
}

// The window file of the window starting at `first_step`.
inline std::string window_file_name(int64_t first_step) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "w-%012lld.lsw", static_cast<long long>(first_step));
  return buf;
}

// `part` of a dense (z, y, x) array over `outer` at `base`, as an MPI sub-box.
inline Exchange::SubBox sub_box(void* base, const GridBox& outer, const GridBox& part, uint64_t sample) {
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
  const auto at = [&](const GridBox& b, int64_t x, int64_t y, int64_t z) {
    const uint64_t nx = static_cast<uint64_t>(b.hi[0] - b.lo[0]), ny = static_cast<uint64_t>(b.hi[1] - b.lo[1]);
    return ((static_cast<uint64_t>(z - b.lo[2]) * ny + static_cast<uint64_t>(y - b.lo[1])) * nx +
            static_cast<uint64_t>(x - b.lo[0])) * sample;
  };
  const uint64_t row = static_cast<uint64_t>(r.hi[0] - r.lo[0]) * sample;
  for (int64_t z = r.lo[2]; z < r.hi[2]; ++z)
    for (int64_t y = r.lo[1]; y < r.hi[1]; ++y)
      std::memcpy(to + at(to_box, r.lo[0], y, z), from + at(from_box, r.lo[0], y, z), row);
}

}  // namespace lodex
