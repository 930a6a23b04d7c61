// One aggregator's work for one partition (paper §3.4-3.5): the level-of-detail order of the
// received particles, the data file written with its segment checksums, and the partition's
// metadata record (bounds, count, per-component min/max).
//
// The file is a pipeline on two threads: the caller gathers a chunk of whole segments of one
// column into file order (the reorder), checksums them while they are in cache, and hands the
// chunk to a write-behind thread, which writes it while the next chunk is gathered. Chunks take
// turns in a small ring of slots, so a writer holds about 512 KiB whatever its file's size. The
// head, which holds the checksums, is written last. The columns can be cut into slices of whole
// segments written by several processes (node_file_write.hpp); one writer writes one slice.
#pragma once

#include <string>
#include <vector>

#include "core/schema.hpp"
#include "core/scratch_buffer.hpp"
#include "format/particle_file.hpp"
#include "format/spatial_metadata.hpp"
#include "layout/lod_order.hpp"
#include "pipelines/particles/particle_exchange.hpp"
#include "storage/write_behind.hpp"

namespace lodex {

// The level-of-detail order of one partition's particles (layout/lod_order.hpp), in two steps:
// the shuffle needs only the partition's count, the placement its positions.
// Its arrays are reused when the order is computed again (WriteScratch::orders).
struct PartitionOrder {
  Box box;                       // the brick box: the partition box (adaptive: cut to its particles)
  LodParams lod;                 // seed: this file's
  LodShuffle shuffle;            // between the two steps
  LodLayout layout;
  std::vector<uint32_t> perm;    // file row i is received row perm[i]
  // Where place_partition puts the permutation instead of perm, when set: the partition's area in
  // the node's shared window (node_file_write.hpp), where its writers read it.
  uint32_t* perm_target = nullptr;
  // Where shuffle_partition puts the shuffle instead of `shuffle`, when set: the partition's area,
  // whose writers then place the order together (node_file_write.hpp); place_partition only sets
  // the box, and `layout` keeps no segment starts.
  uint32_t* shuffle_target = nullptr;
  const uint32_t* permutation() const { return perm_target ? perm_target : perm.data(); }
};

void shuffle_partition(const IncomingPartition& in, const LodParams& lod, uint64_t row_bytes, PartitionOrder& order);
// `tile` is the adaptive plan's tile of the partition (an empty box otherwise): the brick box is
// then the tile cut to the particles' hull. `scratch`: the placement's working arrays.
void place_partition(const IncomingPartition& in, const Schema& schema, const Box& partition_box, const Box& tile,
                     PartitionOrder& order, LodPlaceScratch& scratch);

struct PartitionFileTimes {
  double reorder_s = 0;    // gathering rows into file order
  double checksum_s = 0;   // segment checksums
  double wait_s = 0;       // waiting for the write-behind thread at the end of a file
};

// The head of a partition's file before its checksums: counts, levels, bricks, column offsets.
ParticleFileHead partition_file_head(uint64_t total, const Schema& schema, const PartitionOrder& order);
std::string partition_file_name(uint32_t partition);   // p<id>.lpd

// One writer's share of a file (format/particle_file.hpp, slice_columns): the runs' rows gathered
// from `columns` (per field, the partition's rows in received order) into file order through
// `perm`, their segment checksums stored in `checksums` (the head's field-major table), and the
// bytes queued on `writer`, whose file must be open. `buffer` holds the ring of chunks (a slot is
// refilled once the writer has written it); it must outlive the writer's finish.
void write_runs(const std::vector<SegmentRun>& runs, const std::vector<const uint8_t*>& columns, const uint32_t* perm,
                const ParticleFileHead& head, uint64_t* checksums, ScratchBuffer& buffer, WriteBehind& writer,
                PartitionFileTimes& times);

// The head (checksums filled) written at offset 0 through `writer`, which is then finished (fsync
// when asked): the queued runs are complete when it returns. Returns the partition's metadata record,
// with the min/max `stats` of its rows.
DataFileRecord finish_partition_file(const ParticleFileHead& head, const IncomingPartition& in,
                                     const ColumnStats& stats, const Schema& schema, const Box& brick_box,
                                     int aggregator_rank, WriteBehind& writer, bool fsync, PartitionFileTimes& times);

// Writes `directory`/p<id>.lpd alone (every run, then the head) and returns its record. Statistics
// still pending (ColumnStats::pending) are computed first, in one pass in row order, which also
// brings the rows into the cache for the gather's random reads.
DataFileRecord write_partition_file(const IncomingPartition& in, const Schema& schema, const PartitionOrder& order,
                                    int aggregator_rank, const std::string& directory, bool fsync,
                                    ScratchBuffer& buffer, WriteBehind& writer, PartitionFileTimes& times);

}  // namespace lodex
