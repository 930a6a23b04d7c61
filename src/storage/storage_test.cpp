// Tests of the storage layer: positional I/O, gathered writes, atomic replacement, directories
// and the open-file cache, in a fresh temporary directory per test.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "core/error.hpp"
#include "storage/file.hpp"
#include "storage/fault.hpp"
#include "storage/file_cache.hpp"
#include "storage/writer_lock.hpp"

namespace lodex {
namespace {

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") out.push_back(n);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  return v;
}

class Storage : public testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/lodex_storage_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr) << std::strerror(errno);
    dir_ = tmpl;
  }
  void TearDown() override {
    if (!dir_.empty()) remove_tree(dir_);
    EXPECT_FALSE(path_exists(dir_));
  }
  std::string path(const std::string& name) const { return join_path(dir_, name); }
  void write_file(const std::string& name, const std::vector<uint8_t>& bytes) {
    File f(path(name), File::Mode::kCreate);
    f.pwrite_all(bytes.data(), bytes.size(), 0);
    f.close();
  }
  std::string dir_;
};

TEST_F(Storage, PwritePreadRoundTrip) {
  const auto data = pattern(100000, 1);
  {
    File f(path("a.bin"), File::Mode::kCreate);
    EXPECT_TRUE(f.is_open());
    EXPECT_EQ(f.path(), path("a.bin"));
    f.pwrite_all(data.data() + 5000, data.size() - 5000, 5000);   // out of order
    f.pwrite_all(data.data(), 5000, 0);
    EXPECT_EQ(f.size(), data.size());
    f.sync();
    f.close();
    EXPECT_FALSE(f.is_open());
    f.close();   // idempotent
  }
  File r(path("a.bin"), File::Mode::kRead);
  EXPECT_EQ(r.size(), data.size());
  std::vector<uint8_t> back(data.size());
  r.pread_all(back.data(), back.size(), 0);
  EXPECT_EQ(back, data);
  std::vector<uint8_t> mid(1234);
  r.pread_all(mid.data(), mid.size(), 77777);
  EXPECT_TRUE(std::equal(mid.begin(), mid.end(), data.begin() + 77777));
  EXPECT_EQ(read_whole_file(path("a.bin"), data.size()), data);
  r.pread_all(nullptr, 0, data.size());   // zero bytes at the end is fine
}

TEST_F(Storage, ReadWriteModeUpdatesInPlace) {
  write_file("rw.bin", pattern(1000, 2));
  {
    File f(path("rw.bin"), File::Mode::kReadWrite);
    const uint8_t x[4] = {1, 2, 3, 4};
    f.pwrite_all(x, 4, 10);
    uint8_t y[4] = {};
    f.pread_all(y, 4, 10);
    EXPECT_EQ(std::memcmp(x, y, 4), 0);
  }
  auto expect = pattern(1000, 2);
  expect[10] = 1, expect[11] = 2, expect[12] = 3, expect[13] = 4;
  EXPECT_EQ(read_whole_file(path("rw.bin"), 1000), expect);
}

