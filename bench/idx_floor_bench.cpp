// Micro benchmark: the parts a serial IDX write of a dense grid cannot avoid, each timed alone,
// for the floor of `lodex.write_idx` (bench/grid.py --only serial): the hz encoding of every block
// (on one thread and on every core), the block checksums (XXH3), and one pwrite of the encoded
// bytes into an existing file (the page cache; no fsync). Prints JSON (medians, min, max, ms).
// Usage: idx_floor_bench DIR [side=256] [repeats=9]
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/checksum.hpp"
#include "layout/hz.hpp"

using namespace lodex;

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Stat {
  double median, min, max;
};
Stat stat(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2] * 1e3, v.front() * 1e3, v.back() * 1e3};
}

template <typename Fn>
Stat timed(int repeats, Fn&& fn) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = now();
    fn();
    t.push_back(now() - t0);
  }
  return stat(t);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: idx_floor_bench DIR [side=256] [repeats=9]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const uint64_t side = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 9;
  const Coord3 dims{side, side, side};
  const size_t sample = 4;   // f4
  const int bpb = 16;        // write_idx's default bits_per_block
  const HzIndex hz(HzIndex::default_bitmask(dims, 3));
  const uint64_t nblocks = uint64_t{1} << (hz.maxh() - bpb);
  const uint64_t block_bytes = (uint64_t{1} << bpb) * sample, total = nblocks * block_bytes;
  std::vector<float> src(side * side * side);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0, 1);
  for (float& v : src) v = u(rng);
  std::vector<uint8_t> out(total, 1);   // faulted in once: write_idx reuses its buffers too
  std::map<int, std::unique_ptr<BlockOrder>> orders;
  for (int level = bpb + 1; level <= hz.maxh(); ++level) orders[level] = std::make_unique<BlockOrder>(hz, bpb, level);
  const std::array<uint64_t, 3> stride{sample, sample * side, sample * side * side};
  auto encode = [&](uint64_t b0, uint64_t b1) {
    for (uint64_t b = b0; b < b1; ++b) {
      const BlockOrder* order = b > 0 ? orders.at(HzIndex::level_of_block(b, bpb)).get() : nullptr;
      hz_encode_block(hz, b, bpb, order, reinterpret_cast<const uint8_t*>(src.data()), stride, dims, sample,
                      out.data() + b * block_bytes);
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const Stat enc1 = timed(repeats, [&] { encode(0, nblocks); });
  const Stat encn = timed(repeats, [&] {
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < cores; ++t) ts.emplace_back(encode, nblocks * t / cores, nblocks * (t + 1) / cores);
    for (auto& t : ts) t.join();
  });
  volatile uint64_t sink = 0;
  const Stat sums = timed(repeats, [&] {
    for (uint64_t b = 0; b < nblocks; ++b) sink = sink + checksum64(out.data() + b * block_bytes, block_bytes);
  });
  const std::string path = dir + "/idx_floor_bench.bin";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(total)) != 0) {
    std::perror(path.c_str());
    return 1;
  }
  const Stat write = timed(repeats, [&] {
    for (uint64_t at = 0; at < total;) {
      const ssize_t n = ::pwrite(fd, out.data() + at, total - at, static_cast<off_t>(at));
      if (n <= 0) std::abort();
      at += static_cast<uint64_t>(n);
    }
  });
  ::close(fd);
  ::unlink(path.c_str());
  auto js = [](const Stat& s) {
    return "{\"median_ms\": " + std::to_string(s.median) + ", \"min_ms\": " + std::to_string(s.min) +
           ", \"max_ms\": " + std::to_string(s.max) + "}";
  };
  std::printf(
      "{\"side\": %llu, \"bytes\": %llu, \"blocks\": %llu, \"cores\": %u, \"repeats\": %d, "
      "\"encode_1_thread\": %s, \"encode_all_cores\": %s, \"checksums\": %s, \"pwrite\": %s}\n",
      static_cast<unsigned long long>(side), static_cast<unsigned long long>(total),
      static_cast<unsigned long long>(nblocks), cores, repeats, js(enc1).c_str(), js(encn).c_str(), js(sums).c_str(),
      js(write).c_str());
  return 0;
}
