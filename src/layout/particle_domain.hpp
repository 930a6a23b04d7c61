// The domain of a particle group as simulations have it (pure math, no files or MPI):
//   - a fixed box whose maximum bound is inclusive (a particle exactly on it belongs to the last
//     cell of every grid over the domain),
//   - periodic axes, on which positions are wrapped into [min, max) on write (the maximum maps to
//     the minimum) and a read box may reach past the domain to ask for the wrapped images,
//   - or no fixed box at all ("auto"): each step's domain is the bounding box of its particles.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/box.hpp"

namespace lodex {

using Periodic = std::array<bool, 3>;

// A group's domain as defined: a fixed box with its periodic axes, or "auto".
struct ParticleDomain {
  Box box{};
  Periodic periodic{false, false, false};
  bool automatic = false;
  ParticleDomain() = default;
  ParticleDomain(const Box& b, const Periodic& p = {false, false, false})
      : box(b), periodic(p) {}   // NOLINT: a box is a domain
  static ParticleDomain auto_domain() {
    ParticleDomain d;
    d.automatic = true;
    return d;
  }
};

// v wrapped into [lo, hi) as numpy's `lo + np.mod(v - lo, hi - lo)`, in double; a result that
// rounds to hi is lo.
double wrap_coordinate(double v, double lo, double hi);

// The same for a stored type T (float or double): the nearest T inside [lo, hi) to the wrapped
// value (rounding to T may cross a bound; hi maps to the smallest T not below lo).
template <typename T>
T wrap_as(double v, double lo, double hi);

// The part of a read box on each periodic image of the domain: read `box` (inside the domain on
// periodic axes) and add `shift` to the positions found. On non-periodic axes the box is kept as
// given. At most `max_images` images (else InvalidArgument naming the count).
struct BoxImage {
  Box box;
  Vec3 shift{0, 0, 0};
};
std::vector<BoxImage> periodic_images(const Box& query, const Box& domain, const Periodic& periodic,
                                      uint32_t max_images = 64);

// Whether `query` reaches past the domain on one of its periodic axes (then it has periodic
// images other than itself); the axis, or -1.
int reaches_past_periodic(const Box& query, const Box& domain, const Periodic& periodic);

// A read box that reaches the domain's maximum on a non-periodic axis holds the particles on it
// (the maximum is inclusive): its maximum there becomes the next double.
Box closed_at_domain_max(const Box& query, const Box& domain, const Periodic& periodic);

// The box from the inclusive bounds [lo, hi] of a set of positions, as a half-open Box whose
// maximum is the next double after hi (so every position is inside it).
Box closed_bounds_box(const Box& inclusive_bounds);

// Where particles lie against a fixed, non-periodic domain (closed at the maximum): how many
// are outside, the farthest of them and by how much.
struct OutsideReport {
  uint64_t count = 0;
  uint64_t farthest_row = 0;
  double farthest_distance = 0;
  int farthest_axis = 0;
  Vec3 farthest_position{0, 0, 0};
  void add(uint64_t row, const Vec3& p, const Box& domain, const Periodic& periodic);
};

}  // namespace lodex