TEST_F(Storage, PwritevManyPartsBeyondIovMax) {
  // 3000 parts (more than IOV_MAX = 1024) of varying sizes, some empty.
  std::vector<std::vector<uint8_t>> bufs;
  std::vector<uint8_t> expect;
  for (uint32_t i = 0; i < 3000; ++i) {
    bufs.push_back(pattern(i % 11 == 0 ? 0 : (i * 37) % 300 + 1, i));
    expect.insert(expect.end(), bufs.back().begin(), bufs.back().end());
  }
  ASSERT_GT(bufs.size(), size_t{IOV_MAX});
  std::vector<iovec> parts;
  for (auto& b : bufs) parts.push_back({b.data(), b.size()});
  const uint64_t offset = 4096 + 13;
  {
    File f(path("v.bin"), File::Mode::kCreate);
    f.pwritev_all(parts, offset);
    EXPECT_EQ(f.size(), offset + expect.size());
  }
  const auto all = read_whole_file(path("v.bin"), 1 << 30);
  ASSERT_EQ(all.size(), offset + expect.size());
  EXPECT_TRUE(std::all_of(all.begin(), all.begin() + offset, [](uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::equal(expect.begin(), expect.end(), all.begin() + offset));
  // Only empty parts, and no parts, write nothing.
  File g(path("empty.bin"), File::Mode::kCreate);
  g.pwritev_all({{nullptr, 0}, {nullptr, 0}}, 0);
  g.pwritev_all({}, 0);
  EXPECT_EQ(g.size(), 0u);
}

TEST_F(Storage, PwritevLargePartsSplitAcrossCalls) {
  // A few large parts: the kernel may write them in pieces; every byte must land once.
  std::vector<std::vector<uint8_t>> bufs = {pattern(3 << 20, 1), pattern(1, 2), pattern(5 << 20, 3)};
  std::vector<iovec> parts;
  std::vector<uint8_t> expect;
  for (auto& b : bufs) {
    parts.push_back({b.data(), b.size()});
    expect.insert(expect.end(), b.begin(), b.end());
  }
  {
    File f(path("big.bin"), File::Mode::kCreate);
    f.pwritev_all(parts, 0);
  }
  EXPECT_EQ(read_whole_file(path("big.bin"), 1 << 30), expect);
}

TEST_F(Storage, PreadvScattersIntoManyPartsAndDetectsTheEnd) {
  const auto data = pattern(200000, 7);
  write_file("r.bin", data);
  File f(path("r.bin"), File::Mode::kRead);
  // 3000 parts (beyond IOV_MAX), some empty, from byte 123.
  std::vector<std::vector<uint8_t>> bufs;
  std::vector<iovec> parts;
  size_t total = 0;
  for (uint32_t i = 0; i < 3000; ++i) {
    bufs.emplace_back(i % 7 == 0 ? 0 : (i * 13) % 90 + 1);
    total += bufs.back().size();
  }
  for (auto& b : bufs) parts.push_back({b.data(), b.size()});
  f.preadv_all(parts, 123);
  size_t at = 123;
  for (const auto& b : bufs) {
    ASSERT_TRUE(std::equal(b.begin(), b.end(), data.begin() + static_cast<long>(at)));
    at += b.size();
  }
  EXPECT_EQ(at, 123 + total);
  f.preadv_all({}, 0);   // nothing to read
  // Past the end: a FormatError naming the file, the size asked for and where it ended.
  std::vector<uint8_t> a(100), b(1000);
  std::string msg;
  EXPECT_EQ(code_of([&] { f.preadv_all({{a.data(), a.size()}, {b.data(), b.size()}}, 199500); }, &msg),
            ErrorCode::kFormat);
  EXPECT_NE(msg.find(path("r.bin")), std::string::npos) << msg;
  EXPECT_NE(msg.find("1100 bytes at byte 199500"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at byte 200000"), std::string::npos) << msg;
}

TEST_F(Storage, ReadPastEndIsFormatErrorNamingTheFile) {
  write_file("short.bin", pattern(100, 3));
  File f(path("short.bin"), File::Mode::kRead);
  std::vector<uint8_t> buf(64);
  std::string msg;
  EXPECT_EQ(code_of([&] { f.pread_all(buf.data(), 64, 50); }, &msg), ErrorCode::kFormat);
  EXPECT_NE(msg.find(path("short.bin")), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
  EXPECT_NE(msg.find("byte 100"), std::string::npos) << msg;   // where the file ended
  EXPECT_EQ(code_of([&] { f.pread_all(buf.data(), 1, 100); }), ErrorCode::kFormat);
  EXPECT_EQ(code_of([&] { f.pread_all(buf.data(), 50, 50); }), ErrorCode::kOk);
  EXPECT_EQ(code_of([&] { read_whole_file(path("short.bin"), 99); }, &msg), ErrorCode::kFormat);
  EXPECT_NE(msg.find("short.bin"), std::string::npos) << msg;
}

TEST_F(Storage, OpenErrors) {
  std::string msg;
  EXPECT_EQ(code_of([&] { File f(path("missing.bin"), File::Mode::kRead); }, &msg), ErrorCode::kNotFound);
  EXPECT_NE(msg.find("missing.bin"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { read_whole_file(path("missing.bin"), 10); }), ErrorCode::kNotFound);
  EXPECT_EQ(code_of([&] { File f(path("no/such/dir/x.bin"), File::Mode::kCreate); }, &msg), ErrorCode::kIo);
  EXPECT_NE(msg.find("no/such/dir/x.bin"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { File f(path("missing.bin"), File::Mode::kReadWrite); }), ErrorCode::kIo);
  EXPECT_FALSE(path_exists(path("missing.bin")));   // read-write does not create
}

// A FIFO, a directory or a socket where a file should be: a typed error at once, in every mode
// (opening a FIFO without a writer used to block a read forever).
TEST_F(Storage, OnlyRegularFilesAreOpened) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0644), 0);
  make_directory(path("dir"));
  for (File::Mode mode : {File::Mode::kRead, File::Mode::kReadWrite, File::Mode::kShare, File::Mode::kCreate}) {
    std::string msg;
    const ErrorCode code = code_of([&] { File f(path("fifo"), mode); }, &msg);
    // Write modes may also be refused by the open itself (a FIFO without a reader: ENXIO).
    EXPECT_TRUE(code == ErrorCode::kFormat || (mode != File::Mode::kRead && code == ErrorCode::kIo)) << msg;
    if (code == ErrorCode::kFormat) EXPECT_NE(msg.find("not a regular file (a FIFO)"), std::string::npos) << msg;
  }
  std::string msg;
  EXPECT_EQ(code_of([&] { File f(path("dir"), File::Mode::kRead); }, &msg), ErrorCode::kFormat);
  EXPECT_NE(msg.find("a directory"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { read_whole_file(path("fifo"), 10); }), ErrorCode::kFormat);
  // Regular files still open and read in full.
  write_file("r.bin", pattern(16, 1));
  File f(path("r.bin"), File::Mode::kRead);
  std::vector<uint8_t> got(16);
  f.pread_all(got.data(), got.size(), 0);
  EXPECT_EQ(got, pattern(16, 1));
}

TEST_F(Storage, MovedFileKeepsItsHandle) {
  write_file("m.bin", pattern(10, 4));
  File a(path("m.bin"), File::Mode::kRead);
  File b(std::move(a));
  EXPECT_FALSE(a.is_open());
  EXPECT_TRUE(b.is_open());
  File c;
  EXPECT_FALSE(c.is_open());
  c = std::move(b);
  EXPECT_EQ(c.size(), 10u);
  EXPECT_EQ(c.path(), path("m.bin"));
}

TEST_F(Storage, AtomicReplaceReplacesAndLeavesNoTemporaries) {
  const std::string p = path("manifest.json");
  const std::string first = "{\"v\": 1}", second = "{\"v\": 2, \"longer\": true}";
  atomic_replace(p, first.data(), first.size());
  auto bytes = read_whole_file(p, 1 << 20);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), first);
  atomic_replace(p, second.data(), second.size());
  bytes = read_whole_file(p, 1 << 20);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), second);
  atomic_replace(p, "", 0);
  EXPECT_TRUE(read_whole_file(p, 1 << 20).empty());
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"manifest.json"});
  // Into a missing directory: an I/O error, nothing left behind.
  EXPECT_EQ(code_of([&] { atomic_replace(path("nodir/m.json"), "x", 1); }), ErrorCode::kIo);
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"manifest.json"});
  // Over a directory: rename fails, the temporary is removed.
  make_directory(path("d"));
  EXPECT_EQ(code_of([&] { atomic_replace(path("d"), "x", 1); }), ErrorCode::kIo);
  EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"d", "manifest.json"}));
}

