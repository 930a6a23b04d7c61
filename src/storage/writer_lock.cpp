#include "storage/writer_lock.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <limits.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "core/error.hpp"
#include "storage/file.hpp"

namespace lodex {

namespace {

using json = nlohmann::json;

constexpr int kAttempts = 200;                                // takeovers and transient states retried
constexpr auto kPause = std::chrono::milliseconds(5);
constexpr int64_t kUnwrittenGraceSeconds = 5;                 // an empty lock younger is being written

[[noreturn]] void os_fail(const std::string& what, const std::string& path, int err) {
  fail(ErrorCode::kIo, what, " '", path, "': ", std::strerror(err));
}

// Field 3 (state) and 22 (start time in clock ticks) of /proc/<pid>/stat; false if unreadable.
bool process_stat(int64_t pid, char& state, uint64_t& start_ticks) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return false;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');   // the command name may hold spaces and parentheses
  if (close == std::string::npos) return false;
  const char* p = text.c_str() + close + 1;
  char* end = nullptr;
  for (int field = 3; field <= 22; ++field) {
    while (*p == ' ') ++p;
    if (!*p) return false;
    if (field == 3) state = *p;
    if (field == 22) {
      start_ticks = std::strtoull(p, &end, 10);
      return end != p;
    }
    while (*p && *p != ' ') ++p;
  }
  return false;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string holder_json(const LockHolder& h) {
  return json{{"host", h.host},
              {"pid", h.pid},
              {"start_ticks", h.start_ticks},
              {"since", h.since},
              {"lodex_version", h.version}}
             .dump() +
         "\n";
}

std::optional<LockHolder> parse_holder(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  try {
    LockHolder h;
    h.host = j.at("host").get<std::string>();
    h.pid = j.at("pid").get<int64_t>();
    h.start_ticks = j.value("start_ticks", uint64_t{0});
    h.since = j.value("since", std::string("an unknown time"));
    h.version = j.value("lodex_version", std::string("?"));
    return h;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::string read_fd(int fd) {
  std::string text;
  char buf[4096];
  for (off_t at = 0; text.size() < (size_t{1} << 16);) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
    at += n;
  }
  return text;
}

// flock(LOCK_EX | LOCK_NB): 1 taken, 0 held by another open file, -1 not honoured here.
int try_flock(int fd) {
  int rc;
  do rc = ::flock(fd, LOCK_EX | LOCK_NB);
  while (rc != 0 && errno == EINTR);
  if (rc == 0) return 1;
  return errno == EWOULDBLOCK ? 0 : -1;
}

// Locks released at a normal exit (a process ending without closing its datasets).
std::mutex& registry_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::set<WriterLock*>& registry() {
  static auto* s = new std::set<WriterLock*>;
  return *s;
}
void release_all_at_exit() {
  std::lock_guard<std::mutex> hold(registry_mutex());
  for (WriterLock* l : registry()) l->release();
}
void enrol(WriterLock* l) {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(release_all_at_exit); });
  std::lock_guard<std::mutex> hold(registry_mutex());
  registry().insert(l);
}
void withdraw(WriterLock* l) {
  std::lock_guard<std::mutex> hold(registry_mutex());
  registry().erase(l);
}

LockHolder me(const std::string& version) {
  LockHolder h;
  h.host = this_host();
  h.pid = ::getpid();
  char state = 0;
  process_stat(h.pid, state, h.start_ticks);
  h.since = utc_now();
  h.version = version;
  return h;
}

// What an existing lock file says about taking the lock over.
enum class Verdict { kHeld, kStale, kRetry };
struct Inspection {
  Verdict verdict = Verdict::kRetry;
  std::optional<LockHolder> holder;
};

Inspection judge(const std::string& path, int fd, const struct stat& st) {
  Inspection out;
  const int probe = try_flock(fd);   // released when `fd` is closed
  const std::string text = read_fd(fd);
  out.holder = parse_holder(text);
  if (!out.holder) {
    // Empty: a writer between creating and filling it, or one killed there (then old).
    const int64_t age = static_cast<int64_t>(std::time(nullptr)) - static_cast<int64_t>(st.st_mtime);
    if (text.find_first_not_of(" \n\t\r") != std::string::npos)
      fail(ErrorCode::kFormat, "'", path, "' is not a lodex writer lock (", text.size(),
           " bytes that are not a holder's JSON); if no writer is running, remove it (lodex unlock)");
    out.verdict = probe == 0 || age < kUnwrittenGraceSeconds ? Verdict::kRetry : Verdict::kStale;
    return out;
  }
  if (!holder_is_dead(*out.holder)) out.verdict = Verdict::kHeld;
  else out.verdict = probe == 0 ? Verdict::kRetry : Verdict::kStale;   // locked: a takeover under way
  return out;
}

[[noreturn]] void refuse(const std::string& dir, const LockHolder& h) {
  const bool here = h.host == this_host();
  fail(ErrorCode::kAlreadyExists, "dataset '", dir,
       "' is open for writing (one writer at a time): its lock is held by ", h.describe(),
       here && h.pid == ::getpid() ? ", this process (close the other handle first)" : "",
       here ? ""
            : "; a process of another host cannot be checked from here: if that writer is gone, "
              "remove the lock with `lodex unlock` (or delete the file '",
       here ? "" : join_path(dir, kWriterLockName), here ? "" : "')");
}

// Removes a stale lock file if the path still names the file judged (not a newer writer's).
void take_over(const std::string& path, const struct stat& judged) {
  struct stat now;
  if (::lstat(path.c_str(), &now) == 0 && now.st_dev == judged.st_dev && now.st_ino == judged.st_ino)
    ::unlink(path.c_str());
}

}  // namespace

