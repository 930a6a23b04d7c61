#include "storage/file.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.hpp"
#include "storage/fault.hpp"

namespace lodex {

namespace {
[[noreturn]] void os_fail(const std::string& op, const std::string& path, int err, const std::string& extra = "") {
  fail(ErrorCode::kIo, op, " '", path, "'", extra, ": ", std::strerror(err));
}

// One read or write of at most `bytes` (capped at 1 GiB) through the fault hook: a fault is a
// failed call with its errno; a short one moves half the bytes.
template <typename Call>
ssize_t transfer_once(FaultOp op, size_t bytes, Call call) {
  bool shorten = false;
  if (const int e = fault_point(op, &shorten)) {
    errno = e;
    return -1;
  }
  const size_t n = std::min<size_t>(bytes, size_t{1} << 30);
  return call(shorten ? std::max<size_t>(1, n / 2) : n);
}
}  // namespace

File::File(const std::string& path, Mode mode) : path_(path) {
  // O_NONBLOCK: opening a FIFO (or a device) must not block; only regular files are accepted.
  int flags = O_CLOEXEC | O_NONBLOCK;
  switch (mode) {
    case Mode::kRead: flags |= O_RDONLY; break;
    case Mode::kCreate: flags |= O_WRONLY | O_CREAT | O_TRUNC; break;
    case Mode::kReadWrite: flags |= O_RDWR; break;
    case Mode::kShare: flags |= O_WRONLY | O_CREAT; break;
  }
  do {
    if (const int e = fault_point(FaultOp::kOpen)) {
      errno = e;
      fd_ = -1;
    } else {
      fd_ = ::open(path.c_str(), flags, 0644);
    }
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) {
    if (errno == ENOENT && mode == Mode::kRead) fail(ErrorCode::kNotFound, "no such file '", path, "'");
    os_fail(mode == Mode::kRead ? "cannot open" : "cannot create", path, errno);
  }
  struct stat st;
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    os_fail("cannot inspect", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    fail(ErrorCode::kFormat, "'", path, "' is not a regular file (",
         S_ISFIFO(st.st_mode)   ? "a FIFO"
         : S_ISDIR(st.st_mode)  ? "a directory"
         : S_ISSOCK(st.st_mode) ? "a socket"
                                : "a device",
         "); lodex reads and writes only regular files");
  }
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
}

File::~File() {
  if (fd_ >= 0) ::close(fd_);
}

File::File(File&& o) noexcept : fd_(o.fd_), path_(std::move(o.path_)) { o.fd_ = -1; }

File& File::operator=(File&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    o.fd_ = -1;
  }
  return *this;
}

void File::pwrite_all(const void* data, size_t bytes, uint64_t offset) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (bytes > 0) {
    const ssize_t n = transfer_once(FaultOp::kWrite, bytes,
                                    [&](size_t len) { return ::pwrite(fd_, p, len, static_cast<off_t>(offset)); });
    if (n < 0) {
      if (errno == EINTR) continue;
      os_fail("cannot write", path_, errno, cat(" at byte ", offset));
    }
    if (n == 0) fail(ErrorCode::kIo, "cannot write '", path_, "' at byte ", offset, ": no progress");
    p += n;
    bytes -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
}

namespace {
// Drops the first `done` bytes of parts[first..] after a short vectored transfer.
void advance_parts(std::vector<iovec>& parts, size_t& first, size_t done) {
  while (done > 0 && first < parts.size()) {
    if (done >= parts[first].iov_len) {
      done -= parts[first].iov_len;
      ++first;
    } else {
      parts[first].iov_base = static_cast<uint8_t*>(parts[first].iov_base) + done;
      parts[first].iov_len -= done;
      done = 0;
    }
  }
  while (first < parts.size() && parts[first].iov_len == 0) ++first;
}

// The vectored transfer loop: batches of IOV_MAX parts, EINTR retried, short transfers
// continued. `op` is ::preadv or ::pwritev; `stalled(offset)` reports a transfer of 0 bytes.
template <typename Op, typename Stalled>
void transfer_all(int fd, std::vector<iovec>& parts, uint64_t offset, FaultOp kind, Op op, const char* verb,
                  const std::string& path, Stalled stalled) {
  size_t first = 0;
  advance_parts(parts, first, 0);
  while (first < parts.size()) {
    const int count = static_cast<int>(std::min<size_t>(parts.size() - first, IOV_MAX));
    bool shorten = false;
    ssize_t n;
    if (const int e = fault_point(kind, &shorten)) {
      errno = e;
      n = -1;
    } else if (shorten) {   // half of the first part
      n = kind == FaultOp::kWrite ? ::pwrite(fd, parts[first].iov_base, std::max<size_t>(1, parts[first].iov_len / 2),
                                             static_cast<off_t>(offset))
                                  : ::pread(fd, parts[first].iov_base, std::max<size_t>(1, parts[first].iov_len / 2),
                                            static_cast<off_t>(offset));
    } else {
      n = op(fd, parts.data() + first, count, static_cast<off_t>(offset));
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      os_fail(verb, path, errno, cat(" at byte ", offset));
    }
    if (n == 0) stalled(offset);
    offset += static_cast<uint64_t>(n);
    advance_parts(parts, first, static_cast<size_t>(n));
  }
}
}  // namespace

void File::pwritev_all(std::vector<iovec> parts, uint64_t offset) {
  transfer_all(fd_, parts, offset, FaultOp::kWrite, ::pwritev, "cannot write", path_,
               [&](uint64_t at) { fail(ErrorCode::kIo, "cannot write '", path_, "' at byte ", at, ": no progress"); });
}