TEST_F(Storage, Directories) {
  const std::string d = path("g");
  EXPECT_FALSE(path_exists(d));
  make_directory(d);
  EXPECT_TRUE(is_directory(d));
  std::string msg;
  EXPECT_EQ(code_of([&] { make_directory(d); }, &msg), ErrorCode::kAlreadyExists);
  EXPECT_NE(msg.find(d), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { make_directory(path("x/y")); }), ErrorCode::kIo);
  make_directories(path("g/a/b/c"));
  make_directories(path("g/a/b/c"));   // no error when it exists
  EXPECT_TRUE(is_directory(path("g/a/b/c")));
  write_file("g/a/b/c/f.bin", pattern(10, 5));
  write_file("g/top.bin", pattern(10, 6));
  EXPECT_TRUE(path_exists(path("g/a/b/c/f.bin")));
  EXPECT_FALSE(is_directory(path("g/top.bin")));
  write_file("plain", pattern(1, 1));
  EXPECT_EQ(code_of([&] { make_directories(path("plain/sub")); }), ErrorCode::kIo);
  remove_tree(d);
  EXPECT_FALSE(path_exists(d));
  EXPECT_TRUE(path_exists(path("plain")));
  remove_tree(d);   // missing: no error
  remove_tree(path("plain"));   // a plain file
  EXPECT_TRUE(list_dir(dir_).empty());
}