std::string LockHolder::describe() const { return cat(host, ":", pid, " since ", since, " (lodex ", version, ")"); }

std::string this_host() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown-host";
  return buf;
}

bool holder_is_dead(const LockHolder& h) {
  if (h.host != this_host() || h.pid <= 0 || h.pid > INT_MAX) return false;
  if (::kill(static_cast<pid_t>(h.pid), 0) != 0 && errno == ESRCH) return true;
  char state = 0;
  uint64_t ticks = 0;
  if (!process_stat(h.pid, state, ticks)) return false;   // cannot tell: alive
  if (state == 'Z' || state == 'X') return true;          // killed, not yet reaped
  return h.start_ticks != 0 && ticks != h.start_ticks;    // the pid is another process now
}

std::unique_ptr<WriterLock> WriterLock::acquire(const std::string& dir, const std::string& version) {
  const std::string path = join_path(dir, kWriterLockName);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd >= 0) {
      int flocked = try_flock(fd);
      for (int i = 0; i < 20 && flocked == 0; ++i) {   // an inspector's probe, released at once
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        flocked = try_flock(fd);
      }
      std::unique_ptr<WriterLock> lock(new WriterLock(path, fd, flocked == 1));
      const std::string text = holder_json(me(version));
      try {
        size_t done = 0;
        while (done < text.size()) {
          const ssize_t n = ::pwrite(fd, text.data() + done, text.size() - done, static_cast<off_t>(done));
          if (n < 0 && errno == EINTR) continue;
          if (n <= 0) os_fail("cannot write the writer lock", path, n < 0 ? errno : EIO);
          done += static_cast<size_t>(n);
        }
      } catch (...) {
        lock->release();
        throw;
      }
      enrol(lock.get());
      return lock;
    }
    if (errno != EEXIST) os_fail("cannot create the writer lock", path, errno);
    const int ifd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (ifd < 0) {
      if (errno == ENOENT) continue;   // released meanwhile
      if (errno == ELOOP) fail(ErrorCode::kFormat, "'", path, "' is a symbolic link, not a lodex writer lock");
      os_fail("cannot open the writer lock", path, errno);
    }
    struct stat st;
    if (::fstat(ifd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(ifd);
      fail(ErrorCode::kFormat, "'", path, "' is not a regular file, not a lodex writer lock");
    }
    Inspection seen;
    try {
      seen = judge(path, ifd, st);
    } catch (...) {
      ::close(ifd);
      throw;
    }
    if (seen.verdict == Verdict::kStale) take_over(path, st);
    ::close(ifd);
    if (seen.verdict == Verdict::kHeld) refuse(dir, *seen.holder);
    if (seen.verdict == Verdict::kRetry) std::this_thread::sleep_for(kPause);
  }
  fail(ErrorCode::kAlreadyExists, "dataset '", dir, "' is open for writing: its lock '", path,
       "' stayed contended for ", kAttempts, " attempts (a writer creating it, or taking a stale one over)");
}

WriterLock::WriterLock(std::string path, int fd, bool flocked)
    : path_(std::move(path)), fd_(fd), flocked_(flocked), owner_pid_(::getpid()) {}

WriterLock::~WriterLock() {
  withdraw(this);
  release();
}

void WriterLock::release() noexcept {
  if (fd_ < 0 || owner_pid_ != ::getpid()) return;
  struct stat mine;
  if (::fstat(fd_, &mine) == 0) take_over(path_, mine);   // only if the path is still this file
  ::close(fd_);
  fd_ = -1;
}

std::optional<LockHolder> read_lock_holder(const std::string& dir) {
  const std::string path = join_path(dir, kWriterLockName);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    os_fail("cannot open the writer lock", path, errno);
  }
  const std::string text = read_fd(fd);
  ::close(fd);
  std::optional<LockHolder> h = parse_holder(text);
  if (!h) fail(ErrorCode::kFormat, "'", path, "' is not a lodex writer lock (", text.size(), " bytes)");
  return h;
}

std::optional<LockHolder> break_writer_lock(const std::string& dir, bool force) {
  const std::string path = join_path(dir, kWriterLockName);
  std::optional<LockHolder> h;
  try {
    h = read_lock_holder(dir);
  } catch (const Error&) {   // not a holder's JSON: only removed by force
    if (!force) throw;
  }
  if (!h && !path_exists(path)) return std::nullopt;
  if (h && !force && !holder_is_dead(*h))
    fail(ErrorCode::kAlreadyExists, "the writer lock of '", dir, "' is held by ", h->describe(),
         h->host == this_host() ? ", a live process of this host; stop that writer first"
                                : ", a process of another host that cannot be checked from here; if it is gone, "
                                  "pass --force (force=True)");
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) os_fail("cannot remove the writer lock", path, errno);
  if (!h) h = LockHolder{"unknown", 0, 0, "an unknown time", "?"};
  return h;
}

CommitGuard::CommitGuard(const std::string& dir) {
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) return;
  int rc;
  do rc = ::flock(fd_, LOCK_EX);
  while (rc != 0 && errno == EINTR);
  held_ = rc == 0;
}

CommitGuard::~CommitGuard() {
  if (fd_ >= 0) ::close(fd_);   // releases the flock
}

}  // namespace lodex
