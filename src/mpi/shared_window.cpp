#include "mpi/shared_window.hpp"

#include <algorithm>
#include <ctime>

namespace lodex {

uint8_t* SharedWindow::reserve(const Comm& comm, uint64_t bytes) {
  MPI_Comm node = comm.node_raw();
  if (node == MPI_COMM_NULL) fail(ErrorCode::kInternal, "a shared window needs an MPI communicator");
  ++epoch_;
  if (!comm.node_max(bytes > capacity_ || window_ == MPI_WIN_NULL)) return base_;
  const uint64_t want = bytes > capacity_ ? bytes + bytes / 4 : capacity_;
  release();
  MPI_Info info;
  check_mpi(MPI_Info_create(&info), "MPI_Info_create");
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  uint8_t* base = nullptr;
  const int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(want), 1, info, node, &base, &window_);
  MPI_Info_free(&info);
  check_mpi(rc, "MPI_Win_allocate_shared");
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
  base_ = base;
  capacity_ = want;
  id_ = next_allocation_id();
  return base_;
}

uint8_t* SharedWindow::part_of(int node_rank, uint64_t* size) const {
  if (window_ == MPI_WIN_NULL) fail(ErrorCode::kInternal, "no shared window");
  MPI_Aint bytes = 0;
  int disp = 0;
  uint8_t* base = nullptr;
  check_mpi(MPI_Win_shared_query(window_, node_rank, &bytes, &disp, &base), "MPI_Win_shared_query");
  *size = static_cast<uint64_t>(bytes);
  return base;
}

void SharedWindow::sync() const {
  if (window_ != MPI_WIN_NULL) check_mpi(MPI_Win_sync(window_), "MPI_Win_sync");
}

void SharedWindow::release() {
  if (window_ != MPI_WIN_NULL && mpi_active()) {
    check_mpi(MPI_Win_unlock_all(window_), "MPI_Win_unlock_all");
    check_mpi(MPI_Win_free(&window_), "MPI_Win_free");
  }
  window_ = MPI_WIN_NULL;
  base_ = nullptr;
  capacity_ = 0;
}

uint64_t shared_load(const uint64_t* word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
void shared_store(uint64_t* word, uint64_t value) { __atomic_store_n(word, value, __ATOMIC_RELEASE); }
void shared_add(uint64_t* word, uint64_t value) { __atomic_fetch_add(word, value, __ATOMIC_RELEASE); }

void await_shared(const std::function<bool()>& ready) {
  long sleep_ns = 2000;
  for (int polls = 0; !ready(); ++polls) {
    if (polls < 32) continue;
    timespec ts{0, sleep_ns};
    nanosleep(&ts, nullptr);
    sleep_ns = std::min(sleep_ns * 2, 100000L);
  }
}

}  // namespace lodex
