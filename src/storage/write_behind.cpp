#include "storage/write_behind.hpp"

#include <chrono>

#include "core/error.hpp"

namespace lodex {

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

WriteBehind::~WriteBehind() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WriteBehind::start(std::function<File()> open) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_) fail(ErrorCode::kInternal, "write-behind: a file is already open");
  opener_ = std::move(open);   // the helper opens it before its first write, off the caller's path
  open_ = true;
  error_ = nullptr;
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void WriteBehind::begin(const std::string& path) {
  start([path] { return File(path, File::Mode::kCreate); });
}

void WriteBehind::begin_shared(const std::string& path) {
  start([path] { return File(path, File::Mode::kShare); });
}

void WriteBehind::begin_in_place(const std::string& path, uint64_t size) {
  start([path, size] {
    File f(path, File::Mode::kShare);
    f.truncate(size);
    return f;
  });
}

void WriteBehind::write(const void* data, size_t bytes, uint64_t offset) {
  if (bytes == 0) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!open_) fail(ErrorCode::kInternal, "write-behind: no file open");
    if (error_) return;
    queue_.push_back({data, bytes, offset});
  }
  wake_.notify_one();
}

void WriteBehind::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;   // stop_
    const Range r = queue_.front();
    queue_.pop_front();
    busy_ = true;
    std::function<File()> open = std::move(opener_);
    opener_ = nullptr;
    lock.unlock();
    const double t0 = now();
    std::exception_ptr failure;
    try {
      if (open) file_ = open();
      file_.pwrite_all(r.data, r.bytes, r.offset);
    } catch (...) {
      failure = std::current_exception();
    }
    const double dt = now() - t0;
    lock.lock();
    busy_seconds_ += dt;
    busy_ = false;
    if (failure && !error_) {
      error_ = failure;
      queue_.clear();
    }
    done_.notify_all();
  }
}

void WriteBehind::wait_pending(size_t ranges) {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return queue_.size() + (busy_ ? 1 : 0) <= ranges; });
}

void WriteBehind::finish(bool fsync) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!open_) return;
  done_.wait(lock, [&] { return queue_.empty() && !busy_; });
  open_ = false;
  std::exception_ptr error = error_;
  error_ = nullptr;
  std::function<File()> open = std::move(opener_);
  opener_ = nullptr;
  File file = std::move(file_);
  lock.unlock();
  if (error) std::rethrow_exception(error);
  if (open) file = open();   // nothing was queued: the file is made all the same
  if (fsync) file.sync();
  file.close();
}

double WriteBehind::take_busy_seconds() {
  std::lock_guard<std::mutex> lock(mutex_);
  const double s = busy_seconds_;
  busy_seconds_ = 0;
  return s;
}

}  // namespace lodex
