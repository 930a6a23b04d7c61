#include "layout/grid_read_plan.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace lodex {

namespace {

// ceil(x / d) for d > 0, negative x included (C++ division truncates toward zero).
int64_t ceil_div(int64_t x, int64_t d) { return x / d + (x % d > 0 ? 1 : 0); }

// n * i / size without overflow (n up to 2^62 lattice planes or steps, size up to 2^31 ranks).
int64_t share_start(int64_t n, int i, int size) { return static_cast<int64_t>(static_cast<__int128>(n) * i / size); }

void check_rank(int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size)
    fail(ErrorCode::kInvalidArgument, "rank ", rank, " of ", size, " ranks: expected 0 <= rank < size");
}

const FieldSpec& find_field(const GridReadSpace& s, const std::string& field) {
  std::string names;
  for (const FieldSpec& f : s.fields) {
    if (f.name == field) return f;
    names += (names.empty() ? "" : ", ") + f.name;
  }
  fail(ErrorCode::kNotFound, s.what, " has no field '", field, "' (fields: ", names, ")");
}

void check_box(const GridReadSpace& s, const GridBox& b) {
  for (int a = 0; a < 3; ++a) {
    if (b.hi[a] < b.lo[a]) fail(ErrorCode::kInvalidArgument, "box ", box_text(b), " has max < min on axis ", "xyz"[a]);
    if (b.lo[a] < s.box.lo[a] || b.hi[a] > s.box.hi[a])
      fail(ErrorCode::kInvalidArgument, "box ", box_text(b), " is outside the logic box of ", s.what, " on axis ",
           "xyz"[a], " ([", s.box.lo[a], ", ", s.box.hi[a], "))");
  }
}

}  // namespace

int64_t lattice_stride(const std::string& bitmask, int resolution, int axis) {
  const char digit = static_cast<char>('0' + axis);
  int levels = 0;
  for (size_t i = static_cast<size_t>(std::max(resolution, 0)) + 1; i < bitmask.size(); ++i)
    levels += bitmask[i] == digit;
  return int64_t{1} << levels;
}

uint64_t lattice_count(int64_t lo, int64_t hi, int64_t stride) {
  return static_cast<uint64_t>(std::max<int64_t>(0, ceil_div(hi, stride) - ceil_div(lo, stride)));
}

GridBox lattice_slab(const GridBox& box, int axis, int64_t stride, int rank, int size) {
  check_rank(rank, size);
  const int64_t lo = box.lo[axis], hi = box.hi[axis];
  const int64_t k0 = ceil_div(lo, stride);
  const int64_t n = static_cast<int64_t>(lattice_count(lo, hi, stride));
  const int64_t a = k0 + share_start(n, rank, size), b = k0 + share_start(n, rank + 1, size);
  GridBox out = box;
  out.lo[axis] = a < b ? a * stride : lo;
  out.hi[axis] = a < b ? std::min(hi, b * stride) : lo;
  return out;
}

uint64_t GridReadPart::bytes() const { return shape[0] * shape[1] * shape[2] * components * dtype_size(dtype); }

GridReadPart plan_grid_read(const GridReadSpace& space, const std::string& field, const std::optional<GridBox>& box,
                            std::optional<int> resolution, int rank, int size) {
  const FieldSpec& f = find_field(space, field);
  const int maxh = static_cast<int>(space.bitmask.size()) - 1;
  const int r = resolution.value_or(maxh);
  if (r < 0 || r > maxh)
    fail(ErrorCode::kInvalidArgument, "resolution ", r, " is outside 0..", maxh, " of ", space.what);
  GridReadPart p;
  p.box = box.value_or(space.box);
  check_box(space, p.box);
  check_rank(rank, size);
  const int slowest = space.ndims - 1;
  if (size > 1) p.box = lattice_slab(p.box, slowest, lattice_stride(space.bitmask, r, slowest), rank, size);
  for (int a = 0; a < 3; ++a) p.shape[a] = lattice_count(p.box.lo[a], p.box.hi[a], lattice_stride(space.bitmask, r, a));
  p.dtype = f.dtype;
  p.components = f.components;
  p.resolution = r;
  return p;
}

std::vector<GridPartRead> plan_part_reads(const std::string& bitmask, int partition_bits,
                                          const std::vector<GridPartSpace>& parts, const GridBox& box, int resolution) {
  std::array<int64_t, 3> stride, first;
  for (int a = 0; a < 3; ++a) {
    stride[a] = lattice_stride(bitmask, resolution, a);
    first[a] = ceil_div(box.lo[a], stride[a]);
  }
  const int local_r = std::max(0, resolution - partition_bits);
  std::vector<GridPartRead> out;
  for (size_t i = 0; i < parts.size(); ++i) {
    const GridBox& pb = parts[i].box;
    const GridBox in = box.intersect(pb);
    std::array<int64_t, 3> g0;   // the first grid lattice point inside, per axis
    bool meets = true;
    for (int a = 0; a < 3; ++a) {
      g0[a] = ceil_div(in.lo[a], stride[a]) * stride[a];
      meets = meets && g0[a] < in.hi[a];
    }
    if (!meets) continue;
    GridPartRead p;
    p.part = i;
    p.resolution = local_r;
    for (int a = 0; a < 3; ++a) {
      const int64_t ls = lattice_stride(parts[i].bitmask, local_r, a);
      if (ls > stride[a] || stride[a] % ls)
        fail(ErrorCode::kFormat, "partition dataset ", i, " (template ", parts[i].bitmask, ") has spacing ", ls,
             " on axis ", "xyz"[a], " at its resolution ", local_r, "; the grid's resolution ", resolution,
             " (template ", bitmask, ") needs a divisor of ", stride[a]);
      p.box.lo[a] = g0[a] - pb.lo[a];
      p.box.hi[a] = in.hi[a] - pb.lo[a];
      p.samples[a] = lattice_count(p.box.lo[a], p.box.hi[a], ls);
      p.take[a] = static_cast<uint64_t>(stride[a] / ls);
      p.count[a] = (p.samples[a] + p.take[a] - 1) / p.take[a];
      p.at[a] = static_cast<uint64_t>(g0[a] / stride[a] - first[a]);
    }
    out.push_back(p);
  }
  return out;
}

}  // namespace lodex
