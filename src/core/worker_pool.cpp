#include "core/worker_pool.hpp"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/error.hpp"

namespace lodex {

namespace {

thread_local bool t_in_task = false;

class Pool {
 public:
  void run(size_t n, size_t threads, const std::function<void(size_t, size_t)>& task) {
    std::lock_guard<std::mutex> turn(turn_);
    const size_t helpers = threads - 1;
    {
      std::unique_lock<std::mutex> lk(m_);
      while (workers_.size() < helpers) {
        const size_t index = workers_.size();
        workers_.emplace_back([this, index, seen = generation_] { loop(index, seen); });
      }
      task_ = &task;
      n_ = n;
      next_.store(0);
      failed_.store(false);
      error_ = nullptr;
      wanted_ = helpers;
      active_ = helpers;
      ++generation_;
    }
    wake_.notify_all();
    work(0);
    std::unique_lock<std::mutex> lk(m_);
    done_.wait(lk, [&] { return active_ == 0; });
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work(size_t worker) {
    t_in_task = true;
    while (!failed_.load(std::memory_order_relaxed)) {
      const size_t i = next_.fetch_add(1);
      if (i >= n_) break;
      try {
        (*task_)(i, worker);
      } catch (...) {
        std::lock_guard<std::mutex> lk(m_);
        if (!error_) error_ = std::current_exception();
        failed_.store(true);
      }
    }
    t_in_task = false;
  }

  void loop(size_t index, uint64_t seen) {
    std::unique_lock<std::mutex> lk(m_);
    for (;;) {
      wake_.wait(lk, [&] { return generation_ != seen; });
      seen = generation_;
      if (index >= wanted_) continue;
      lk.unlock();
      work(index + 1);
      lk.lock();
      if (--active_ == 0) done_.notify_all();
    }
  }

  std::mutex turn_;   // one run at a time
  std::mutex m_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;   // never joined: the pool lives as long as the process
  uint64_t generation_ = 0;
  const std::function<void(size_t, size_t)>* task_ = nullptr;
  size_t n_ = 0, wanted_ = 0, active_ = 0;
  std::atomic<size_t> next_{0};
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;
};

std::mutex g_pool_mutex;
Pool* g_pool = nullptr;   // leaked on purpose: its threads wait until the process ends

// A child of fork() has none of the pool's threads: it forgets the pool and starts another
// when it needs one. g_pool_mutex is held across the fork so the child's copy is consistent.
void before_fork() { g_pool_mutex.lock(); }
void after_fork_in_parent() { g_pool_mutex.unlock(); }
void after_fork_in_child() {
  g_pool = nullptr;
  g_pool_mutex.unlock();
}

Pool& pool() {
  static const bool registered = pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child) == 0;
  (void)registered;
  std::lock_guard<std::mutex> lk(g_pool_mutex);
  if (!g_pool) g_pool = new Pool();
  return *g_pool;
}

}  // namespace

void parallel_for(size_t n, size_t threads, const std::function<void(size_t, size_t)>& task) {
  if (threads > n) threads = n;
  if (threads <= 1 || t_in_task) {
    for (size_t i = 0; i < n; ++i) task(i, 0);
    return;
  }
  pool().run(n, threads, task);
}

size_t io_threads() {
  static const size_t n = [] {
    const char* v = std::getenv("LODEX_IO_THREADS");
    if (!v || !*v) return size_t{8};
    char* end = nullptr;
    const long x = std::strtol(v, &end, 10);
    if (*end != '\0' || x < 1 || x > 256)
      fail(ErrorCode::kInvalidArgument, "LODEX_IO_THREADS='", v, "' is not a whole number from 1 to 256");
    return static_cast<size_t>(x);
  }();
  return n;
}

}  // namespace lodex
