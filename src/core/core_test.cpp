// Unit tests of the core layer: boxes, dtypes, schemas, byte encoding, checksums, errors, the
// worker pool.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "core/box.hpp"
#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/mapped_buffer.hpp"
#include "core/schema.hpp"
#include "core/scratch_buffer.hpp"
#include "core/worker_pool.hpp"

namespace lodex {
namespace {

// ---------------------------------------------------------------- Box

TEST(Box, ContainsPointInclusiveMinExclusiveMax) {
  const Box b{{0, 1, 2}, {1, 2, 3}};
  EXPECT_TRUE(b.contains(Vec3{0, 1, 2}));          // the min corner is inside
  EXPECT_TRUE(b.contains(Vec3{0.5, 1.5, 2.5}));
  EXPECT_FALSE(b.contains(Vec3{1, 1.5, 2.5}));     // max on x is outside
  EXPECT_FALSE(b.contains(Vec3{0.5, 2, 2.5}));     // max on y is outside
  EXPECT_FALSE(b.contains(Vec3{0.5, 1.5, 3}));     // max on z is outside
  EXPECT_FALSE(b.contains(Vec3{-1e-12, 1.5, 2.5}));
  EXPECT_TRUE(b.contains(Vec3{std::nextafter(1.0, 0.0), std::nextafter(2.0, 0.0), std::nextafter(3.0, 0.0)}));
  EXPECT_FALSE(b.contains(Vec3{std::nan(""), 1.5, 2.5}));
}

TEST(Box, ContainsBox) {
  const Box outer{{0, 0, 0}, {1, 1, 1}};
  EXPECT_TRUE(outer.contains(outer));
  EXPECT_TRUE(outer.contains(Box{{0.25, 0, 0.5}, {0.5, 1, 1}}));
  EXPECT_FALSE(outer.contains(Box{{0.25, 0, 0.5}, {0.5, 1.01, 1}}));
  EXPECT_FALSE(outer.contains(Box{{-0.1, 0, 0}, {0.5, 0.5, 0.5}}));
}

TEST(Box, IntersectsTreatsMaxAsExclusive) {
  const Box a{{0, 0, 0}, {1, 1, 1}};
  EXPECT_TRUE(a.intersects(a));
  EXPECT_TRUE(a.intersects(Box{{0.5, 0.5, 0.5}, {2, 2, 2}}));
  EXPECT_TRUE(Box({{0.5, 0.5, 0.5}, {2, 2, 2}}).intersects(a));
  // Touching faces share no point: a's max is exclusive.
  EXPECT_FALSE(a.intersects(Box{{1, 0, 0}, {2, 1, 1}}));
  EXPECT_FALSE(Box({{1, 0, 0}, {2, 1, 1}}).intersects(a));
  EXPECT_FALSE(a.intersects(Box{{0, 0, 1}, {1, 1, 2}}));
  // Overlap on two axes only.
  EXPECT_FALSE(a.intersects(Box{{0.5, 0.5, 1.5}, {2, 2, 2}}));
  // One ulp of overlap is an intersection.
  EXPECT_TRUE(a.intersects(Box{{std::nextafter(1.0, 0.0), 0, 0}, {2, 1, 1}}));
}

TEST(Box, EmptySizeFinite) {
  EXPECT_FALSE(Box({{0, 0, 0}, {1, 1, 1}}).empty());
  EXPECT_TRUE(Box({{0, 0, 0}, {0, 1, 1}}).empty());     // zero width
  EXPECT_TRUE(Box({{0, 0, 0}, {1, -1, 1}}).empty());    // inverted
  EXPECT_TRUE(Box({{0, 0, std::nan("")}, {1, 1, 1}}).empty());
  EXPECT_TRUE(Box{}.empty());
  EXPECT_TRUE(Box::nothing().empty());
  EXPECT_FALSE(Box::nothing().finite());
  const Box b{{1, 2, 3}, {2, 4, 7}};
  EXPECT_EQ(b.size(), (Vec3{1, 2, 4}));
  EXPECT_TRUE(b.finite());
  EXPECT_EQ(b, (Box{{1, 2, 3}, {2, 4, 7}}));
  EXPECT_NE(b, (Box{{1, 2, 3}, {2, 4, 8}}));
  EXPECT_EQ(to_string(Box{{0, 0.5, 1}, {1, 2, 3}}), "[(0, 0.5, 1), (1, 2, 3))");
}

// ---------------------------------------------------------------- DType

TEST(DType, ParseSizeNameRoundTrip) {
  struct Case {
    const char* name;
    DType type;
    size_t size;
    bool is_float;
  };
  const Case cases[] = {
      {"f4", DType::kF4, 4, true},  {"f8", DType::kF8, 8, true},  {"i1", DType::kI1, 1, false},
      {"u1", DType::kU1, 1, false}, {"i2", DType::kI2, 2, false}, {"u2", DType::kU2, 2, false},
      {"i4", DType::kI4, 4, false}, {"u4", DType::kU4, 4, false}, {"i8", DType::kI8, 8, false},
      {"u8", DType::kU8, 8, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(parse_dtype(c.name), c.type);
    EXPECT_EQ(dtype_size(c.type), c.size);
    EXPECT_STREQ(dtype_name(c.type), c.name);
    EXPECT_EQ(dtype_is_float(c.type), c.is_float);
    DType back = DType::kU1;
    ASSERT_TRUE(dtype_from_code(static_cast<uint8_t>(c.type), &back));
    EXPECT_EQ(back, c.type);
  }
}

TEST(DType, OnDiskCodesAreFixed) {
  EXPECT_EQ(static_cast<int>(DType::kF4), 1);
  EXPECT_EQ(static_cast<int>(DType::kF8), 2);
  EXPECT_EQ(static_cast<int>(DType::kI8), 9);
  EXPECT_EQ(static_cast<int>(DType::kU8), 10);
}

TEST(DType, UnknownNameThrowsInvalidArgument) {
  for (const char* bad : {"", "f2", "F8", "float64", "i16", "f8 ", "u"}) {
    SCOPED_TRACE(bad);
    const std::string msg = expect_error(ErrorCode::kInvalidArgument, [&] { parse_dtype(bad); });
    EXPECT_NE(msg.find("expected one of"), std::string::npos) << msg;
  }
}

TEST(DType, UnknownCodeRejected) {
  for (int code : {0, 11, 12, 100, 255}) {
    DType out = DType::kF4;
    EXPECT_FALSE(dtype_from_code(static_cast<uint8_t>(code), &out)) << code;
    EXPECT_EQ(out, DType::kF4) << "output must be untouched for code " << code;
  }
}

// ---------------------------------------------------------------- Schema

Schema electrons() { return Schema({{"position", DType::kF8, 3}, {"energy", DType::kF4, 1}, {"id", DType::kI8, 1}}); }

TEST(Schema, ValidSchemaAccessors) {
  const Schema s = electrons();
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.position_index(), 0u);
  EXPECT_EQ(s.index_of("energy"), 1u);
  EXPECT_EQ(s.index_of("id"), 2u);
  EXPECT_TRUE(s.has("id"));
  EXPECT_FALSE(s.has("ID"));
  EXPECT_EQ(s.row_bytes(), 24u + 4u + 8u);
  EXPECT_EQ(s.field(0).row_bytes(), 24u);
  EXPECT_EQ(s.describe(), "position:f8x3, energy:f4, id:i8");
  EXPECT_EQ(s, electrons());

  const Schema f4({{"mass", DType::kF4, 1}, {"position", DType::kF4, 3}, {"v", DType::kF4, 3}});
  EXPECT_EQ(f4.position_index(), 1u);
  EXPECT_EQ(f4.row_bytes(), 28u);
  EXPECT_FALSE(f4 == s);
}

TEST(Schema, PositionMustBeFloatWithThreeComponents) {
  expect_error(ErrorCode::kInvalidArgument, [] { Schema({{"energy", DType::kF4, 1}}); });
  expect_error(ErrorCode::kInvalidArgument, [] { Schema({{"position", DType::kF8, 2}}); });
  expect_error(ErrorCode::kInvalidArgument, [] { Schema({{"position", DType::kI8, 3}}); });
  expect_error(ErrorCode::kInvalidArgument, [] { Schema({{"position", DType::kF4, 4}}); });
  expect_error(ErrorCode::kInvalidArgument, [] { Schema(std::vector<FieldSpec>{}); });
  const std::string msg = expect_error(ErrorCode::kInvalidArgument, [] { Schema({{"position", DType::kI4, 3}}); });
  EXPECT_NE(msg.find("i4"), std::string::npos) << msg;
  EXPECT_NO_THROW(Schema({{"position", DType::kF4, 3}}));
  EXPECT_NO_THROW(Schema({{"position", DType::kF8, 3}}));
}

TEST(Schema, RejectsDuplicateBadNamesAndBadComponents) {
  const std::string dup = expect_error(ErrorCode::kInvalidArgument, [] {
    Schema({{"position", DType::kF8, 3}, {"e", DType::kF4, 1}, {"e", DType::kF8, 1}});
  });
  EXPECT_NE(dup.find("twice"), std::string::npos) << dup;
  for (const std::string& bad : std::vector<std::string>{"", "a b", "a/b", "é", "x.y", std::string(32, 'a')}) {
    SCOPED_TRACE(bad);
    expect_error(ErrorCode::kInvalidArgument, [&] { Schema({{"position", DType::kF8, 3}, {bad, DType::kF4, 1}}); });
  }
  EXPECT_NO_THROW(Schema({{"position", DType::kF8, 3}, {std::string(31, 'a'), DType::kF4, 1}}));
  EXPECT_NO_THROW(Schema({{"position", DType::kF8, 3}, {"Ab_9", DType::kF4, 1}}));
  expect_error(ErrorCode::kInvalidArgument, [] { Schema({{"position", DType::kF8, 3}, {"e", DType::kF4, 0}}); });
  expect_error(ErrorCode::kInvalidArgument,
               [] { Schema({{"position", DType::kF8, 3}, {"e", DType::kF4, kMaxComponents + 1}}); });
  EXPECT_NO_THROW(Schema({{"position", DType::kF8, 3}, {"e", DType::kU1, kMaxComponents}}));
}

TEST(Schema, IndexOfUnknownIsNotFoundAndListsFields) {
  const Schema s = electrons();
  const std::string msg = expect_error(ErrorCode::kNotFound, [&] { s.index_of("momentum"); });
  EXPECT_NE(msg.find("momentum"), std::string::npos) << msg;
  EXPECT_NE(msg.find("position:f8x3, energy:f4, id:i8"), std::string::npos) << msg;
}

// ---------------------------------------------------------------- bytes

TEST(Bytes, WriterReaderRoundTrip) {
  ByteWriter w;
  w.put<uint8_t>(0xab);
  w.put<uint32_t>(0x01020304u);
  w.put<int64_t>(-5);
  w.put<double>(0.1);
  w.put_fixed_string("name", 8);
  w.pad_to(16);
  ASSERT_EQ(w.size(), 32u);
  // Little-endian on disk.
  EXPECT_EQ(w.bytes()[1], 0x04);
  EXPECT_EQ(w.bytes()[4], 0x01);
  w.patch<uint32_t>(1, 0xdeadbeefu);

  ByteReader r(w.bytes().data(), w.size(), "test block");
  EXPECT_EQ(r.get<uint8_t>("a"), 0xab);
  EXPECT_EQ(r.get<uint32_t>("b"), 0xdeadbeefu);
  EXPECT_EQ(r.get<int64_t>("c"), -5);
  EXPECT_EQ(r.get<double>("d"), 0.1);
  EXPECT_EQ(r.get_fixed_string(8, "e"), "name");
  EXPECT_EQ(r.position(), 29u);
  EXPECT_EQ(r.remaining(), 3u);
  r.skip(3, "padding");
  EXPECT_EQ(r.remaining(), 0u);
  r.seek(1, "back");
  EXPECT_EQ(r.get<uint32_t>("b"), 0xdeadbeefu);
}

TEST(Bytes, FixedStringMustFitWithNul) {
  ByteWriter w;
  expect_error(ErrorCode::kInternal, [&] { w.put_fixed_string("12345678", 8); });
  w.put_fixed_string("1234567", 8);
  EXPECT_EQ(w.size(), 8u);
  const uint8_t full[4] = {'a', 'b', 'c', 'd'};
  ByteReader r(full, 4, "slot");
  const std::string msg = expect_error(ErrorCode::kFormat, [&] { r.get_fixed_string(4, "label"); });
  EXPECT_NE(msg.find("NUL"), std::string::npos) << msg;
}

TEST(Bytes, TruncatedReadNamesStructureFieldAndOffset) {
  const uint8_t data[10] = {};
  ByteReader r(data, sizeof data, "data file x.lpd", /*base_offset=*/1000);
  r.get<uint64_t>("first");
  const std::string msg = expect_error(ErrorCode::kFormat, [&] { r.get<uint32_t>("count"); });
  EXPECT_NE(msg.find("data file x.lpd"), std::string::npos) << msg;
  EXPECT_NE(msg.find("count"), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset 1008"), std::string::npos) << msg;
  EXPECT_EQ(r.position(), 8u);   // a failed read does not advance
  expect_error(ErrorCode::kFormat, [&] { r.skip(3, "skip"); });
  expect_error(ErrorCode::kFormat, [&] { r.get_fixed_string(3, "text"); });
  EXPECT_EQ(r.get<uint16_t>("last"), 0u);
  expect_error(ErrorCode::kFormat, [&] { r.get<uint8_t>("after end"); });
  const std::string seek = expect_error(ErrorCode::kFormat, [&] { r.seek(11, "table"); });
  EXPECT_NE(seek.find("1011"), std::string::npos) << seek;
  EXPECT_NO_THROW(r.seek(10, "end"));
}

TEST(Bytes, EmptyBufferRejectsEveryRead) {
  ByteReader r(nullptr, 0, "empty");
  expect_error(ErrorCode::kFormat, [&] { r.get<uint8_t>("x"); });
  EXPECT_EQ(r.remaining(), 0u);
}

// ---------------------------------------------------------------- checksum

TEST(Checksum, DeterministicAndSensitiveToEveryBit) {
  std::vector<uint8_t> data(257);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  const uint64_t c = checksum64(data.data(), data.size());
  EXPECT_EQ(c, checksum64(data.data(), data.size()));
  std::vector<uint8_t> copy = data;
  EXPECT_EQ(c, checksum64(copy.data(), copy.size()));
  for (size_t i = 0; i < data.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      data[i] ^= static_cast<uint8_t>(1u << bit);
      ASSERT_NE(checksum64(data.data(), data.size()), c) << "byte " << i << " bit " << bit;
      data[i] ^= static_cast<uint8_t>(1u << bit);
    }
  EXPECT_NE(checksum64(data.data(), data.size() - 1), c);   // length matters
  EXPECT_EQ(checksum64(nullptr, 0), checksum64(data.data(), 0));
}

// ---------------------------------------------------------------- errors

TEST(Error, CarriesCodeAndMessage) {
  try {
    fail(ErrorCode::kNotFound, "step ", 7, " of '", std::string("g"), "' at ", 0.5);
    FAIL() << "fail() returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_STREQ(e.what(), "step 7 of 'g' at 0.5");
  }
  EXPECT_STREQ(error_code_name(ErrorCode::kFormat), "format error");
  EXPECT_STREQ(error_code_name(ErrorCode::kInvalidArgument), "invalid argument");
  EXPECT_EQ(cat(0.1), "0.10000000000000001");   // 17 significant digits: doubles round-trip
}

// ---------------------------------------------------------------- Worker pool

TEST(WorkerPool, RunsEveryTaskOnceOnDistinctWorkers) {
  for (size_t threads : {1, 2, 3, 8}) {
    for (size_t n : {0, 1, 2, 7, 1000}) {
      std::vector<std::atomic<int>> hits(n);
      std::vector<std::atomic<int>> busy(threads);
      std::atomic<bool> overlap{false};
      parallel_for(n, threads, [&](size_t i, size_t w) {
        ASSERT_LT(w, threads);
        if (busy[w].fetch_add(1) != 0) overlap = true;   // one task at a time per worker id
        hits[i].fetch_add(1);
        busy[w].fetch_sub(1);
      });
      EXPECT_FALSE(overlap);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "task " << i << " of " << n;
    }
  }
}

TEST(WorkerPool, KeepsSeveralTasksInFlight) {
  // Four tasks that each wait for all four to have started: only completes if they overlap.
  std::atomic<int> started{0};
  parallel_for(4, 4, [&](size_t, size_t) {
    started.fetch_add(1);
    for (int spin = 0; started.load() < 4 && spin < 200000000; ++spin) std::this_thread::yield();
    EXPECT_EQ(started.load(), 4);
  });
}

TEST(WorkerPool, RethrowsTheFirstErrorAndSkipsTheRest) {
  std::atomic<int> ran{0};
  try {
    parallel_for(10000, 4, [&](size_t i, size_t) {
      ran.fetch_add(1);
      if (i == 3) throw Error(ErrorCode::kFormat, "task three failed");
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    });
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kFormat);
    EXPECT_NE(std::string(e.what()).find("task three"), std::string::npos);
  }
  EXPECT_LT(ran.load(), 10000);
  // The pool is usable afterwards.
  std::atomic<int> after{0};
  parallel_for(100, 4, [&](size_t, size_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 100);
}

TEST(WorkerPool, NestedCallsRunInline) {
  std::atomic<int> inner{0};
  parallel_for(4, 4, [&](size_t, size_t) {
    parallel_for(5, 4, [&](size_t, size_t w) {
      EXPECT_EQ(w, 0u);
      inner.fetch_add(1);
    });
  });
  EXPECT_EQ(inner.load(), 20);
}

TEST(WorkerPool, WorksInAForkedChild) {
  parallel_for(8, 4, [](size_t, size_t) {});   // the parent's pool exists
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::atomic<int> n{0};
    parallel_for(100, 4, [&](size_t, size_t) { n.fetch_add(1); });
    _exit(n.load() == 100 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(MappedBuffer, PagesCanBeMappedTwiceAndTheSecondMappingRevoked) {
  MappedBuffer b;
  uint8_t* p = b.reserve(3 * 4096 + 5);
  std::memset(p, 7, 3 * 4096 + 5);
  void* alias = mremap(p, 0, 4 * 4096, MREMAP_MAYMOVE);   // a private heap block refuses this
  ASSERT_NE(alias, MAP_FAILED);
  static_cast<uint8_t*>(alias)[4096] = 9;   // the same pages: seen through the buffer
  EXPECT_EQ(p[4096], 9);
  ASSERT_NE(mmap(alias, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0), MAP_FAILED);
  static_cast<uint8_t*>(alias)[4096] = 1;   // revoked: fresh pages, the buffer keeps its bytes
  EXPECT_EQ(p[4096], 9);
  EXPECT_EQ(static_cast<uint8_t*>(alias)[0], 0);
  munmap(alias, 4 * 4096);
  EXPECT_EQ(b.reserve(100), p);   // reused while big enough
}

TEST(ScratchBuffer, SmallAndLargeBuffersAreReusedWhileBigEnoughAndGrowWhenAskedForMore) {
  ScratchBuffer b;
  for (size_t size : {size_t{100}, size_t{1} << 20, (size_t{1} << 20) + 4097}) {   // a heap block, then mappings
    uint8_t* p = b.reserve(size);
    ASSERT_NE(p, nullptr);
    std::memset(p, 0x5a, size);   // every byte asked for is writable (AddressSanitizer checks the end)
    EXPECT_EQ(p[size - 1], 0x5a);
    EXPECT_EQ(b.reserve(size / 2), p);   // reused
    EXPECT_EQ(b.reserve(size), p);
  }
  EXPECT_NE(b.reserve(0), nullptr);
}

#if !defined(__SANITIZE_ADDRESS__)   // there every buffer is a heap block, by design
long rss_anon_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("RssAnon:", 0) == 0) return std::stol(line.substr(8));
  return -1;
}

// The writers' ring: a buffer of about 900 KiB, a few hundred bytes larger now and then, with
// allocations made and kept after each step. As a heap block (glibc's mmap threshold raised, as
// large numpy arrays freed raise it) each regrowth could leave its old hole resident: 1,816 KiB
// after 20 steps here, against 996 KiB as a mapping of its own.
TEST(ScratchBuffer, RegrowingALargeBufferByAFewBytesDoesNotGrowTheProcessByItsSize) {
  void* big = std::malloc(64 << 20);   // freed: glibc then keeps blocks up to 64 MiB in its heap
  std::memset(big, 1, 64 << 20);
  std::free(big);
  ScratchBuffer b;
  std::vector<std::unique_ptr<char[]>> kept;
  const long before = rss_anon_kib();
  size_t bytes = 0;
  for (int step = 0; step < 20; ++step) {
    bytes = (900 << 10) + step * 512;
    std::memset(b.reserve(bytes), 1, bytes);
    kept.emplace_back(new char[4096]);
    std::memset(kept.back().get(), 1, 4096);
  }
  const long grown = rss_anon_kib() - before;
  ASSERT_GT(before, 0);
  EXPECT_LT(grown * 1024, static_cast<long>(bytes + bytes / 2)) << grown << " KiB";
}
#endif

}  // namespace
}  // namespace lodex
