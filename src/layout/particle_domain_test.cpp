// Periodic wrapping (against the numpy rule lo + mod(v - lo, L), exhaustively near the bounds in
// float and double), the images of a read box across periodic faces (their union is the query
// shifted into the domain, disjoint), and the report of particles outside a closed domain.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "layout/particle_domain.hpp"
#include "layout/rng.hpp"

namespace lodex {
namespace {

// Uniform in [0, 1).
struct Uniform {
  Xoshiro256 g;
  explicit Uniform(uint64_t seed) : g(seed) {}
  double uniform() { return static_cast<double>(g.next() >> 11) * 0x1.0p-53; }
};

double numpy_mod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

TEST(ParticleDomain, WrapMatchesTheModuloRule) {
  Uniform rng(7);
  for (int i = 0; i < 100000; ++i) {
    const double lo = rng.uniform() * 10 - 5, hi = lo + 0.5 + rng.uniform() * 20;
    const double v = lo + (rng.uniform() * 3.2 - 1.1) * (hi - lo);
    const double w = wrap_coordinate(v, lo, hi);
    ASSERT_GE(w, lo);
    ASSERT_LT(w, hi);
    double expect = lo + numpy_mod(v - lo, hi - lo);   // numpy: lo + np.mod(v - lo, hi - lo)
    if (expect >= hi) expect = lo;
    ASSERT_EQ(w, expect) << v << " in [" << lo << ", " << hi << ")";
  }
  EXPECT_EQ(wrap_coordinate(10.0, 0, 10), 0.0);    // the max bound maps to the min
  EXPECT_EQ(wrap_coordinate(-10.0, 0, 10), 0.0);
  EXPECT_EQ(wrap_coordinate(-0.0193, 0, 16.795961), 0 + numpy_mod(-0.0193, 16.795961));
  EXPECT_EQ(wrap_coordinate(3.5, 0, 10), 3.5);     // inside: unchanged
}

template <typename T>
void check_stored(double lo, double hi) {
  // Values at and around both bounds (a few ulps either side), and a period away.
  for (double base : {lo, hi, lo - (hi - lo), hi + (hi - lo)})
    for (int k = -8; k <= 8; ++k) {
      T t = static_cast<T>(base);
      for (int s = 0; s < std::abs(k); ++s) t = std::nextafter(t, k < 0 ? -INFINITY : INFINITY);
      const T w = wrap_as<T>(static_cast<double>(t), lo, hi);
      ASSERT_GE(static_cast<double>(w), lo) << base << " " << k;
      ASSERT_LT(static_cast<double>(w), hi) << base << " " << k;
    }
}

TEST(ParticleDomain, StoredValuesStayInsideAfterRounding) {
  check_stored<float>(0, 16.795961);
  check_stored<float>(0.1, 0.3);          // bounds that are not floats
  check_stored<float>(-1e6, 1e6 + 0.1);
  check_stored<double>(0, 16.795961);
  check_stored<double>(-3.3, 7.7);
  // A float just below 0 wraps to a float below 10 whose double is below 10.
  EXPECT_LT(static_cast<double>(wrap_as<float>(-1e-9, 0, 10)), 10.0);
}

TEST(ParticleDomain, ImagesCoverTheShiftedQueryOnce) {
  const Box domain{{0, 0, 0}, {10, 20, 30}};
  const Periodic periodic{true, false, true};
  const Box query{{-2, -5, 25}, {3, 5, 41}};
  const auto images = periodic_images(query, domain, periodic);
  ASSERT_EQ(images.size(), 4u);   // x: [8,10) and [0,3); y as given; z: [25,30) and [0,11)
  // Every sample point of the query falls in exactly one image (after the shift), in the domain.
  Uniform rng(3);
  for (int i = 0; i < 20000; ++i) {
    Vec3 q;
    for (int a = 0; a < 3; ++a)
      q[a] = query.inclusive_min[a] + rng.uniform() * (query.exclusive_max[a] - query.inclusive_min[a]);
    int hits = 0;
    for (const BoxImage& im : images) {
      const Vec3 p{q[0] - im.shift[0], q[1] - im.shift[1], q[2] - im.shift[2]};
      if (im.box.contains(p)) {
        ++hits;
        for (int a : {0, 2}) EXPECT_TRUE(p[a] >= domain.inclusive_min[a] && p[a] < domain.exclusive_max[a]);
      }
    }
    ASSERT_EQ(hits, 1) << q[0] << " " << q[1] << " " << q[2];
  }
  // Inside the domain: one image, the query itself.
  const Box inner{{1, 1, 1}, {2, 2, 2}};
  const auto one = periodic_images(inner, domain, periodic);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].box, inner);
  EXPECT_EQ(one[0].shift, (Vec3{0, 0, 0}));
  // No periodic axis: unchanged even outside the domain.
  const auto plain = periodic_images(query, domain, Periodic{false, false, false});
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].box, query);
  // Too many images is an error naming the count.
  EXPECT_THROW(periodic_images(Box{{-1000, 0, 0}, {1000, 1, 1}}, domain, periodic), Error);
}

