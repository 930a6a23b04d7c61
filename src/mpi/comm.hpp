// Checked MPI: every call goes through a helper that names the operation on failure, and a
// Comm that is either an MPI communicator (duplicated, so lodex traffic never mixes with the
// application's) or serial (one rank, no MPI call at all, so readers work without mpiexec).
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace lodex {

void check_mpi(int rc, const char* operation);

class Comm {
 public:
  Comm() = default;                  // serial
  explicit Comm(MPI_Comm comm);      // collective over `comm`: duplicates it
  // Collective: a Comm of the same ranks over a communicator of its own (serial: serial), for
  // traffic that must not meet this one's (a helper thread's, under MPI_THREAD_MULTIPLE).
  Comm duplicate() const { return is_mpi() ? Comm(raw()) : Comm(); }
  ~Comm();
  Comm(Comm&& o) noexcept;
  Comm& operator=(Comm&& o) noexcept;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  bool is_mpi() const { return comm_ != MPI_COMM_NULL; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm raw() const { return comm_; }

  void barrier() const;
  // Collective: the ranks passing the same color, in rank order (MPI_Comm_split). Serial: a
  // serial Comm.
  Comm split(int color) const;
  // The ranks sharing this rank's node (MPI_COMM_TYPE_SHARED); MPI_COMM_NULL when serial. The
  // environment variable LODEX_RANKS_PER_NODE=k cuts each node into groups of k consecutive node
  // ranks, so runs on one machine can take the paths of partitions spanning several nodes.
  MPI_Comm node_raw() const { return node_; }
  // `rank`'s rank in the node communicator, or -1 when it is on another node.
  int node_rank_of(int rank) const { return node_rank_.empty() ? (rank == 0 ? 0 : -1) : node_rank_[rank]; }
  // The node of `rank`, named by the lowest rank on it (the same number on every rank).
  int node_of(int rank) const { return node_of_.empty() ? 0 : node_of_[rank]; }
  void node_barrier() const;
  // The maximum of v over the node's ranks (v itself when serial).
  uint64_t node_max(uint64_t v) const;
  void allgather(const void* send, size_t bytes_per_rank, void* recv) const;
  void bcast(void* data, size_t bytes, int root) const;
  void bcast_string(std::string& s, int root) const;
  uint64_t allreduce_u64(uint64_t v, MPI_Op op) const;
  void allreduce_f64(std::vector<double>& v, MPI_Op op) const;      // element-wise, in place
  void allreduce_u64(std::vector<uint64_t>& v, MPI_Op op) const;   // element-wise, in place
  // Whether every rank passed the same value (one allreduce of v and ~v).
  bool same_everywhere(uint64_t v) const;
  // Gathers variable-size byte blocks to `root`; returns the concatenation there, empty elsewhere.
  std::vector<uint8_t> gatherv(const std::vector<uint8_t>& mine, int root) const;

  // Runs `fn` on every rank and agrees on the outcome: if any rank threw lodex::Error, every
  // rank throws the error of the lowest failing rank (message prefixed "rank r: " when size > 1).
  // Only lodex::Error is agreed on; anything else is converted to an internal error first.
  void agree(const std::function<void()>& fn) const;
  // The same, for a collective call whose language binding could not convert this rank's
  // arguments (`input_error` set): the rank skips `fn` and its error is agreed on like any other,
  // so every rank raises it and none is left waiting. An error with code kOk (which would read
  // as success) becomes an internal error.
  void agree(const std::optional<Error>& input_error, const std::function<void()>& fn) const;

 private:
  void free_communicators();
  void split_node_for_testing();   // LODEX_RANKS_PER_NODE

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm node_ = MPI_COMM_NULL;
  std::vector<int> node_rank_;
  std::vector<int> node_of_;
  int rank_ = 0;
  int size_ = 1;
};

// Non-blocking point-to-point byte messages of any size: large messages are split into pieces
// of at most 1 GiB, which MPI matches in posting order for the same source, tag and communicator.
class Exchange {
 public:
  explicit Exchange(const Comm& comm) : comm_(comm) {}
  void isend(const void* data, size_t bytes, int dest, int tag);
  void irecv(void* data, size_t bytes, int source, int tag);
  // Byte ranges anywhere in memory as one message (an hindexed type over MPI_BOTTOM); both sides
  // list ranges of the same total length.
  struct Range {
    const void* data;
    uint64_t bytes;
  };
  void isend_ranges(const std::vector<Range>& ranges, int dest, int tag);
  void irecv_ranges(const std::vector<Range>& ranges, int source, int tag);
  // Sub-boxes of row-major 3-D arrays (sizes z, y, x of `elem`-byte samples) as one message.
  struct SubBox {
    const void* base;
    std::array<int, 3> sizes, sub, start;   // z, y, x
    int elem;
  };
  void isend_boxes(const std::vector<SubBox>& boxes, int dest, int tag);
  void irecv_boxes(const std::vector<SubBox>& boxes, int source, int tag);
  // Completes everything posted so far. Busy by default: MPI moves a large message while it is
  // polled, and a rank receiving one does the copy itself. `polite`: sleeps between polls, for a
  // rank that only sends and waits for its receivers to pull the bytes.
  void wait_all(bool polite = false);
  ~Exchange();

 private:
  const Comm& comm_;
  std::vector<MPI_Request> requests_;
};

// True when MPI is initialized and not yet finalized.
bool mpi_active();

// True when MPI is active and gives MPI_THREAD_MULTIPLE (MPI_Query_thread): any thread may call
// MPI, concurrently with the others.
bool mpi_thread_multiple();

// This process's rank in comm and comm's size; (0, 1) for MPI_COMM_NULL (serial: no MPI call).
std::pair<int, int> rank_and_size(MPI_Comm comm);

}  // namespace lodex
