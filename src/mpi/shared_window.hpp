// A grow-only MPI-3 shared-memory window over a node (MPI_Win_allocate_shared), kept from one
// collective write to the next: allocating a window and faulting its pages in cost more than the
// copies that fill it (measured: a fresh 31 MiB window per step made the exchange several times
// slower), so a write reuses the last one while every rank's part is big enough.
//
// Collective over the node: reserve (every rank of the node calls it, with its own size) and
// release. The window stays locked for shared access (MPI_Win_lock_all) while it exists; sync()
// orders this process's stores and loads around a node barrier. The destructor frees nothing
// collectively (it may run on one rank alone): call release() at a collective point (a dataset's
// close); a window still held at exit is reclaimed by MPI_Finalize.
//
// Each window holds a duplicate of the node's communicator inside MPI: with MPICH, whichever call
// first needs more than its 8 preallocated communicator objects allocates 256 more (1.8 MiB, kept
// until MPI_Finalize), once per process; a group's first reserve can be that call
// (docs/writes.md, "MPI's communicator objects").
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>

#include "core/mapped_buffer.hpp"
#include "mpi/comm.hpp"

namespace lodex {

class SharedWindow {
 public:
  SharedWindow() = default;
  ~SharedWindow() = default;
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;

  // Collective over comm's node: this rank's part, at least `bytes` (contents unspecified). When
  // some rank of the node needs more than it has, every rank's part is allocated anew (with a
  // quarter of headroom) and earlier pointers are invalid.
  uint8_t* reserve(const Comm& comm, uint64_t bytes);
  // Node rank `node_rank`'s part and its size (after reserve).
  uint8_t* part_of(int node_rank, uint64_t* size) const;
  // How many times reserve was called: the same count on every rank of the node, so it names the
  // current use of the window (what its parts hold is this use's once it is written with it).
  uint64_t epoch() const { return epoch_; }
  // Which allocation holds the parts, unique in the process (next_allocation_id): it changes when
  // reserve allocates the window anew.
  uint64_t id() const { return id_; }
  void sync() const;      // MPI_Win_sync
  // Collective over the node: frees the window.
  void release();

 private:
  MPI_Win window_ = MPI_WIN_NULL;
  uint8_t* base_ = nullptr;
  uint64_t capacity_ = 0;
  uint64_t epoch_ = 0;
  uint64_t id_ = 0;
};

// Words in a shared window through which the processes of a node signal each other without an MPI
// call (so a helper thread may use them too): release stores and additions, acquire loads.
uint64_t shared_load(const uint64_t* word);
void shared_store(uint64_t* word, uint64_t value);
void shared_add(uint64_t* word, uint64_t value);
// Polls until ready() holds: a few busy polls, then sleeps that grow to 100 us, leaving the core to
// the process being waited for (ranks often outnumber cores).
void await_shared(const std::function<bool()>& ready);

}  // namespace lodex
