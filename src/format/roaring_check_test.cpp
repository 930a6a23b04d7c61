// The Roaring check (format/roaring_check.hpp): bitmaps of every container type that CRoaring
// writes are accepted with their cardinality and maximum; each kind of invalid container is a
// FormatError, both from the check and from a bin's decode (bin_bitmap), which on CRoaring 0.2
// would otherwise write past its buffer or answer wrongly.
#include <gtest/gtest.h>

#include <roaring/roaring.hh>

#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include "format/bitmap_index.hpp"
#include "format/roaring_check.hpp"
#include "support/expect_error.hpp"

namespace lodex {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes serialize(Roaring r, bool optimize = true) {
  if (optimize) r.runOptimize();
  Bytes b(r.getSizeInBytes(true));
  r.write(reinterpret_cast<char*>(b.data()), true);
  return b;
}

Roaring of(const std::vector<uint32_t>& v) {
  Roaring r;
  r.addMany(v.size(), v.data());
  return r;
}

template <typename T>
void put(Bytes& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof(T));
}
template <typename T>
T get(const Bytes& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}

// One run container at `key` (run-flag cookie, no offsets), its cardinality as stored.
Bytes runs_bitmap(const std::vector<std::pair<uint16_t, uint16_t>>& runs, uint16_t stored_card_minus_1) {
  Bytes b{0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
  put<uint32_t>(b, 0, 12347);   // one container
  put<uint16_t>(b, 7, stored_card_minus_1);
  put<uint16_t>(b, 9, static_cast<uint16_t>(runs.size()));
  for (auto [start, len] : runs) {
    b.resize(b.size() + 4);
    put<uint16_t>(b, b.size() - 4, start);
    put<uint16_t>(b, b.size() - 2, len);
  }
  return b;
}

ErrorCode check(const Bytes& b) {
  return code_of([&] { check_roaring_portable(b.data(), b.size(), "t"); });
}

// The decode a query does: the check, then CRoaring, then the count and the rows' range.
ErrorCode decode_bin(const Bytes& b, uint64_t count, uint64_t rows = uint64_t{1} << 32) {
  IndexBin e;
  e.count = count;
  e.bytes = b.size();
  return code_of([&] {
    bin_bitmap(b.data(), e, rows, "t");
    std::vector<uint32_t> out;
    append_bin_rows(b.data(), e, rows, out, "t");
  });
}

std::vector<uint32_t> range(uint32_t a, uint32_t b, uint32_t step = 1) {
  std::vector<uint32_t> v;
  for (uint32_t x = a; x < b; x += step) v.push_back(x);
  return v;
}

// ---------------------------------------------------------------- accepted

TEST(RoaringCheck, AcceptsEveryContainerTypeCRoaringWrites) {
  std::vector<uint32_t> mixed = range(3, 900, 7);                     // key 0: array
  for (uint32_t x : range(65536, 65536 + 20000, 2)) mixed.push_back(x);   // key 1: bitset
  for (uint32_t x : range(3 * 65536, 3 * 65536 + 30000)) mixed.push_back(x);   // key 3: runs
  mixed.push_back(7 * 65536 + 65535);                                   // key 7: array, top value
  for (uint32_t x : range(9 * 65536 + 100, 9 * 65536 + 65536)) mixed.push_back(x);   // key 9: a run to 65535
  const std::vector<std::pair<const char*, Roaring>> cases = {
      {"empty", Roaring()},
      {"array", of({1, 5, 9})},
      {"bitset", of(range(0, 10000, 2))},
      {"full bitset", of(range(0, 65536, 1))},
      {"run", of(range(100, 1100))},
      {"two runs", of({1, 2, 3, 10, 11})},
      {"mixed, offsets", of(mixed)},
      {"arrays, no runs", of({1, 70000, 200000, 4294967295u})},
  };
  for (const auto& [name, r] : cases)
    for (bool optimize : {false, true}) {
      const Bytes b = serialize(r, optimize);
      RoaringShape s;
      ASSERT_NO_THROW(s = check_roaring_portable(b.data(), b.size(), "t")) << name;
      EXPECT_EQ(s.cardinality, r.cardinality()) << name;
      EXPECT_EQ(s.maximum, r.isEmpty() ? 0u : r.maximum()) << name;
      EXPECT_EQ(decode_bin(b, r.cardinality()), ErrorCode::kOk) << name;
    }
  // The mixed bitmap really holds every kind of container and stores offsets.
  const Bytes b = serialize(of(mixed));
  EXPECT_EQ(get<uint32_t>(b, 0) & 0xFFFF, 12347u);
  EXPECT_EQ(check_roaring_portable(b.data(), b.size(), "t").containers, 5u);
}

TEST(RoaringCheck, AcceptsHandWrittenRuns) {
  const Bytes b = runs_bitmap({{0, 9}, {20, 0}, {65000, 535}}, 10 + 1 + 536 - 1);
  const RoaringShape s = check_roaring_portable(b.data(), b.size(), "t");
  EXPECT_EQ(s.cardinality, 547u);
  EXPECT_EQ(s.maximum, 65535u);
  EXPECT_EQ(Roaring::readSafe(reinterpret_cast<const char*>(b.data()), b.size()).cardinality(), 547u);
}

// ---------------------------------------------------------------- rejected, each kind

TEST(RoaringCheck, BitsetPopcountMustBeItsCardinality) {
  const Bytes good = serialize(of(range(0, 10000, 2)));   // one bitset, no runs: data at byte 16
  ASSERT_EQ(good.size(), 16u + 8192u);
  Bytes extra = good;
  extra[16 + 8] |= 0x02;   // value 65: an extra bit (the heap overflow of CRoaring 0.2's extraction)
  EXPECT_EQ(check(extra), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(extra, 5000), ErrorCode::kFormat);
  Bytes missing = good;
  missing[16] &= 0xFE;   // value 0 gone
  EXPECT_EQ(check(missing), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(missing, 5000), ErrorCode::kFormat);
}

TEST(RoaringCheck, KeysMustStrictlyAscend) {
  const Bytes good = serialize(of({1, 70000, 140000}));   // three arrays, no runs: keys at 8, 12, 16
  Bytes swapped = good;
  put<uint16_t>(swapped, 8, 1);
  put<uint16_t>(swapped, 12, 0);
  EXPECT_EQ(check(swapped), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(swapped, 3), ErrorCode::kFormat);
  Bytes equal = good;
  put<uint16_t>(equal, 12, 0);
  EXPECT_EQ(check(equal), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(equal, 3), ErrorCode::kFormat);
}

TEST(RoaringCheck, ArraysMustAscendWithoutRepeats) {
  const Bytes good = serialize(of({1, 5, 9}));   // one array, no runs: values at 16
  Bytes repeated = good;
  put<uint16_t>(repeated, 18, 1);
  EXPECT_EQ(check(repeated), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(repeated, 3), ErrorCode::kFormat);
  Bytes unsorted = good;
  put<uint16_t>(unsorted, 16, 5);
  put<uint16_t>(unsorted, 18, 1);
  EXPECT_EQ(check(unsorted), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(unsorted, 3), ErrorCode::kFormat);
}

TEST(RoaringCheck, AnArrayCardinalityOver4096IsABitsetThatIsNotThere) {
  Bytes b = serialize(of(range(0, 8000, 2)));   // one array of 4000
  put<uint16_t>(b, 10, 4096);                   // cardinality 4097
  EXPECT_EQ(check(b), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(b, 4097), ErrorCode::kFormat);
  b.resize(16 + 8192, 0);   // now long enough for a bitset, whose popcount is not 4097
  put<uint32_t>(b, 12, 16);
  EXPECT_EQ(check(b), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(b, 4097), ErrorCode::kFormat);
}

TEST(RoaringCheck, RunsMustAscendApartAndStayWithin16Bits) {
  EXPECT_EQ(check(runs_bitmap({{65000, 999}}, 999)), ErrorCode::kFormat);   // past 65535
  EXPECT_EQ(decode_bin(runs_bitmap({{65000, 999}}, 999), 1000), ErrorCode::kFormat);
  EXPECT_EQ(check(runs_bitmap({{65535, 1}}, 1)), ErrorCode::kFormat);
  EXPECT_EQ(check(runs_bitmap({{10, 9}, {15, 9}}, 19)), ErrorCode::kFormat);   // overlapping
  EXPECT_EQ(decode_bin(runs_bitmap({{10, 9}, {15, 9}}, 19), 20), ErrorCode::kFormat);
  EXPECT_EQ(check(runs_bitmap({{100, 0}, {10, 0}}, 1)), ErrorCode::kFormat);   // out of order
  EXPECT_EQ(decode_bin(runs_bitmap({{100, 0}, {10, 0}}, 1), 2), ErrorCode::kFormat);
  EXPECT_EQ(check(runs_bitmap({{10, 0}, {10, 0}}, 1)), ErrorCode::kFormat);    // repeated
  EXPECT_EQ(check(runs_bitmap({{10, 4}, {15, 0}}, 5)), ErrorCode::kFormat);    // touching
  EXPECT_EQ(check(runs_bitmap({}, 0)), ErrorCode::kFormat);                    // no runs
  EXPECT_EQ(check(runs_bitmap({{10, 4}}, 5)), ErrorCode::kFormat);             // 5 values, cardinality 6
  EXPECT_EQ(decode_bin(runs_bitmap({{10, 4}}, 5), 6), ErrorCode::kFormat);
  EXPECT_EQ(check(runs_bitmap({{10, 4}}, 4)), ErrorCode::kOk);
}

TEST(RoaringCheck, EveryTruncationAndTrailingBytesAreRejected) {
  for (const Roaring& r : {of({1, 5, 9}), of(range(0, 10000, 2)), of(range(100, 1100)),
                           of({1, 70000, 140000, 210000, 280000}), of(range(0, 400000, 3))}) {
    const Bytes good = serialize(r);
    for (size_t n = 0; n < good.size(); ++n) {
      EXPECT_EQ(code_of([&] { check_roaring_portable(good.data(), n, "t"); }), ErrorCode::kFormat) << n;
      if (n % 97 == 0)
        EXPECT_EQ(decode_bin(Bytes(good.begin(), good.begin() + n), r.cardinality()), ErrorCode::kFormat);
    }
    Bytes longer = good;
    longer.push_back(0);
    EXPECT_EQ(check(longer), ErrorCode::kFormat);
  }
}

TEST(RoaringCheck, OffsetsMustPointAtTheirContainers) {
  const Bytes good = serialize(of({1, 70000, 140000}));   // no runs: offsets at 20, 24, 28
  ASSERT_EQ(check(good), ErrorCode::kOk);
  for (size_t at : {20, 24, 28})
    for (uint32_t delta : {1u, 2u, 0x80000000u}) {
      Bytes bad = good;
      put<uint32_t>(bad, at, get<uint32_t>(bad, at) + delta);
      EXPECT_EQ(check(bad), ErrorCode::kFormat) << at << " " << delta;
    }
}

TEST(RoaringCheck, CookieCountAndRunFlagsAreChecked) {
  Bytes b = serialize(of({1, 5, 9}));
  Bytes cookie = b;
  put<uint32_t>(cookie, 0, 12345);
  EXPECT_EQ(check(cookie), ErrorCode::kFormat);
  Bytes count = b;
  put<uint32_t>(count, 4, 65537);
  EXPECT_EQ(check(count), ErrorCode::kFormat);
  put<uint32_t>(count, 4, 2);
  EXPECT_EQ(check(count), ErrorCode::kFormat);
  Bytes flags = runs_bitmap({{10, 4}}, 4);
  flags[4] |= 0x80;   // a run flag for a container past the last
  EXPECT_EQ(check(flags), ErrorCode::kFormat);
  EXPECT_EQ(check({}), ErrorCode::kFormat);
}

// A bin whose bitmap is valid but holds other rows than its entry says is still refused.
TEST(RoaringCheck, BinDecodeComparesTheShapeWithTheEntry) {
  const Bytes b = serialize(of(range(100, 1100)));
  EXPECT_EQ(decode_bin(b, 1000, 1100), ErrorCode::kOk);
  EXPECT_EQ(decode_bin(b, 999, 1100), ErrorCode::kFormat);
  EXPECT_EQ(decode_bin(b, 1000, 1099), ErrorCode::kFormat);   // row 1099 of 1099 rows
}

}  // namespace
}  // namespace lodex
