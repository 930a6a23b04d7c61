// The writer lock of a dataset (docs/reliability.md, "Writer lock"): one process at a time may
// append to a dataset. The lock is a file in the dataset's directory (kWriterLockName), created
// atomically (O_CREAT | O_EXCL, never through a symbolic link) and holding its holder as JSON:
// host, pid, the process's start time, since when, the lodex version. While held, the file is
// also flock'ed where the file system honours flock. A lock left by a process that died on this
// host (its pid gone, a zombie, or reused by a later process) is stale and taken over; a lock of
// another host cannot be checked and is refused, naming host, pid and since when.
//
// CommitGuard serializes manifest commits of processes that bypassed the lock: an exclusive flock
// of the dataset directory itself for the time of one compare-and-swap of the manifest.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lodex {

inline constexpr const char* kWriterLockName = "lodex.lock";

struct LockHolder {
  std::string host;
  int64_t pid = 0;
  uint64_t start_ticks = 0;   // the process's start time (/proc/<pid>/stat field 22); 0: unknown
  std::string since;          // UTC, ISO 8601
  std::string version;        // lodex version of the holder
  std::string describe() const;   // "host:pid since <time> (lodex <version>)"
};

class WriterLock {
 public:
  // Takes the lock of dataset directory `dir`: AlreadyExists naming the holder when a live (or
  // uncheckable) process holds it, IOFailure when the file cannot be made.
  static std::unique_ptr<WriterLock> acquire(const std::string& dir, const std::string& version);
  ~WriterLock();
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

  // Removes the lock file if it is still this one (not one a later writer made after it was
  // deleted by hand) and closes it. Idempotent; never throws.
  void release() noexcept;
  const std::string& path() const { return path_; }
  bool flocked() const { return flocked_; }   // whether the file system honoured flock

 private:
  WriterLock(std::string path, int fd, bool flocked);
  std::string path_;
  int fd_ = -1;
  bool flocked_ = false;
  int64_t owner_pid_ = 0;   // a forked child does not release its parent's lock
};

// The holder recorded in `dir`'s lock, if there is a lock (nullopt: none). FormatError when its
// file is not a holder's JSON.
std::optional<LockHolder> read_lock_holder(const std::string& dir);
// Removes `dir`'s lock by hand (lodex unlock): one whose holder is known dead, or any with `force`
// (a holder on another host cannot be checked); AlreadyExists naming a holder that may be alive
// otherwise. The holder removed; nullopt when there was no lock.
std::optional<LockHolder> break_writer_lock(const std::string& dir, bool force);
// Whether `h` is known dead: a process of this host whose pid is gone, a zombie or reused.
bool holder_is_dead(const LockHolder& h);
std::string this_host();

// An exclusive flock of a directory while in scope (blocking). Where the file system does not
// honour flock on directories the guard is a no-op (held() is false).
class CommitGuard {
 public:
  explicit CommitGuard(const std::string& dir);
  ~CommitGuard();
  CommitGuard(const CommitGuard&) = delete;
  CommitGuard& operator=(const CommitGuard&) = delete;
  bool held() const { return held_; }

 private:
  int fd_ = -1;
  bool held_ = false;
};

}  // namespace lodex
