// Task parallelism inside one process: a pool of threads started on first use and kept for the
// life of the process (creating threads costs ~70 us each under gVisor, more than many reads),
// reset in a child after fork. Used to keep several reads in flight, so a cold read pays the
// device's latency once per batch of requests rather than once per request.
#pragma once

#include <cstddef>
#include <functional>

namespace lodex {

// Runs task(i, worker) for every i in [0, n) on up to `threads` threads: the caller and helpers
// from the pool. Tasks are pulled from a shared counter, so a slow task does not hold up the
// rest. `worker` (< threads) names the thread running the task, for per-thread scratch space.
// If a task throws, tasks not yet started are skipped and the first exception is rethrown here
// once every running task has returned. n <= 1, threads <= 1, and calls made from inside a task
// run inline on the caller. Concurrent calls from different threads take turns.
void parallel_for(size_t n, size_t threads, const std::function<void(size_t task, size_t worker)>& task);

// Requests a read keeps in flight: LODEX_IO_THREADS if set (1 = no helper threads), else 8.
size_t io_threads();

}  // namespace lodex
