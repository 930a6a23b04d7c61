// Node-cooperative partition files: the ranks of a partition that share its aggregator's node
// write its file together, instead of the aggregator writing it alone.
//
//   exchange  the node's senders copy their rows into the aggregator's shared window (the
//             shared-memory exchange) and count themselves in; senders on other nodes send them
//             there point to point
//   order     the aggregator shuffles the partition's rows (layout/lod_order.hpp) into the
//             partition's area as soon as it knows their count; once its senders are in, the
//             writers place them together: each computes the brick keys of a range of the rows,
//             then counts a range of the shuffled rows per segment, then scatters that range into
//             the permutation, meeting after each (lod_keys, lod_count, lod_scatter). Where that
//             does not apply (an adaptive plan's tile, or segments too many for the writers'
//             count tables) the aggregator computes the whole order and publishes it
//   slices    once the order is published, each writer gathers its slice of the file order (whole
//             segments, format/particle_file.hpp slice_columns), checksums its segments into the
//             area, writes its bytes at their offsets (pwrite, a write-behind thread) and says so
//   head      once every writer said so, the aggregator writes the head with every segment's
//             checksum, fsyncs when asked, and reports the partition's record as before
//
// The waits are on words in the window (mpi/shared_window.hpp), not node barriers: a rank waits
// only for the ranks it needs, and no MPI call is made between the exchange and the commit.
//
// The file's bytes are exactly those a single aggregator writes. A partition whose aggregator is
// the only writer on its node is written by it alone (partition_file_writer.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/schema.hpp"
#include "core/scratch_buffer.hpp"
#include "format/particle_file.hpp"
#include "format/spatial_metadata.hpp"
#include "layout/particle_plan.hpp"
#include "mpi/comm.hpp"
#include "pipelines/particles/particle_exchange.hpp"
#include "pipelines/particles/partition_file_writer.hpp"
#include "storage/write_behind.hpp"

namespace lodex {

// The ranks writing partition p's file: its aggregator first, then the other senders of p on the
// aggregator's node, in rank order (empty when nobody sends to p).
std::vector<int> file_writers(const Comm& comm, const ParticlePlan& plan, uint32_t p);
// Whether some partition has two or more writers: the step then takes the node-cooperative path
// (the same answer on every rank).
bool node_writes_together(const Comm& comm, const ParticlePlan& plan);

// One step's node-cooperative files, on one rank.
class NodeFileWrite {
 public:
  NodeFileWrite(const Comm& comm, const ParticlePlan& plan, const Schema& schema, const LodParams& lod);

  // Bytes of the area a partition this rank aggregates needs in its window (0: written alone).
  uint64_t area_bytes(const IncomingPartition& in) const;
  // Whether partition p's writers place its order together (above): two or more writers, bricks
  // of the partition box (no adaptive tile), and their count tables (writers x segments) no larger
  // than the permutation. The same answer on every rank.
  bool places_together(uint32_t p, uint64_t total) const;
  // Aggregator: where partition in's permutation goes in its area (nullptr without an area), for
  // the order to be placed there directly (PartitionOrder::perm_target).
  uint32_t* perm_target(uint8_t* area, const IncomingPartition& in) const;
  // Aggregator: where partition in's shuffle goes in its area when its writers place it together
  // (PartitionOrder::shuffle_target), else nullptr.
  uint32_t* shuffle_target(uint8_t* area, const IncomingPartition& in) const;
  // Aggregator, once every row is in: partition in's order into its area (the permutation and the
  // segment starts, or, placed together, the shuffle already there); a null order tells its
  // writers there is none.
  void publish(uint8_t* area, const IncomingPartition& in, const PartitionOrder* order) const;
  // Every rank: this rank's slices of every file it helps write, each once its order is published
  // and, placed together, once this rank's share of the placement is done with the others'
  // (`keys`: its working array). Skipped when its aggregator or another writer failed. Stops at
  // the first failure (recorded in the area for the others, then rethrown).
  void write_slices(const ParticleExchange& exchange, const std::string& directory, ScratchBuffer& buffer,
                    std::vector<uint32_t>& keys, WriteBehind& writer, PartitionFileTimes& times) const;
  // Aggregator, after its own write_slices: once every writer reported, the head of partition in's
  // file and its record; nothing when a writer reported a failure (its own error fails the step).
  std::optional<DataFileRecord> finish(const uint8_t* area, const IncomingPartition& in, const PartitionOrder& order,
                                       const std::string& directory, bool fsync, WriteBehind& writer,
                                       PartitionFileTimes& times) const;

 private:
  // Offsets inside a partition's area (64-byte aligned pieces).
  struct Area {
    uint64_t status = 0;      // u64 per writer: kPending, kWritten, kFailed
    uint64_t starts = 0;      // segment starts, nseg + 1 u64
    uint64_t checksums = 0;   // field-major segment checksums, fields x nseg u64
    uint64_t perm = 0;        // file row i is received row perm[i], total u32
    uint64_t shuffled = 0;    // placed together: the shuffle, total u32
    uint64_t counts = 0;      // placed together: rows per segment of each writer's range, writers x nseg u64
    uint64_t bytes = 0;
  };
  Area area_of(uint32_t p, const ParticleFileHead& head, bool together) const;
  // One writer's slice of partition p's file (its order published).
  struct Slice {
    uint32_t p = 0;
    ParticleExchange::SharedPartition sp;
    ParticleFileHead head;   // the skeleton; its segment starts from the area
    Area area;
    size_t me = 0;           // this rank among the file's writers
    bool together = false;   // places_together
  };
  // Its share of the placement when placed together, then its slice gathered, checksummed and
  // written; false when another writer failed (nothing written then).
  bool write_slice(Slice& s, const std::string& directory, ScratchBuffer& buffer, std::vector<uint32_t>& keys,
                   WriteBehind& writer, PartitionFileTimes& times) const;
  // This writer's share (`me` of the partition's writers) of placing partition p's order together
  // in `area`; false when another writer failed (nothing to write then).
  bool place_together(uint32_t p, const ParticleExchange::SharedPartition& sp, const ParticleFileHead& head,
                      const Area& a, size_t me, std::vector<uint32_t>& keys) const;
  // The head of a file of `total` rows without its order's tables filled (fields, levels, bricks,
  // column offsets): what every writer can compute from the count alone.
  ParticleFileHead skeleton(uint64_t total) const;

  const Comm& comm_;
  const ParticlePlan& plan_;
  const Schema& schema_;
  LodParams lod_;
  std::vector<std::vector<int>> writers_;   // per partition
};

}  // namespace lodex
