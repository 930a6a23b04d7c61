#include "layout/particle_domain.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace lodex {

double wrap_coordinate(double v, double lo, double hi) {
  const double period = hi - lo;
  double r = std::fmod(v - lo, period);
  if (r < 0) r += period;
  const double w = lo + r;
  return w >= hi ? lo : w;
}

template <typename T>
T wrap_as(double v, double lo, double hi) {
  const double w = (v >= lo && v < hi) ? v : wrap_coordinate(v, lo, hi);
  T t = static_cast<T>(w);
  if (static_cast<double>(t) < lo) t = std::nextafter(t, std::numeric_limits<T>::infinity());
  if (static_cast<double>(t) >= hi) {
    t = static_cast<T>(lo);
    if (static_cast<double>(t) < lo) t = std::nextafter(t, std::numeric_limits<T>::infinity());
  }
  return t;
}
template float wrap_as<float>(double, double, double);
template double wrap_as<double>(double, double, double);

std::vector<BoxImage> periodic_images(const Box& query, const Box& domain, const Periodic& periodic,
                                      uint32_t max_images) {
  // Per axis: the pieces of the query on each image k of the domain, shifted back into it.
  struct Piece {
    double lo, hi, shift;
  };
  std::array<std::vector<Piece>, 3> axes;
  uint64_t total = 1;
  for (int a = 0; a < 3; ++a) {
    const double qlo = query.inclusive_min[a], qhi = query.exclusive_max[a];
    if (!periodic[a] || !(qlo < qhi)) {
      axes[a].push_back({qlo, qhi, 0});
      continue;
    }
    const double dlo = domain.inclusive_min[a], dhi = domain.exclusive_max[a], period = dhi - dlo;
    const double k0 = std::floor((qlo - dlo) / period), k1 = std::ceil((qhi - dlo) / period);
    if (!(k1 - k0 <= max_images))
      fail(ErrorCode::kInvalidArgument, "box ", to_string(query), " spans ", k1 - k0,
           " periodic images of the domain on axis ", a, "; at most ", max_images);
    for (double k = k0; k < k1; ++k) {
      const double shift = k * period;
      const double lo = std::max(dlo, qlo - shift), hi = std::min(dhi, qhi - shift);
      if (lo < hi) axes[a].push_back({lo, hi, shift});
    }
    if (axes[a].empty()) axes[a].push_back({qlo, qhi, 0});   // rounding left nothing: keep the box (reads none)
    total *= axes[a].size();
  }
  if (total > max_images)
    fail(ErrorCode::kInvalidArgument, "box ", to_string(query), " spans ", total,
         " periodic images of the domain; at most ", max_images);
  std::vector<BoxImage> out;
  for (const Piece& z : axes[2])
    for (const Piece& y : axes[1])
      for (const Piece& x : axes[0])
        out.push_back({Box{{x.lo, y.lo, z.lo}, {x.hi, y.hi, z.hi}}, Vec3{x.shift, y.shift, z.shift}});
  return out;
}

int reaches_past_periodic(const Box& query, const Box& domain, const Periodic& periodic) {
  for (int a = 0; a < 3; ++a)
    if (periodic[a] &&
        (query.inclusive_min[a] < domain.inclusive_min[a] || query.exclusive_max[a] > domain.exclusive_max[a]))
      return a;
  return -1;
}

Box closed_at_domain_max(const Box& query, const Box& domain, const Periodic& periodic) {
  Box b = query;
  for (int a = 0; a < 3; ++a)
    if (!periodic[a] && b.exclusive_max[a] == domain.exclusive_max[a])
      b.exclusive_max[a] = std::nextafter(b.exclusive_max[a], INFINITY);
  return b;
}

Box closed_bounds_box(const Box& b) {
  Box out = b;
  for (int a = 0; a < 3; ++a) out.exclusive_max[a] = std::nextafter(b.exclusive_max[a], INFINITY);
  return out;
}

void OutsideReport::add(uint64_t row, const Vec3& p, const Box& domain, const Periodic& periodic) {
  double worst = 0;
  int axis = 0;
  for (int a = 0; a < 3; ++a) {
    if (periodic[a]) continue;
    const double d = std::max(domain.inclusive_min[a] - p[a], p[a] - domain.exclusive_max[a]);
    if (d > worst) worst = d, axis = a;
  }
  if (!(worst > 0)) return;
  if (count == 0 || worst > farthest_distance) {
    farthest_row = row;
    farthest_distance = worst;
    farthest_axis = axis;
    farthest_position = p;
  }
  ++count;
}

}  // namespace lodex
