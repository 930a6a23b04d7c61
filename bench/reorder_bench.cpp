// Micro benchmark: level-of-detail reorder of one aggregator's particles (paper §3.4 reports
// 33-80 ms for 32,768 particles). Times lod_order (shuffle, bricks, counting sort) and the
// column gather of the Uintah workload (15 f8 + 1 f4 per particle) separately, the gather also with
// its rows evicted from the caches first (cold); prints JSON.
// Usage: reorder_bench [particles=32768] [repeats=51]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "layout/lod_order.hpp"

using namespace lodex;

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 32768;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 51;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0, 1);
  // Uintah columns: position f8x3, stress f8x9, density, volume, id f8, type f4.
  const size_t row_bytes[] = {24, 72, 8, 8, 8, 4};
  std::vector<std::vector<uint8_t>> in, out;
  for (size_t rb : row_bytes) {
    in.emplace_back(n * rb);
    out.emplace_back(n * rb);
    for (auto& b : in.back()) b = static_cast<uint8_t>(rng());
  }
  auto* pos = reinterpret_cast<double*>(in[0].data());
  for (uint64_t i = 0; i < 3 * n; ++i) pos[i] = u(rng);
  const Box box{{0, 0, 0}, {1, 1, 1}};
  std::vector<uint32_t> perm;
  std::vector<double> t_order, t_gather, t_total, t_cold;
  // A buffer larger than the last-level cache, touched before a cold gather: the caller's rows then
  // come from memory, as when nothing read them since they were computed.
  std::vector<uint8_t> evict(size_t{64} << 20);
  for (int r = 0; r < repeats; ++r) {
    LodParams p;
    p.seed = static_cast<uint64_t>(r);
    if (!perm.empty()) {   // the last order's gather with cold rows; the one timed below finds them cached
      for (size_t i = 0; i < evict.size(); i += 64) evict[i] = static_cast<uint8_t>(evict[i] + 1);
      const double c0 = now();
      for (size_t f = 0; f < in.size(); ++f) gather_rows(in[f].data(), out[f].data(), row_bytes[f], perm.data(), n);
      t_cold.push_back(now() - c0);
    }
    const double t0 = now();
    const LodLayout layout = lod_order(pos, DType::kF8, n, box, p, perm);
    const double t1 = now();
    for (size_t f = 0; f < in.size(); ++f) gather_rows(in[f].data(), out[f].data(), row_bytes[f], perm.data(), n);
    const double t2 = now();
    t_order.push_back(t1 - t0);
    t_gather.push_back(t2 - t1);
    t_total.push_back(t2 - t0);

    if (layout.segment_starts.back() != n) return 1;
  }
  std::printf(
      "{\"benchmark\": \"reorder\", \"particles\": %llu, \"bytes_per_particle\": 124, \"repeats\": %d, "
      "\"median_order_ms\": %.4f, \"median_gather_ms\": %.4f, \"median_gather_cold_ms\": %.4f, "
      "\"median_total_ms\": %.4f, \"goal_ms\": 1.0, \"paper_ms\": [33, 80]}\n",
      static_cast<unsigned long long>(n), repeats, median(t_order) * 1e3, median(t_gather) * 1e3,
      t_cold.empty() ? 0.0 : median(t_cold) * 1e3, median(t_total) * 1e3);
  return 0;
}
