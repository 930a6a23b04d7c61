#include "mpi/shared_window.hpp"

namespace lodex {

uint8_t* SharedWindow::reserve(const Comm& comm, uint64_t bytes) {
  MPI_Comm node = comm.node_raw();
  if (node == MPI_COMM_NULL) fail(ErrorCode::kInternal, "a shared window needs an MPI communicator");
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

}  // namespace lodex
