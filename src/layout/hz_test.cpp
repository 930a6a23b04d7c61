// Tests of the HZ index space against the worked values of docs/formats/idx.md (verified with
// OpenVisus 2.2.149) and against a literal transcription of its pseudo-code.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "layout/hz.hpp"

namespace lodex {
namespace {

// docs/formats/idx.md §1.2-1.3, one bit at a time.
uint64_t reference_hz(const std::string& bits, const Coord3& p) {
  const int maxh = static_cast<int>(bits.size()) - 1;
  uint64_t z = 0;
  int used[3] = {0, 0, 0};
  for (int j = 0; j < maxh; ++j) {
    const int a = bits[maxh - j] - '0';
    z |= ((p[a] >> used[a]) & 1) << j;
    ++used[a];
  }
  const uint64_t v = z | (uint64_t{1} << maxh);
  return v >> (__builtin_ctzll(v) + 1);
}

std::vector<Coord3> points_of(const StridedBox& b) {
  std::vector<Coord3> out;
  for (uint64_t k = 0; k < b.count[2]; ++k)
    for (uint64_t j = 0; j < b.count[1]; ++j)
      for (uint64_t i = 0; i < b.count[0]; ++i)
        out.push_back({b.start[0] + i * b.stride[0], b.start[1] + j * b.stride[1], b.start[2] + k * b.stride[2]});
  return out;
}

std::vector<std::string> sample_bitmasks() {
  std::vector<std::string> out = {"V0101010101",
                                  "V012012012012",
                                  "V0000011111",
                                  "V012012012010",
                                  "V012012010",
                                  "V01210210210210",
                                  "V002121210210",
                                  "V0",
                                  "V1",
                                  "V2",
                                  "V210"};
  std::mt19937_64 rng(4);
  for (int t = 0; t < 12; ++t) {
    const int n = 3 + static_cast<int>(rng() % 10);
    std::string s = "V";
    for (int i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 3);
    out.push_back(s);
  }
  return out;
}

TEST(Hz, WorkedValuesFromTheFormatNotes) {
  const HzIndex a("V0101010101");
  const std::vector<Coord3> want2 = {{0, 0, 0}, {16, 0, 0}, {0, 16, 0}, {16, 16, 0},
                                     {8, 0, 0}, {8, 16, 0}, {24, 0, 0}, {24, 16, 0}};
  for (uint64_t hz = 0; hz < 8; ++hz) EXPECT_EQ(a.point_of_hz(hz), want2[hz]) << hz;
  const HzIndex b("V012012012012");
  const std::vector<Coord3> want3 = {{0, 0, 0}, {8, 0, 0}, {0, 8, 0}, {8, 8, 0},
                                     {0, 0, 8}, {0, 8, 8}, {8, 0, 8}, {8, 8, 8}};
  for (uint64_t hz = 0; hz < 8; ++hz) EXPECT_EQ(b.point_of_hz(hz), want3[hz]) << hz;
  EXPECT_EQ(b.hz_of({15, 15, 15}), 4095u);
  EXPECT_EQ(b.hz_of({1, 0, 0}), 512u);
  EXPECT_EQ(b.hz_of({8, 8, 8}), 7u);
  const HzIndex c("V0000011111");
  const std::vector<Coord3> wantc = {{0, 0, 0}, {16, 0, 0}, {8, 0, 0},  {24, 0, 0},
                                     {4, 0, 0}, {12, 0, 0}, {20, 0, 0}, {28, 0, 0}};
  for (uint64_t hz = 0; hz < 8; ++hz) EXPECT_EQ(c.point_of_hz(hz), wantc[hz]) << hz;
  EXPECT_EQ(b.pow2_dims(), (Coord3{16, 16, 16}));
  EXPECT_EQ(c.pow2_dims(), (Coord3{32, 32, 1}));
  EXPECT_EQ(c.ndims(), 2);
  const HzIndex skip("V0202");   // y never split: extent 1, as OpenVisus reads it
  EXPECT_EQ(skip.pow2_dims(), (Coord3{4, 1, 4}));
  EXPECT_EQ(skip.ndims(), 3);
}

TEST(Hz, DefaultBitmaskIsOpenVisusRoundRobin) {
  EXPECT_EQ(HzIndex::default_bitmask({16, 16, 16}, 3), "V012012012012");
  EXPECT_EQ(HzIndex::default_bitmask({32, 32, 1}, 2), "V0101010101");
  EXPECT_EQ(HzIndex::default_bitmask({20, 12, 6}, 3), "V012012012010");
  EXPECT_EQ(HzIndex::default_bitmask({16, 8, 4}, 3), "V012012010");
  EXPECT_EQ(HzIndex::default_bitmask({1, 1, 1}, 3), "V0");
  EXPECT_TRUE(HzIndex(HzIndex::default_bitmask({20, 12, 6}, 3)).holds({20, 12, 6}));
  EXPECT_FALSE(HzIndex("V012012012010").holds({33, 12, 6}));
  EXPECT_THROW(HzIndex::default_bitmask({16, 16, 16}, 4), Error);
  EXPECT_THROW(HzIndex::default_bitmask({0, 16, 16}, 3), Error);
}

TEST(Hz, MatchesTheReferenceEverywhereAndRoundTrips) {
  for (const std::string& bits : sample_bitmasks()) {
    const HzIndex h(bits);
    const StridedBox all = h.resolution_box(h.maxh());
    ASSERT_EQ(all.size(), uint64_t{1} << h.maxh()) << bits;
    std::set<uint64_t> seen;
    for (const Coord3& p : points_of(all)) {
      const uint64_t hz = h.hz_of(p);
      ASSERT_EQ(hz, reference_hz(bits, p)) << bits;
      ASSERT_EQ(h.point_of_hz(hz), p) << bits << " hz " << hz;
      ASSERT_EQ(h.point_of_z(h.z_of(p)), p) << bits;
      seen.insert(hz);
    }
    EXPECT_EQ(seen.size(), all.size()) << bits;
    EXPECT_EQ(*seen.rbegin(), all.size() - 1) << bits;
  }
  // Large coordinates: a 60-bit mask, every byte of the tables in use.
  std::string big = "V";
  for (int i = 0; i < 20; ++i) big += "012";
  const HzIndex h(big);
  std::mt19937_64 rng(2);
  for (int t = 0; t < 2000; ++t) {
    const Coord3 p{rng() % h.pow2_dims()[0], rng() % h.pow2_dims()[1], rng() % h.pow2_dims()[2]};
    ASSERT_EQ(h.hz_of(p), reference_hz(big, p));
    ASSERT_EQ(h.point_of_hz(h.hz_of(p)), p);
  }
}

TEST(Hz, LevelAndResolutionBoxesHoldExactlyTheirPoints) {
  for (const std::string& bits : sample_bitmasks()) {
    const HzIndex h(bits);
    for (int H = 0; H <= h.maxh(); ++H) {
      const auto pts = points_of(h.level_box(H));
      ASSERT_EQ(pts.size(), H == 0 ? 1u : uint64_t{1} << (H - 1)) << bits << " level " << H;
      for (const Coord3& p : pts) ASSERT_EQ(HzIndex::level_of(h.hz_of(p)), H) << bits;
      const auto res = points_of(h.resolution_box(H));
      ASSERT_EQ(res.size(), uint64_t{1} << H) << bits;
      for (const Coord3& p : res) ASSERT_LT(h.hz_of(p), uint64_t{1} << H) << bits;
    }
  }
  // The shapes OpenVisus returns for read(max_resolution=r), numpy (z, y, x).
  const HzIndex b("V012012012012");
  auto shape = [](const StridedBox& s) { return Coord3{s.count[2], s.count[1], s.count[0]}; };
  EXPECT_EQ(shape(b.resolution_box(11)), (Coord3{8, 16, 16}));
  EXPECT_EQ(shape(b.resolution_box(10)), (Coord3{8, 8, 16}));
  EXPECT_EQ(shape(b.resolution_box(9)), (Coord3{8, 8, 8}));
  EXPECT_EQ(shape(b.resolution_box(6)), (Coord3{4, 4, 4}));
  const HzIndex c("V0000011111");
  EXPECT_EQ(c.resolution_box(9).count, (Coord3{32, 16, 1}));
  EXPECT_EQ(c.resolution_box(8).count, (Coord3{32, 8, 1}));
  EXPECT_EQ(c.resolution_box(7).count, (Coord3{32, 4, 1}));
  EXPECT_EQ(c.resolution_box(6).count, (Coord3{32, 2, 1}));
}

TEST(Hz, BlocksAreStridedBoxesWalkedInHzOrderByTables) {
  for (const std::string& bits : sample_bitmasks()) {
    const HzIndex h(bits);
    for (int bpb = 0; bpb <= h.maxh(); ++bpb) {
      const uint64_t blocks = uint64_t{1} << (h.maxh() - bpb);
      // Block 0: the resolution-bpb lattice, hz [0, 2^bpb).
      for (const Coord3& p : points_of(h.block_box(0, bpb))) ASSERT_LT(h.hz_of(p), uint64_t{1} << bpb);
      for (uint64_t blk = 1; blk < blocks; ++blk) {
        const int H = HzIndex::level_of_block(blk, bpb);
        const StridedBox box = h.block_box(blk, bpb);
        ASSERT_EQ(box.size(), uint64_t{1} << bpb) << bits << " block " << blk;
        const BlockOrder order(h, bpb, H);
        std::vector<char> hit(size_t{1} << bpb, 0);
        for (uint64_t k = 0; k < box.count[2]; ++k)
          for (uint64_t j = 0; j < box.count[1]; ++j)
            for (uint64_t i = 0; i < box.count[0]; ++i) {
              const Coord3 p{box.start[0] + i * box.stride[0], box.start[1] + j * box.stride[1],
                             box.start[2] + k * box.stride[2]};
              const uint64_t at = order.table[0][i] | order.table[1][j] | order.table[2][k];
              ASSERT_EQ(h.hz_of(p), (blk << bpb) + at) << bits << " bpb " << bpb << " block " << blk;
              ASSERT_FALSE(hit[at]);
              hit[at] = 1;
            }
      }
    }
  }
}

// Block encode and decode against the reference hz of every point: whole and partial blocks,
// several bitmasks, sample sizes and block sizes, hz and row-major payloads, every resolution.
TEST(Hz, BlocksEncodeAndDecodeAsTheReferenceSays) {
  struct Case {
    std::string bits;
    Coord3 dims;
    int bpb;
  };
  for (const Case& c : {Case{"V012012012", {8, 8, 8}, 4}, Case{"V0101012", {6, 8, 2}, 3},
                        Case{"V2100120", {5, 3, 4}, 2}, Case{"V01", {2, 2, 1}, 1}, Case{"V000111", {8, 7, 1}, 5}}) {
    const HzIndex hz("V" + c.bits.substr(1));
    const int maxh = hz.maxh();
    for (size_t sample : {size_t{1}, size_t{4}, size_t{8}, size_t{6}}) {
      // A dense array whose sample at p holds a function of p in every byte.
      const uint64_t n = c.dims[0] * c.dims[1] * c.dims[2];
      std::vector<uint8_t> src(n * sample);
      auto value = [&](const Coord3& p, size_t byte) {
        return static_cast<uint8_t>((p[0] * 7 + p[1] * 13 + p[2] * 29 + byte * 3 + 1) & 255);
      };
      for (uint64_t z = 0; z < c.dims[2]; ++z)
        for (uint64_t y = 0; y < c.dims[1]; ++y)
          for (uint64_t x = 0; x < c.dims[0]; ++x)
            for (size_t k = 0; k < sample; ++k)
              src[((z * c.dims[1] + y) * c.dims[0] + x) * sample + k] = value({x, y, z}, k);
      const std::array<uint64_t, 3> stride{sample, sample * c.dims[0], sample * c.dims[0] * c.dims[1]};
      const uint64_t nblocks = uint64_t{1} << (maxh - c.bpb);
      for (uint64_t b = 0; b < nblocks; ++b) {
        std::vector<uint8_t> enc((uint64_t{1} << c.bpb) * sample, 0xEE);
        std::unique_ptr<BlockOrder> order;
        if (b > 0) order = std::make_unique<BlockOrder>(hz, c.bpb, HzIndex::level_of_block(b, c.bpb));
        hz_encode_block(hz, b, c.bpb, order.get(), src.data(), stride, c.dims, sample, enc.data());
        for (uint64_t k = 0; k < (uint64_t{1} << c.bpb); ++k) {
          const Coord3 p = hz.point_of_hz((b << c.bpb) + k);
          const bool inside = p[0] < c.dims[0] && p[1] < c.dims[1] && p[2] < c.dims[2];
          for (size_t byte = 0; byte < sample; ++byte)
            ASSERT_EQ(enc[k * sample + byte], inside ? value(p, byte) : 0xEE) << c.bits << " block " << b << " k " << k;
        }
        // Decode it onto the lattice of every resolution it belongs to; points outside the grid
        // were never written, so the grid is the query box.
        for (int r = HzIndex::level_of_block(b, c.bpb) - (b == 0 ? c.bpb : 0); r <= maxh; ++r) {
          if (b > 0 && r < HzIndex::level_of_block(b, c.bpb)) continue;
          const StridedBox lat = hz.resolution_box(r);
          LatticeOut out;
          std::vector<uint8_t> got;
          for (int a = 0; a < 3; ++a) {
            out.delta[a] = lat.stride[a];
            out.count[a] = (c.dims[a] + lat.stride[a] - 1) / lat.stride[a];
          }
          got.assign(out.count[0] * out.count[1] * out.count[2] * sample, 0xAB);
          out.data = got.data();
          hz_decode_block(hz, b, c.bpb, r, false, enc.data(), sample, out);
          for (uint64_t k = 0; k < (uint64_t{1} << c.bpb); ++k) {
            const uint64_t h = (b << c.bpb) + k;
            const Coord3 p = hz.point_of_hz(h);
            if (HzIndex::level_of(h) > r || p[0] >= c.dims[0] || p[1] >= c.dims[1] || p[2] >= c.dims[2]) continue;
            const uint64_t at =
                ((p[2] / out.delta[2] * out.count[1] + p[1] / out.delta[1]) * out.count[0] + p[0] / out.delta[0]);
            for (size_t byte = 0; byte < sample; ++byte)
              ASSERT_EQ(got[at * sample + byte], value(p, byte)) << c.bits << " block " << b << " r " << r;
          }
          // Row-major payloads (OpenVisus's default layout) decode to the same samples.
          std::vector<uint8_t> rm(enc.size(), 0);
          const StridedBox bb = hz.block_box(b, c.bpb);
          for (uint64_t k = 0; k < bb.count[2]; ++k)
            for (uint64_t j = 0; j < bb.count[1]; ++j)
              for (uint64_t i = 0; i < bb.count[0]; ++i) {
                const Coord3 p{bb.start[0] + i * bb.stride[0], bb.start[1] + j * bb.stride[1],
                               bb.start[2] + k * bb.stride[2]};
                const uint64_t from = hz.hz_of(p) - (b << c.bpb);
                std::copy_n(enc.data() + from * sample, sample,
                            rm.data() + (i + bb.count[0] * (j + bb.count[1] * k)) * sample);
              }
          std::vector<uint8_t> got_rm(got.size(), 0xAB);
          out.data = got_rm.data();
          hz_decode_block(hz, b, c.bpb, r, true, rm.data(), sample, out);
          ASSERT_EQ(got_rm, got) << c.bits << " row-major block " << b << " r " << r;
        }
      }
    }
  }
}

// Every block of levels 0..r tried one by one, as the reader did before blocks_meeting.
std::vector<uint64_t> meeting_by_scan(const HzIndex& hz, int bpb, int r, const std::array<int64_t, 3>& lo,
                                      const std::array<int64_t, 3>& hi) {
  std::vector<uint64_t> out;
  const uint64_t last = r <= bpb ? 1 : uint64_t{1} << (r - bpb);
  for (uint64_t b = 0; b < last; ++b) {
    const StridedBox bb = hz.block_box(b, bpb);
    bool meets = true;
    for (int a = 0; a < 3 && meets; ++a) {
      uint64_t i0, i1;
      span_within(bb.start[a], bb.stride[a], bb.count[a], lo[a], hi[a], i0, i1);
      meets = i1 > i0;
    }
    if (meets) out.push_back(b);
  }
  return out;
}

TEST(Hz, BlocksMeetingABoxAreThoseAScanFinds) {
  std::mt19937_64 rng(11);
  for (const std::string bits : {"V012012012", "V0101010101", "V22211100", "V0120120120120", "V1"}) {
    const HzIndex hz(bits);
    const Coord3 extent = hz.resolution_box(hz.maxh()).count;
    for (int bpb = 0; bpb <= std::min(hz.maxh(), 5); ++bpb)
      for (int r = 0; r <= hz.maxh(); ++r)
        for (int trial = 0; trial < 12; ++trial) {
          std::array<int64_t, 3> lo, hi;
          for (int a = 0; a < 3; ++a) {
            const int64_t n = static_cast<int64_t>(extent[a]);
            lo[a] = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
            hi[a] = lo[a] + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(n - lo[a]));
          }
          if (trial == 0) lo = {0, 0, 0}, hi = {int64_t(extent[0]), int64_t(extent[1]), int64_t(extent[2])};
          EXPECT_EQ(blocks_meeting(hz, bpb, r, lo, hi), meeting_by_scan(hz, bpb, r, lo, hi))
              << bits << " bpb " << bpb << " r " << r;
        }
  }
  // A point of a grid of 2^60 samples lies in one block, found without visiting the 2^44 blocks.
  std::string round_robin = "V";
  for (int i = 0; i < 60; ++i) round_robin += static_cast<char>('0' + i % 3);
  const HzIndex big(round_robin);
  EXPECT_EQ(blocks_meeting(big, 16, big.maxh(), {5, 7, 9}, {6, 8, 10}).size(), 1u);
}

TEST(Hz, BadBitmasksAndArgumentsAreErrors) {
  for (const char* bad : {"", "012", "F012", "V013", "V", "V01a", "v012"}) EXPECT_THROW(HzIndex{bad}, Error) << bad;
  std::string long_mask = "V";
  for (int i = 0; i < 61; ++i) long_mask += "0";
  EXPECT_THROW(HzIndex{long_mask}, Error);
  const HzIndex h("V012012");
  EXPECT_THROW(h.resolution_box(7), Error);
  EXPECT_THROW(h.level_box(-1), Error);
  EXPECT_THROW(h.block_box(8, 3), Error);   // 2^(6-3) = 8 blocks: 0..7
  EXPECT_THROW(h.block_box(0, 7), Error);
  EXPECT_THROW(BlockOrder(h, 3, 3), Error);
}

}  // namespace
}  // namespace lodex