void File::preadv_all(std::vector<iovec> parts, uint64_t offset) const {
  uint64_t total = 0;
  for (const iovec& v : parts) total += v.iov_len;
  transfer_all(fd_, parts, offset, FaultOp::kRead, ::preadv, "cannot read", path_, [&](uint64_t at) {
    fail(ErrorCode::kFormat, "'", path_, "' is truncated: reading ", total, " bytes at byte ", offset,
         " hit the end of the file at byte ", at);
  });
}

void File::pread_all(void* data, size_t bytes, uint64_t offset) const {
  auto* p = static_cast<uint8_t*>(data);
  const uint64_t start = offset;
  while (bytes > 0) {
    const ssize_t n = transfer_once(FaultOp::kRead, bytes,
                                    [&](size_t len) { return ::pread(fd_, p, len, static_cast<off_t>(offset)); });
    if (n < 0) {
      if (errno == EINTR) continue;
      os_fail("cannot read", path_, errno, cat(" at byte ", offset));
    }
    if (n == 0)
      fail(ErrorCode::kFormat, "'", path_, "' is truncated: reading ", bytes + (offset - start), " bytes at byte ",
           start, " hit the end of the file at byte ", offset);
    p += n;
    bytes -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
}

uint64_t File::size() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0) os_fail("cannot stat", path_, errno);
  return static_cast<uint64_t>(st.st_size);
}

void File::truncate(uint64_t size) {
  if (const int e = fault_point(FaultOp::kTruncate)) os_fail("cannot set the length of", path_, e);
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) os_fail("cannot set the length of", path_, errno);
}

void File::sync() {
  if (const int e = fault_point(FaultOp::kSync)) os_fail("cannot fsync", path_, e);
  if (::fsync(fd_) != 0) os_fail("cannot fsync", path_, errno);
}

void File::close() {
  if (fd_ >= 0) {
    const int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0 && errno != EINTR) os_fail("cannot close", path_, errno);
  }
}

void sync_directory(const std::string& path) {
  if (const int e = fault_point(FaultOp::kSync)) os_fail("cannot fsync directory", path, e);
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) os_fail("cannot open directory", path, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL) os_fail("cannot fsync directory", path, err);
}

void atomic_replace(const std::string& path, const void* bytes, size_t size) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  try {
    File f(tmp, File::Mode::kCreate);
    f.pwrite_all(bytes, size, 0);
    f.sync();
    f.close();
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  // The old file stays reachable (a hard link) until the new one is durable, so that a failure
  // after the rename can put it back: when this throws, the old file (or none) is in place.
  const std::string prev = path + ".prev.tmp-" + std::to_string(::getpid());
  const bool had_old = path_exists(path), linked = had_old && ::link(path.c_str(), prev.c_str()) == 0;
  try {
    rename_file(tmp, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    if (linked) ::unlink(prev.c_str());
    throw;
  }
  try {
    sync_directory(parent_path(path));
  } catch (...) {
    if (linked) ::rename(prev.c_str(), path.c_str());
    else if (!had_old) ::unlink(path.c_str());
    throw;
  }
  if (linked) ::unlink(prev.c_str());
}

void rename_file(const std::string& from, const std::string& to) {
  const int e = fault_point(FaultOp::kRename);
  if (e || ::rename(from.c_str(), to.c_str()) != 0)
    fail(ErrorCode::kIo, "cannot rename '", from, "' to '", to, "': ", std::strerror(e ? e : errno));
}

std::vector<uint8_t> read_whole_file(const std::string& path, uint64_t max_bytes) {
  return read_whole_file(File(path, File::Mode::kRead), max_bytes);
}

std::vector<uint8_t> read_whole_file(const File& f, uint64_t max_bytes) {
  const uint64_t n = f.size();
  if (n > max_bytes)
    fail(ErrorCode::kFormat, "'", f.path(), "' has ", n, " bytes; at most ", max_bytes, " are expected");
  std::vector<uint8_t> out(n);
  f.pread_all(out.data(), n, 0);
  return out;
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

bool path_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool is_directory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void make_directory(const std::string& path) {
  if (const int e = fault_point(FaultOp::kMkdir)) os_fail("cannot create directory", path, e);
  if (::mkdir(path.c_str(), 0755) != 0) {
    if (errno == EEXIST) fail(ErrorCode::kAlreadyExists, "'", path, "' already exists");
    os_fail("cannot create directory", path, errno);
  }
}

void make_directories(const std::string& path) {
  if (const int e = fault_point(FaultOp::kMkdir)) os_fail("cannot create directory", path, e);
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) fail(ErrorCode::kIo, "cannot create directory '", path, "': ", ec.message());
}

void remove_tree(const std::string& path) {
  if (const int e = fault_point(FaultOp::kRemove)) os_fail("cannot remove", path, e);
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  if (ec) fail(ErrorCode::kIo, "cannot remove '", path, "': ", ec.message());
}

std::vector<std::string> list_directory(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ec;
  std::filesystem::directory_iterator it(path, ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return names;
    fail(ErrorCode::kIo, "cannot list '", path, "': ", ec.message());
  }
  for (const auto& e : it) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string join_path(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  return a.back() == '/' ? a + b : a + "/" + b;
}

std::string parent_path(const std::string& p) {
  const auto pos = p.find_last_of('/');
  if (pos == std::string::npos) return ".";
  if (pos == 0) return "/";
  return p.substr(0, pos);
}

}  // namespace lodex
