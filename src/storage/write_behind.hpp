// Write-behind: a helper thread that writes queued byte ranges to one file while the caller
// prepares the next ones, so preparing (reordering, checksumming) and the file system's copy
// overlap on two cores. One writer per file as before: only the helper writes it.
//
// The caller owns the bytes of a range until finish() returns (ranges are written in the order
// they are queued; they must not overlap). The thread is started on first use and kept for the
// next files, since a thread costs tens of microseconds to start.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "storage/file.hpp"

namespace lodex {

class WriteBehind {
 public:
  WriteBehind() = default;
  ~WriteBehind();
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Starts a file: created (or truncated) at `path`. Throws if a file is already in progress. The
  // file is opened by the helper thread before its first write (by finish when nothing was queued),
  // so a failure to open it is reported by finish, like a failed write.
  void begin(const std::string& path);
  // Starts a file of `size` bytes: a file already at `path` is rewritten in place (cut or extended
  // to `size` first), so the pages the system caches for it are reused rather than freed and
  // allocated again. For files every byte of which the caller writes.
  void begin_in_place(const std::string& path, uint64_t size);
  // Starts a file that other processes write parts of too: created if missing, never truncated.
  void begin_shared(const std::string& path);
  // Queues `bytes` bytes at `data` for `offset`. After a write failed, further ranges are dropped
  // (finish reports the failure).
  void write(const void* data, size_t bytes, uint64_t offset);
  // Waits until at most `ranges` queued ranges are not yet written (ranges are written in order, so
  // the bytes of all earlier ones may be reused).
  void wait_pending(size_t ranges);
  // Waits for the queued ranges, fsyncs when asked, closes the file; rethrows the first failure.
  void finish(bool fsync);
  // Seconds the helper spent writing since the last call (its busy time).
  double take_busy_seconds();

 private:
  struct Range {
    const void* data;
    size_t bytes;
    uint64_t offset;
  };
  void run();
  void start(std::function<File()> open);   // a file `open` makes (on the helper, first), the thread running

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<Range> queue_;
  bool busy_ = false, stop_ = false, open_ = false;
  File file_;
  std::function<File()> opener_;   // the file's opening, until the helper (or finish) does it
  std::exception_ptr error_;
  double busy_seconds_ = 0;
  std::thread thread_;
};

}  // namespace lodex
