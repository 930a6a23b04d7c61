// The two exchanges of a particle write (paper §3.3): counts first, then the particles, column by
// column, into one receive region per aggregator.
//
// Methods. Point to point (the paper's, the default): non-blocking sends and receives of every
// column. Shared memory (an option): for a sender on the aggregator's node, the receive
// region is an MPI-3 shared window; the aggregator tells each such sender where its rows go,
// and the sender copies them in directly (one memcpy, no protocol needing both processes on a
// core at once). Senders on other nodes still use point to point into the same region.
// A partition whose only sender is its own aggregator is never exchanged: it is read in place.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "layout/particle_plan.hpp"
#include "pipelines/dataset.hpp"
#include "core/scratch_buffer.hpp"
#include "mpi/comm.hpp"

namespace lodex {

// This rank's particles grouped by destination partition.
struct Outgoing {
  std::span<const uint32_t> partitions;   // plan.sends_of(me), ascending
  std::vector<uint64_t> counts;           // rows per destination slot
  std::vector<const uint8_t*> rows;       // [slot * fields + f]: field f's rows for that slot
};

// A partition this rank aggregates, after the exchange.
struct IncomingPartition {
  uint32_t id = 0;
  uint64_t total = 0;
  std::vector<uint64_t> counts;          // per sender in plan.senders_of(id)
  std::vector<uint64_t> first_row;       // per sender: where its rows start (prefix of counts)
  std::vector<const uint8_t*> columns;   // per field, rows of all senders in sender order
};

class ParticleExchange {
 public:
  // `region` holds the point-to-point receive region; it outlives the exchange so the next
  // step reuses its pages.
  ParticleExchange(const Comm& comm, const ParticlePlan& plan, std::vector<size_t> row_bytes,
                   ExchangeMethod method, ScratchBuffer& region);
  ~ParticleExchange();   // release() if not done yet
  ParticleExchange(const ParticleExchange&) = delete;
  ParticleExchange& operator=(const ParticleExchange&) = delete;

  void exchange_counts(const Outgoing& out);
  void exchange_particles(const Outgoing& out);
  std::vector<IncomingPartition>& incoming() { return incoming_; }
  // Frees the receive region. Collective over the node when a shared window is in use.
  void release();

 private:
  size_t slot_of(const Outgoing& out, uint32_t partition) const;

  const Comm& comm_;
  const ParticlePlan& plan_;
  std::vector<size_t> row_bytes_;
  ExchangeMethod method_;
  int me_;
  std::vector<IncomingPartition> incoming_;
  ScratchBuffer& region_;   // receive region for point to point
  MPI_Win window_ = MPI_WIN_NULL;
};

}  // namespace lodex