TEST(Paths, JoinAndParent) {
  EXPECT_EQ(join_path("a", "b"), "a/b");
  EXPECT_EQ(join_path("a/", "b"), "a/b");
  EXPECT_EQ(join_path("", "b"), "b");
  EXPECT_EQ(join_path("/", "b"), "/b");
  EXPECT_EQ(parent_path("a/b/c"), "a/b");
  EXPECT_EQ(parent_path("/a"), "/");
  EXPECT_EQ(parent_path("a"), ".");
}

TEST_F(Storage, FileCacheOpensOnceAndEvictsLeastRecentlyUsed) {
  for (const char* n : {"a", "b", "c", "d"}) write_file(n, pattern(16, n[0]));
  FileCache cache(2);
  File& a = cache.get(path("a"));
  EXPECT_EQ(cache.opens(), 1u);
  EXPECT_EQ(&cache.get(path("a")), &a);   // same handle, not reopened
  EXPECT_EQ(cache.opens(), 1u);
  cache.get(path("b"));
  EXPECT_EQ(cache.opens(), 2u);
  EXPECT_EQ(cache.size(), 2u);
  cache.get(path("a"));                   // a is now the most recent; b the least
  cache.get(path("c"));                   // evicts b
  EXPECT_EQ(cache.opens(), 3u);
  EXPECT_EQ(cache.size(), 2u);
  cache.get(path("a"));                   // still cached
  EXPECT_EQ(cache.opens(), 3u);
  cache.get(path("b"));                   // reopened, evicts c
  EXPECT_EQ(cache.opens(), 4u);
  cache.get(path("a"));
  EXPECT_EQ(cache.opens(), 4u);
  cache.get(path("c"));                   // evicts b (a was used last)
  EXPECT_EQ(cache.opens(), 5u);
  cache.get(path("a"));
  EXPECT_EQ(cache.opens(), 5u);

  // A cached handle keeps reading a file unlinked after it was opened.
  ASSERT_EQ(::unlink(path("a").c_str()), 0);
  uint8_t buf[16];
  cache.get(path("a")).pread_all(buf, 16, 0);
  const auto pa = pattern(16, 'a');
  EXPECT_EQ(std::memcmp(buf, pa.data(), 16), 0);
  EXPECT_EQ(cache.opens(), 5u);

  // A failed open leaves the cache unchanged.
  EXPECT_EQ(code_of([&] { cache.get(path("missing")); }), ErrorCode::kNotFound);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.opens(), 5u);
  cache.get(path("c"));
  EXPECT_EQ(cache.opens(), 5u);

  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  cache.get(path("d"));
  EXPECT_EQ(cache.opens(), 6u);
  EXPECT_EQ(code_of([&] { cache.get(path("a")); }), ErrorCode::kNotFound);   // really closed
}

TEST_F(Storage, FileCacheTakesFilesOpenedElsewhere) {
  for (const char* n : {"a", "b", "c"}) write_file(n, pattern(16, n[0]));
  FileCache cache(2);
  File& a = cache.insert(File(path("a"), File::Mode::kRead));
  EXPECT_EQ(cache.opens(), 1u);
  EXPECT_EQ(&cache.get(path("a")), &a);   // found, not reopened
  EXPECT_EQ(cache.opens(), 1u);
  // A new file at the same path (a new inode; the old handle still reads the old bytes):
  // inserting its handle replaces the cached one, with no second entry.
  write_file("a.new", pattern(16, 'z'));
  ASSERT_EQ(::rename(path("a.new").c_str(), path("a").c_str()), 0);
  cache.insert(File(path("a"), File::Mode::kRead));
  EXPECT_EQ(cache.size(), 1u);
  uint8_t first = 0;
  cache.get(path("a")).pread_all(&first, 1, 0);
  EXPECT_EQ(first, pattern(16, 'z')[0]);
  EXPECT_NE(pattern(16, 'z')[0], pattern(16, 'a')[0]);
  cache.insert(File(path("b"), File::Mode::kRead));
  cache.insert(File(path("c"), File::Mode::kRead));   // evicts a
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.opens(), 4u);
  cache.get(path("a"));
  EXPECT_EQ(cache.opens(), 5u);
  uint8_t x = 0;
  cache.get(path("c")).pread_all(&x, 1, 0);
  EXPECT_EQ(x, pattern(16, 'c')[0]);
}