TEST(ParticleDomain, OutsideReportNamesTheFarthest) {
  const Box domain{{0, 0, 0}, {1, 1, 1}};
  OutsideReport r;
  r.add(0, {0.5, 0.5, 0.5}, domain, {false, false, false});
  r.add(1, {1.0, 1.0, 1.0}, domain, {false, false, false});   // on the max bound: inside
  r.add(2, {1.2, 0.5, 0.5}, domain, {false, false, false});
  r.add(3, {0.5, -0.5, 0.5}, domain, {false, false, false});
  r.add(4, {0.5, 0.5, 7.0}, domain, {false, false, true});     // periodic axis: wrapped, not outside
  EXPECT_EQ(r.count, 2u);
  EXPECT_EQ(r.farthest_row, 3u);
  EXPECT_EQ(r.farthest_axis, 1);
  EXPECT_DOUBLE_EQ(r.farthest_distance, 0.5);
}

TEST(ParticleDomain, ReadBoxesReachingTheMaximumHoldIt) {
  const Box domain{{0, 0, 0}, {1, 1, 1}};
  const Box q = closed_at_domain_max(Box{{0, 0, 0}, {1, 0.5, 1}}, domain, Periodic{false, false, true});
  EXPECT_TRUE(q.contains(Vec3{1, 0.25, 0.5}));      // x: on the maximum, now inside
  EXPECT_FALSE(q.contains(Vec3{0.5, 0.5, 0.5}));    // y: 0.5 is not the domain's maximum
  EXPECT_EQ(q.exclusive_max[2], 1.0);               // z periodic: the maximum is the minimum's image
}

TEST(ParticleDomain, ReachingPastAPeriodicFace) {
  const Box domain{{0, 0, 0}, {1, 1, 1}};
  const Periodic xz{true, false, true};
  EXPECT_EQ(reaches_past_periodic(Box{{0, 0, 0}, {1, 1, 1}}, domain, xz), -1);
  EXPECT_EQ(reaches_past_periodic(Box{{0, -1, 0}, {1, 2, 1}}, domain, xz), -1);   // y is not periodic
  EXPECT_EQ(reaches_past_periodic(Box{{0, 0, 0.5}, {1, 1, 1.5}}, domain, xz), 2);
  EXPECT_EQ(reaches_past_periodic(Box{{-0.1, 0, 0}, {0.5, 1, 1}}, domain, xz), 0);
  // Exactly what has images besides itself.
  for (const Box& q : {Box{{0, 0, 0.5}, {1, 1, 1.5}}, Box{{0.2, 0.2, 0.2}, {0.4, 0.4, 0.4}}}) {
    const auto im = periodic_images(q, domain, xz);
    const bool only_itself = im.size() == 1 && im[0].shift == Vec3{0, 0, 0};
    EXPECT_EQ(reaches_past_periodic(q, domain, xz) < 0, only_itself);
  }
}

TEST(ParticleDomain, ClosedBoundsHoldTheirMaximum) {
  const Box b = closed_bounds_box(Box{{0, 1, 2}, {3, 4, 5}});
  EXPECT_TRUE(b.contains(Vec3{3, 4, 5}));
  EXPECT_FALSE(b.contains(Vec3{3.0000001, 4, 5}));
}

}  // namespace
}  // namespace lodex
