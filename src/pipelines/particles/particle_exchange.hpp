// The two exchanges of a particle write (paper §3.3): counts first, then the particles, column by
// column, into one receive region per aggregator. With an aligned plan (every rank sends to one
// partition) the counts are already known from the agreed records, so only the particles move.
// Each sender also sends the per-component min/max of the rows it sends (computed where the data
// is); the aggregator merges them, in sender order, into its partition's statistics.
//
// Methods. Point to point (the paper's, the default): non-blocking sends and receives of every
// column. Shared memory (an option): for a sender on the aggregator's node, the receive
// region is an MPI-3 shared window; the aggregator tells each such sender where its rows go,
// and the sender copies them in directly (one memcpy, no protocol needing both processes on a
// core at once). Senders on other nodes still use point to point into the same region.
// A partition whose only sender is its own aggregator is never exchanged: it is read in place.
//
// With a shared window, the aggregator's part begins with a directory of its exchanged partitions
// (id, rows, where each column and area lies), so every rank of its node can find them there.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "layout/particle_plan.hpp"
#include "pipelines/particles/column_stats.hpp"
#include "pipelines/dataset.hpp"
#include "core/scratch_buffer.hpp"
#include "mpi/comm.hpp"
#include "mpi/shared_window.hpp"

namespace lodex {

// This rank's particles grouped by destination partition.
struct Outgoing {
  std::span<const uint32_t> partitions;   // plan.sends_of(me), ascending
  std::vector<uint64_t> counts;           // rows per destination slot
  std::vector<const uint8_t*> rows;       // [slot * fields + f]: field f's rows for that slot
  std::vector<ColumnStats> stats;         // per slot: min/max of the rows sent there
};

// A partition this rank aggregates, after the exchange.
struct IncomingPartition {
  uint32_t id = 0;
  uint64_t total = 0;
  std::vector<uint64_t> counts;          // per sender in plan.senders_of(id)
  std::vector<uint64_t> first_row;       // per sender: where its rows start (prefix of counts)
  std::vector<const uint8_t*> columns;   // per field, rows of all senders in sender order
  ColumnStats stats;                     // min/max of all its rows (after exchange_particles)
};

class ParticleExchange {
 public:
  // `region` holds the point-to-point receive region; it outlives the exchange so the next
  // step reuses its pages.
  // `window`: the node's shared window for the shared-memory method, kept from step to step.
  ParticleExchange(const Comm& comm, const ParticlePlan& plan, std::vector<size_t> row_bytes, uint32_t components,
                   ExchangeMethod method, ScratchBuffer& region, SharedWindow& window);
  ~ParticleExchange();   // release() if not done yet
  ParticleExchange(const ParticleExchange&) = delete;
  ParticleExchange& operator=(const ParticleExchange&) = delete;

  // rank_counts: every rank's particle count (the agreed records): enough when the plan is aligned.
  void exchange_counts(const Outgoing& out, std::span<const uint64_t> rank_counts);
  // Lays out the receive region, reserves the node's shared window (collective over the node)
  // and learns where this rank's rows go in it (messages with the same-node aggregators):
  // exchange_particles does it first unless done before. Done separately (zero-copy input,
  // ParticleGroup::open_buffers), the caller may fill its rows in place at shared_target.
  void prepare(const Outgoing& out);
  // After prepare: where field f of out's slot goes in its aggregator's shared window, and its
  // bytes; nullptr when that slot's rows are not copied into a shared window (none, another
  // node, the point-to-point method, or a partition read in place).
  uint8_t* shared_target(const Outgoing& out, size_t slot, size_t f, uint64_t* bytes) const;
  // Moves the particles. Rows already at their shared_target are not copied. `positions_ready` runs (on this thread) as soon as the position columns
  // of every incoming partition are complete, while the other columns may still be arriving.
  // `defer_node_copies`: where this rank sends only to aggregators of its node that write with
  // their node (areas) and its statistics are still pending (ColumnStats::pending: an asynchronous
  // step that does not copy the caller's rows), its copies into the window are left to
  // finish_node_exchange (which makes no MPI call), and so are the aggregators' waits for their
  // node's senders, the statistics' merge and positions_ready.
  void exchange_particles(const Outgoing& out, size_t position_field, const std::function<void()>& positions_ready,
                          bool defer_node_copies = false);
  // Whether exchange_particles left the node's part to finish_node_exchange (after it).
  bool deferred() const { return deferred_; }
  // The node's part of the exchange: where exchange_particles left them, this rank's copies into
  // the window (`before_copy(slot)` first, which computes the slot's pending statistics), then an
  // aggregator's wait for its node's senders, the statistics' merge and positions_ready. A
  // failing slot still counts itself in, so no aggregator waits for it.
  void finish_node_exchange(const Outgoing& out, const std::function<void()>& positions_ready,
                            const std::function<void(size_t)>& before_copy);
  // After prepare: whether exchange_particles can leave this rank's node copies to
  // finish_node_exchange (above).
  bool defers_node_copies(const Outgoing& out) const;
  std::vector<IncomingPartition>& incoming() { return incoming_; }
  const std::vector<IncomingPartition>& incoming() const { return incoming_; }