TEST_F(Storage, FileCacheCapacityZeroMeansOne) {
  write_file("x", pattern(4, 1));
  write_file("y", pattern(4, 2));
  FileCache cache(0);
  cache.get(path("x"));
  cache.get(path("y"));
  cache.get(path("x"));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.opens(), 3u);
}

TEST_F(Storage, InjectedFaultsFailAsTheSystemWouldAndShortTransfersComplete) {
  const std::vector<uint8_t> data = pattern(100000, 3);
  for (const char* spec : {"write:1:ENOSPC", "write:2:EIO"}) {
    File f(path("w"), File::Mode::kCreate);
    arm_fault(parse_fault(spec));
    std::vector<iovec> parts{{const_cast<uint8_t*>(data.data()), 50000},
                             {const_cast<uint8_t*>(data.data()) + 50000, 50000}};
    if (std::string(spec).find(":1:") != std::string::npos) {
      const std::string m = expect_error(ErrorCode::kIo, [&] { f.pwrite_all(data.data(), data.size(), 0); });
      EXPECT_NE(m.find("No space left"), std::string::npos) << m;
    } else {
      f.pwrite_all(data.data(), 10, 0);   // the first write goes through, the second fails
      expect_error(ErrorCode::kIo, [&] { f.pwritev_all(parts, 0); });
    }
  }
  disarm_fault();
  // Short writes, short reads and EINTR are continued: the bytes arrive whole.
  for (const char* spec : {"write:1:short", "write:1:EINTR"}) {
    arm_fault(parse_fault(spec));
    {
      File f(path("s"), File::Mode::kCreate);
      f.pwrite_all(data.data(), data.size(), 0);
    }
    EXPECT_EQ(fault_counts()[static_cast<size_t>(FaultOp::kWrite)], 2u) << spec;
    arm_fault(parse_fault(std::string(spec).replace(0, 5, "read")));
    std::vector<uint8_t> back(data.size());
    File(path("s"), File::Mode::kRead).pread_all(back.data(), back.size(), 0);
    EXPECT_EQ(back, data) << spec;
  }
  arm_fault(parse_fault("read:1:short"));
  std::vector<uint8_t> back(data.size());
  File(path("s"), File::Mode::kRead).preadv_all({{back.data(), 60000}, {back.data() + 60000, 40000}}, 0);
  EXPECT_EQ(back, data);
  // Opens, renames, syncs, truncation and directories.
  arm_fault(parse_fault("open:1:EACCES"));
  expect_error(ErrorCode::kIo, [&] { File(path("s"), File::Mode::kRead); });
  arm_fault(parse_fault("rename:1:EIO"));
  expect_error(ErrorCode::kIo, [&] { atomic_replace(path("s"), data.data(), 10); });
  EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"s", "w"}));   // no temporary left
  arm_fault(parse_fault("sync:1:EIO"));
  expect_error(ErrorCode::kIo, [&] { File(path("s"), File::Mode::kReadWrite).sync(); });
  arm_fault(parse_fault("truncate:1:EFBIG"));
  expect_error(ErrorCode::kIo, [&] { File(path("s"), File::Mode::kReadWrite).truncate(5); });
  arm_fault(parse_fault("mkdir:1:EROFS"));
  expect_error(ErrorCode::kIo, [&] { make_directories(path("d/e")); });
  EXPECT_FALSE(path_exists(path("d")));
  disarm_fault();
  for (const char* bad : {"write", "write:0:EIO", "flush:1:EIO", "write:1:EWHAT", "sync:1:short", "write:x:EIO"})
    expect_error(ErrorCode::kInvalidArgument, [&] { parse_fault(bad); });
}

// ---- the writer lock ----

std::string read_text(const std::string& path) {
  const std::vector<uint8_t> b = read_whole_file(path, 1 << 20);
  return std::string(b.begin(), b.end());
}

