// Axis-aligned 3-D box: inclusive_min <= p < exclusive_max on every axis.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace lodex {

using Vec3 = std::array<double, 3>;

struct Box {
  Vec3 inclusive_min{0, 0, 0};
  Vec3 exclusive_max{0, 0, 0};

  bool empty() const {
    for (int a = 0; a < 3; ++a)
      if (!(inclusive_min[a] < exclusive_max[a])) return true;
    return false;
  }
  bool contains(const Vec3& p) const {
    for (int a = 0; a < 3; ++a)
      if (!(p[a] >= inclusive_min[a] && p[a] < exclusive_max[a])) return false;
    return true;
  }
  bool contains(const Box& b) const {
    for (int a = 0; a < 3; ++a)
      if (b.inclusive_min[a] < inclusive_min[a] || b.exclusive_max[a] > exclusive_max[a]) return false;
    return true;
  }
  bool intersects(const Box& b) const {
    for (int a = 0; a < 3; ++a)
      if (!(b.inclusive_min[a] < exclusive_max[a] && inclusive_min[a] < b.exclusive_max[a])) return false;
    return true;
  }
  Vec3 size() const {
    return {exclusive_max[0] - inclusive_min[0], exclusive_max[1] - inclusive_min[1],
            exclusive_max[2] - inclusive_min[2]};
  }
  bool finite() const {
    for (int a = 0; a < 3; ++a)
      if (!std::isfinite(inclusive_min[a]) || !std::isfinite(exclusive_max[a])) return false;
    return true;
  }
  bool operator==(const Box&) const = default;

  // Grows this box to cover `b` too (Box::nothing() grows into a copy of the first box).
  void extend(const Box& b) {
    for (int a = 0; a < 3; ++a) {
      inclusive_min[a] = std::min(inclusive_min[a], b.inclusive_min[a]);
      exclusive_max[a] = std::max(exclusive_max[a], b.exclusive_max[a]);
    }
  }

  // The smallest box holding nothing; extend() grows it.
  static Box nothing() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    return Box{{inf, inf, inf}, {-inf, -inf, -inf}};
  }
};

// The common part of two boxes (empty() when they do not overlap).
inline Box intersection(const Box& a, const Box& b) {
  Box r;
  for (int i = 0; i < 3; ++i) {
    r.inclusive_min[i] = std::max(a.inclusive_min[i], b.inclusive_min[i]);
    r.exclusive_max[i] = std::min(a.exclusive_max[i], b.exclusive_max[i]);
  }
  return r;
}

std::string to_string(const Box& b);

}  // namespace lodex