  // Node-cooperative writes (node_file_write.hpp), shared-memory method only. Before
  // exchange_particles: `bytes(in)` more bytes of window after each exchanged partition's columns
  // (its "area"), for the ranks that write its file together. An area's first 64 bytes are words
  // for signals: word 1 counts the node's senders whose rows are in (each adds 1 after its copy;
  // the aggregator waits for all of them instead of a node barrier); the others are zero when
  // exchange_particles returns, the rest of the area as the last step left it. The statistics of
  // the node's senders follow those words (area_prefix_bytes: 2 x components doubles per sender of
  // the partition, in sender order), written by each sender with its rows instead of a message;
  // `bytes(in)` counts them.
  void reserve_areas(std::function<uint64_t(const IncomingPartition&)> bytes) { area_bytes_ = std::move(bytes); }
  static uint64_t area_prefix_bytes(size_t senders, uint32_t components);
  // This rank's area for incoming()[k] (nullptr when it has none).
  uint8_t* area(size_t k) const;
  // After exchange_particles, on any rank of `aggregator`'s node: its exchanged partition
  // `partition` as it lies in its window (columns in sender order, the area).
  struct SharedPartition {
    uint64_t total = 0;
    std::vector<const uint8_t*> columns;
    uint8_t* area = nullptr;
  };
  SharedPartition shared_partition(int aggregator, uint32_t partition) const;
  // Collective over the node: what the node's ranks wrote to the window before is visible to all
  // after (memory sync, node barrier, memory sync). A node barrier alone when there is no window.
  void node_sync();

  // Done with the receive region: a node barrier when a shared window is in use, so no rank of the
  // node reuses it for the next step while another still reads it.
  void release();

 private:
  size_t slot_of(const Outgoing& out, uint32_t partition) const;
  // Receive region layout: per exchanged partition (incoming_ order), per field, a byte offset.
  uint64_t lay_out_region(const Outgoing& out, std::vector<std::vector<uint64_t>>& column_offset);
  void write_directory(const std::vector<std::vector<uint64_t>>& column_offset);
  static uint64_t* arrivals(uint8_t* area);
  void await_copies();   // node-cooperative: an aggregator's wait for its same-node senders' rows
  // A sender's rows of out's slot s into its same-node aggregator's window, and its statistics
  // there when the partition has an area; then it counts itself in.
  void copy_to_node(const Outgoing& out, size_t s, const std::function<void(size_t)>* before_copy);
  // Whether `sender`'s statistics for `partition` travel in its aggregator's area, not a message.
  bool stats_in_window(int sender, int aggregator, uint32_t partition) const;
  double* stats_slot(uint8_t* area, size_t sender) const;
  void post_stats(const Outgoing& out, Exchange& ex, std::vector<std::vector<double>>& received);
  void merge_stats(const Outgoing& out, const std::vector<std::vector<double>>& received);
  void shared_offsets(const Outgoing& out, const std::vector<std::vector<uint64_t>>& column_offset,
                      std::vector<uint64_t>& replies, std::vector<uint64_t>& targets);

  bool anything_moves() const;

  const Comm& comm_;
  const ParticlePlan& plan_;
  std::vector<size_t> row_bytes_;
  ExchangeMethod method_;
  int me_;
  std::vector<IncomingPartition> incoming_;
  uint32_t comps_ = 0;   // schema components (the statistics' length)
  ScratchBuffer& region_;   // receive region for point to point
  SharedWindow& window_;
  bool shared_ = false;   // this step's region is in the shared window
  uint8_t* base_ = nullptr;   // this rank's part of the window or region
  std::function<uint64_t(const IncomingPartition&)> area_bytes_;
  std::vector<uint64_t> area_offset_;   // per incoming_; 0: none
  bool prepared_ = false;
  bool moves_ = false;   // some partition is exchanged (after prepare)
  std::vector<std::vector<uint64_t>> column_offset_;   // per incoming_, per field (prepare)
  std::vector<uint64_t> replies_, targets_;   // shared offsets (prepare)
  std::vector<std::vector<double>> received_stats_;   // statistics by message, per incoming_
  bool deferred_ = false;   // the node's part is left to finish_node_exchange
};

}   // namespace lodex