void write_text(const std::string& path, const std::string& text) {
  File f(path, File::Mode::kCreate);
  f.pwrite_all(text.data(), text.size(), 0);
}

TEST_F(Storage, WriterLockIsExclusiveNamesItsHolderAndGoesOnRelease) {
  const std::string lock = path(kWriterLockName);
  auto held = WriterLock::acquire(dir_, "9.9.9");
  const std::string text = read_text(lock);
  EXPECT_NE(text.find("\"pid\":" + std::to_string(::getpid())), std::string::npos) << text;
  EXPECT_NE(text.find("\"lodex_version\":\"9.9.9\""), std::string::npos) << text;
  const std::optional<LockHolder> h = read_lock_holder(dir_);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->host, this_host());
  EXPECT_FALSE(holder_is_dead(*h));
  const std::string msg = expect_error(ErrorCode::kAlreadyExists, [&] { WriterLock::acquire(dir_, "9.9.9"); });
  EXPECT_NE(msg.find("held by " + this_host() + ":" + std::to_string(::getpid()) + " since "), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("this process"), std::string::npos) << msg;
  held->release();
  EXPECT_FALSE(path_exists(lock));
  held->release();   // idempotent
  EXPECT_FALSE(read_lock_holder(dir_));
}

TEST_F(Storage, WriterLockReleaseLeavesALaterWritersLock) {
  auto first = WriterLock::acquire(dir_, "1");
  ASSERT_EQ(::unlink(path(kWriterLockName).c_str()), 0);   // removed by hand while held
  auto second = WriterLock::acquire(dir_, "2");
  first.reset();
  ASSERT_TRUE(read_lock_holder(dir_));
  EXPECT_EQ(read_lock_holder(dir_)->version, "2");
  second.reset();
  EXPECT_FALSE(path_exists(path(kWriterLockName)));
}

TEST_F(Storage, StaleWriterLocksAreTakenOverOthersRefused) {
  const std::string lock = path(kWriterLockName);
  // A pid of this host that is gone: a child that exited and was reaped.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  write_text(lock, "{\"host\":\"" + this_host() + "\",\"pid\":" + std::to_string(child) +
                       ",\"since\":\"2026-01-01T00:00:00Z\",\"lodex_version\":\"0.1.0\"}");
  EXPECT_TRUE(holder_is_dead(*read_lock_holder(dir_)));
  WriterLock::acquire(dir_, "new").reset();
  // An empty lock of long ago: a writer killed between creating and filling it.
  write_text(lock, "");
  const struct timespec old[2] = {{1, 0}, {1, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, lock.c_str(), old, 0), 0);
  WriterLock::acquire(dir_, "new").reset();
  // Another host: refused, and removed only by force.
  write_text(lock,
             "{\"host\":\"elsewhere\",\"pid\":12,\"since\":\"2026-01-01T00:00:00Z\",\"lodex_version\":\"0.1.0\"}");
  std::string msg = expect_error(ErrorCode::kAlreadyExists, [&] { WriterLock::acquire(dir_, "new"); });
  EXPECT_NE(msg.find("held by elsewhere:12 since 2026-01-01T00:00:00Z"), std::string::npos) << msg;
  EXPECT_NE(msg.find("lodex unlock"), std::string::npos) << msg;
  expect_error(ErrorCode::kAlreadyExists, [&] { break_writer_lock(dir_, false); });
  EXPECT_EQ(break_writer_lock(dir_, true)->host, "elsewhere");
  EXPECT_FALSE(break_writer_lock(dir_, false));
  // Not a lock: refused, not overwritten.
  write_text(lock, "something else");
  msg = expect_error(ErrorCode::kFormat, [&] { WriterLock::acquire(dir_, "new"); });
  EXPECT_NE(msg.find("not a lodex writer lock"), std::string::npos) << msg;
  EXPECT_EQ(read_text(lock), "something else");
  // A symbolic link is never followed.
  ASSERT_EQ(::unlink(lock.c_str()), 0);
  ASSERT_EQ(::symlink(path("elsewhere").c_str(), lock.c_str()), 0);
  expect_error(ErrorCode::kFormat, [&] { WriterLock::acquire(dir_, "new"); });
  EXPECT_FALSE(path_exists(path("elsewhere")));
}

}  // namespace
}  // namespace lodex
