#include "pipelines/particles/particle_positions.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "layout/particle_domain.hpp"

namespace lodex {
namespace {

std::string point_text(const Vec3& p) { return cat("(", p[0], ", ", p[1], ", ", p[2], ")"); }

// The inclusive bounds of the positions; the first non-finite one is an error.
template <typename P>
Box scan_bounds(const P& p, uint64_t n) {
  Box b = Box::nothing();
  for (uint64_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      const double v = p(i, a);
      if (!std::isfinite(v))
        fail(ErrorCode::kInvalidArgument, "field 'position' row ", i, " component ", a, " is ", v,
             "; positions must be finite");
      b.inclusive_min[a] = std::min(b.inclusive_min[a], v);
      b.exclusive_max[a] = std::max(b.exclusive_max[a], v);
    }
  return b;
}

Box bounds_of(const StepInput& in, const Schema& schema) {
  Box b;
  with_positions(in, schema, [&](const auto& p) { b = scan_bounds(p, in.n); });
  return b;
}

// Whether inclusive bounds lie in a fixed domain on axis a (closed at its maximum).
bool inside_axis(const Box& bounds, const Box& domain, int a) {
  return bounds.inclusive_min[a] >= domain.inclusive_min[a] && bounds.exclusive_max[a] <= domain.exclusive_max[a];
}

[[noreturn]] void fail_outside(const StepInput& in, const ParticleGroupMeta& g) {
  OutsideReport r;
  with_positions(in, g.schema, [&](const auto& p) {
    for (uint64_t i = 0; i < in.n; ++i) r.add(i, Vec3{p(i, 0), p(i, 1), p(i, 2)}, g.domain, g.periodic);
  });
  fail(ErrorCode::kInvalidArgument, r.count, r.count == 1 ? " particle" : " particles", " of this rank's ", in.n,
       r.count == 1 ? " is" : " are", " outside the domain ", to_string(g.domain),
       " (its maximum included): the farthest, particle ", r.farthest_row, " at ", point_text(r.farthest_position),
       ", by ", r.farthest_distance, " on axis ", "xyz"[r.farthest_axis],
       ". Define the group with periodic axes to wrap positions into the domain, with an automatic domain "
       "(each step's domain the bounds of its particles), or with a domain that holds them");
}

// Copies the positions, row-major, with periodic axes wrapped, into `out`, and takes the bounds
// of what it stored in the same pass. Returns the rows moved. The domain's bounds are locals:
// stores into `out` could alias the group's fields.
template <typename T, typename P>
uint64_t wrap_into(const P& p, uint64_t n, const ParticleGroupMeta& g, T* out, Box& bounds) {
  const double lo[3] = {g.domain.inclusive_min[0], g.domain.inclusive_min[1], g.domain.inclusive_min[2]};
  const double hi[3] = {g.domain.exclusive_max[0], g.domain.exclusive_max[1], g.domain.exclusive_max[2]};
  const bool periodic[3] = {g.periodic[0], g.periodic[1], g.periodic[2]};
  double bmin[3] = {INFINITY, INFINITY, INFINITY}, bmax[3] = {-INFINITY, -INFINITY, -INFINITY};
  uint64_t moved = 0;
  for (uint64_t i = 0; i < n; ++i) {
    bool row_moved = false;
    for (int a = 0; a < 3; ++a) {
      const double v = p(i, a);
      const bool keep = !periodic[a] || (v >= lo[a] && v < hi[a]);
      const T t = keep ? static_cast<T>(v) : wrap_as<T>(v, lo[a], hi[a]);
      out[3 * i + a] = t;
      bmin[a] = std::min(bmin[a], static_cast<double>(t));
      bmax[a] = std::max(bmax[a], static_cast<double>(t));
      row_moved |= !keep;
    }
    moved += row_moved;
  }
  bounds = Box{{bmin[0], bmin[1], bmin[2]}, {bmax[0], bmax[1], bmax[2]}};
  return moved;
}

// The positions wrapped into a copy the input then reads (the caller's arrays stay as given);
// `bounds` becomes the copy's.
uint64_t wrap_positions(StepInput& in, const ParticleGroupMeta& g, ScratchBuffer& wrapped, Box& bounds) {
  const size_t pos = g.schema.position_index();
  const FieldSpec& spec = g.schema.field(pos);
  void* out = wrapped.reserve(std::max<uint64_t>(in.n * spec.row_bytes(), 1));
  uint64_t moved = 0;
  with_positions(in, g.schema, [&](const auto& p) {
    moved = spec.dtype == DType::kF8 ? wrap_into(p, in.n, g, static_cast<double*>(out), bounds)
                                     : wrap_into(p, in.n, g, static_cast<float*>(out), bounds);
  });
  in.columns[pos] = InputColumn{out, {}};
  return moved;
}

// A given patch, closed at a fixed domain's maximum on its non-periodic axes (as the domain is).
Box closed_patch(const Box& patch, const ParticleGroupMeta& g) {
  Box b = patch;
  if (g.auto_domain) return b;
  for (int a = 0; a < 3; ++a)
    if (!g.periodic[a] && patch.exclusive_max[a] == g.domain.exclusive_max[a])
      b.exclusive_max[a] = std::nextafter(b.exclusive_max[a], INFINITY);
  return b;
}

// Half-open box of inclusive bounds, kept inside a fixed domain (a particle on the domain's
// maximum is in the thin box just below it).
Box bounds_patch(const Box& bounds, const ParticleGroupMeta& g) {
  const Box b = closed_bounds_box(bounds);
  return g.auto_domain ? b : kept_inside(b, g.domain);
}

[[noreturn]] void fail_outside_patch(const StepInput& in, const Schema& schema, const Box& patch, const Box& closed) {
  OutsideReport r;
  const Box open{
      closed.inclusive_min,
      {std::nextafter(closed.exclusive_max[0], -INFINITY), std::nextafter(closed.exclusive_max[1], -INFINITY),
       std::nextafter(closed.exclusive_max[2], -INFINITY)}};
  with_positions(in, schema, [&](const auto& p) {
    for (uint64_t i = 0; i < in.n; ++i) r.add(i, Vec3{p(i, 0), p(i, 1), p(i, 2)}, open, Periodic{false, false, false});
  });
  fail(ErrorCode::kInvalidArgument, r.count, r.count == 1 ? " particle" : " particles", " of this rank's ", in.n,
       r.count == 1 ? " is" : " are", " outside its patch ", to_string(patch), ": the farthest, particle ",
       r.farthest_row, " at ", point_text(r.farthest_position), ", by ", r.farthest_distance, " on axis ",
       "xyz"[r.farthest_axis],
       ". A factor partition makes its files' boxes of the ranks' patches: give each rank a patch that holds its "
       "particles, or use a grid or adaptive partition, which takes a patch as a hint");
}

}  // namespace

CheckedPositions check_positions(StepInput& in, const ParticleGroupMeta& g, const std::optional<Box>& patch,
                                 ScratchBuffer& wrapped) {
  if (patch) {
    if (!patch->finite() || patch->empty())
      fail(ErrorCode::kInvalidArgument, "patch ", to_string(*patch), " must be finite with min < max");
    if (!g.auto_domain && !g.domain.contains(*patch))
      fail(ErrorCode::kInvalidArgument, "patch ", to_string(*patch), " is not inside the domain ", to_string(g.domain));
  }
  CheckedPositions out;
  out.patch_given = patch.has_value();
  if (patch) out.patch = *patch;
  if (in.n == 0) return out;
  Box bounds = bounds_of(in, g.schema);
  if (!g.auto_domain) {
    bool wrap = false;
    for (int a = 0; a < 3; ++a) {
      if (inside_axis(bounds, g.domain, a)) continue;
      if (!g.periodic[a]) fail_outside(in, g);
      wrap = true;
    }
    // A periodic axis's maximum itself is outside [min, max): it maps to the minimum.
    for (int a = 0; a < 3; ++a) wrap |= g.periodic[a] && bounds.exclusive_max[a] >= g.domain.exclusive_max[a];
    if (wrap) out.wrapped = wrap_positions(in, g, wrapped, bounds);
  }
  out.bounds = bounds;
  if (!patch) {
    out.patch = bounds_patch(bounds, g);
    return out;
  }
  const Box closed = closed_patch(*patch, g);
  if (closed.contains(closed_bounds_box(bounds))) return out;
  if (g.partition.mode == PartitionMode::kFactor) fail_outside_patch(in, g.schema, *patch, closed);
  out.patch.extend(bounds_patch(bounds, g));   // a hint: grown to hold this rank's particles
  return out;
}

Box kept_inside(const Box& patch, const Box& domain) {
  Box b = intersection(patch, domain);
  for (int a = 0; a < 3; ++a)
    if (!(b.inclusive_min[a] < b.exclusive_max[a])) b.inclusive_min[a] = std::nextafter(b.exclusive_max[a], -INFINITY);
  return b;
}

Box auto_step_domain(std::span<const Box> boxes, const Box& extent_so_far) {
  Box d = Box::nothing();
  for (const Box& p : boxes) d.extend(p);
  if (!(d.inclusive_min[0] <= d.exclusive_max[0]))   // no particle or patch at all this step
    d = extent_so_far.empty() ? Box{{0, 0, 0}, {1, 1, 1}} : extent_so_far;
  for (int a = 0; a < 3; ++a) {
    const double scale = std::max({1.0, std::fabs(d.inclusive_min[a]), std::fabs(d.exclusive_max[a])});
    const double least = scale * 0x1.0p-30;
    if (!(d.exclusive_max[a] - d.inclusive_min[a] >= least)) d.exclusive_max[a] = d.inclusive_min[a] + least;
  }
  return d;
}

}  // namespace lodex
