#include "pipelines/particles/partition_file_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

namespace {

// A chunk handed to the write-behind thread: whole segments, at least this many bytes (the last
// of a column may be smaller), up to one segment more. Small enough that the first write starts
// early and that the ring below stays in cache, large enough that the per-call cost of the write
// does not show. 128 KiB: a ring of 512 KiB to 1 MiB (256 KiB chunks wrote no faster; chunks of at
// most 128 KiB, a ring of 512 KiB, wrote 10 % slower: docs/writes.md).
constexpr uint64_t kChunkBytes = uint64_t{128} << 10;
// Chunks are gathered into a ring of this many slots, each as large as the slice's largest chunk:
// a slot is refilled once the writer has written the chunk it held, so a slice needs
// kRingSlots x (kChunkBytes + a segment) of memory at most whatever its size (not a buffer of the
// whole slice).
constexpr size_t kRingSlots = 4;

// The half-open box of positions (max one ulp above the largest coordinate).
template <typename T>
Box positions_box(const T* p, uint64_t n) {
  Box b = Box::nothing();
  for (uint64_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      const double v = static_cast<double>(p[3 * i + a]);
      b.inclusive_min[a] = std::min(b.inclusive_min[a], v);
      b.exclusive_max[a] = std::max(b.exclusive_max[a], v);
    }
  for (int a = 0; a < 3; ++a) b.exclusive_max[a] = std::nextafter(b.exclusive_max[a], INFINITY);
  return b;
}

// Where run r's bytes end in the file: its last row, or with the padding the next column's start.
uint64_t run_end(const ParticleFileHead& head, const SegmentRun& r) {
  if (!r.padding) return head.column_offsets[r.field] + head.segment_starts[r.end] * head.fields[r.field].row_bytes();
  return r.field + 1 < head.fields.size() ? head.column_offsets[r.field + 1] : head.file_bytes();
}

// One chunk of a run: segments [first, end), `rows` bytes of rows then `padding` zero bytes, at
// file offset `offset`.
struct Chunk {
  uint32_t field = 0;
  uint64_t first = 0, end = 0;
  uint64_t offset = 0, rows = 0, padding = 0;
};

// The runs cut into chunks of whole segments (pure: a function of the head and the runs).
std::vector<Chunk> slice_chunks(const std::vector<SegmentRun>& runs, const ParticleFileHead& head) {
  const std::vector<uint64_t>& starts = head.segment_starts;
  std::vector<Chunk> chunks;
  for (const SegmentRun& run : runs) {
    const size_t row_bytes = head.fields[run.field].row_bytes();
    const uint64_t col = head.column_offsets[run.field];
    for (uint64_t s0 = run.first; s0 < run.end;) {
      uint64_t s1 = s0 + 1;
      while (s1 < run.end && (starts[s1] - starts[s0]) * row_bytes < kChunkBytes) ++s1;
      Chunk c{run.field, s0, s1, col + starts[s0] * row_bytes, (starts[s1] - starts[s0]) * row_bytes, 0};
      if (s1 == run.end && run.padding) c.padding = run_end(head, run) - (c.offset + c.rows);
      chunks.push_back(c);
      s0 = s1;
    }
  }
  return chunks;
}

// Where each chunk goes in the ring (pure), and the ring's size: kRingSlots slots as large as the
// largest chunk, chunk i in slot i % kRingSlots; a slice of at most kRingSlots chunks has them side
// by side (never more than its own bytes, whatever the chunks' sizes).
std::vector<uint64_t> chunk_places(const std::vector<Chunk>& chunks, uint64_t& ring_bytes) {
  std::vector<uint64_t> place(chunks.size());
  uint64_t slot = 0, at = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const uint64_t bytes = align_up(chunks[i].rows + chunks[i].padding, kColumnAlignment);
    place[i] = at;
    at += bytes;
    slot = std::max(slot, bytes);
  }
  ring_bytes = at;
  if (chunks.size() <= kRingSlots) return place;
  for (size_t i = 0; i < chunks.size(); ++i) place[i] = (i % kRingSlots) * slot;
  ring_bytes = kRingSlots * slot;
  return place;
}

// One chunk into `slot`: gather into file order, checksum its segments while in cache, zero its
// padding, queue it for writing.
void write_chunk(const Chunk& c, const uint8_t* column, const uint32_t* perm, const ParticleFileHead& head,
                 uint64_t* checksums, uint8_t* slot, WriteBehind& writer, PartitionFileTimes& times) {
  const std::vector<uint64_t>& starts = head.segment_starts;
  const uint64_t nseg = head.num_segments();
  const size_t row_bytes = head.fields[c.field].row_bytes();
  const double t0 = wall_seconds();
  gather_rows(column, slot, row_bytes, perm + starts[c.first], starts[c.end] - starts[c.first]);
  const double t1 = wall_seconds();
  for (uint64_t s = c.first; s < c.end; ++s)
    checksums[c.field * nseg + s] =
        checksum64(slot + (starts[s] - starts[c.first]) * row_bytes, (starts[s + 1] - starts[s]) * row_bytes);
  times.reorder_s += t1 - t0;
  times.checksum_s += wall_seconds() - t1;
  std::memset(slot + c.rows, 0, c.padding);
  writer.write(slot, c.rows + c.padding, c.offset);
}

}  // namespace

ParticleFileHead partition_file_head(uint64_t total, const Schema& schema, const PartitionOrder& order) {
  ParticleFileHead head;
  head.num_particles = total;
  head.level_scale = order.lod.scale;
  head.brick_bits = order.layout.brick_bits;
  head.brick_box = order.box;
  head.seed = order.lod.seed;
  head.fields = schema.fields();
  head.level_ends = order.layout.level_ends;
  head.segment_starts = order.layout.segment_starts;
  assign_column_offsets(head);
  head.segment_checksums.resize(schema.size() * head.num_segments());
  return head;
}

std::string partition_file_name(uint32_t partition) {
  char name[32];
  std::snprintf(name, sizeof name, "p%06u.lpd", partition);
  return name;
}

void write_runs(const std::vector<SegmentRun>& runs, const std::vector<const uint8_t*>& columns, const uint32_t* perm,
                const ParticleFileHead& head, uint64_t* checksums, ScratchBuffer& buffer, WriteBehind& writer,
                PartitionFileTimes& times) {
  const std::vector<Chunk> chunks = slice_chunks(runs, head);
  uint64_t ring_bytes = 0;
  const std::vector<uint64_t> place = chunk_places(chunks, ring_bytes);
  if (chunks.empty()) return;
  uint8_t* ring = buffer.reserve(ring_bytes);
  for (size_t i = 0; i < chunks.size(); ++i) {
    // The slot's previous chunk, queued kRingSlots chunks ago, must be written: ranges are written in order.
    if (i >= kRingSlots) {
      const double t0 = wall_seconds();
      writer.wait_pending(kRingSlots - 1);
      times.wait_s += wall_seconds() - t0;
    }
    write_chunk(chunks[i], columns[chunks[i].field], perm, head, checksums, ring + place[i], writer, times);
  }
}

DataFileRecord finish_partition_file(const ParticleFileHead& head, const IncomingPartition& in,
                                     const ColumnStats& stats, const Schema& schema, const Box& brick_box,
                                     int aggregator_rank, WriteBehind& writer, bool fsync, PartitionFileTimes& times) {
  if (stats.is_pending()) fail(ErrorCode::kInternal, "partition ", in.id, "'s statistics were never computed");
  std::vector<uint8_t> head_bytes = encode_particle_head(head);
  const uint64_t checksum = checksum64(head_bytes.data(), head_bytes.size());
  head_bytes.resize(head.column_offsets.empty() ? head_bytes.size() : head.column_offsets[0], 0);   // zero padding
  writer.write(head_bytes.data(), head_bytes.size(), 0);
  const double t0 = wall_seconds();
  writer.finish(fsync);   // before head_bytes goes
  times.wait_s += wall_seconds() - t0;

  DataFileRecord rec;
  rec.file_name = partition_file_name(in.id);
  rec.partition = in.id;
  rec.aggregator_rank = aggregator_rank;
  rec.partition_box = brick_box;
  rec.count = in.total;
  rec.file_bytes = head.file_bytes();
  rec.head_checksum = checksum;
  rec.min = stats.min;
  rec.max = stats.max;
  uint32_t c0 = 0;
  for (size_t f = 0; f < schema.position_index(); ++f) c0 += schema.field(f).components;
  for (int a = 0; a < 3; ++a) {
    rec.bounds.inclusive_min[a] = rec.min[c0 + a];
    rec.bounds.exclusive_max[a] = rec.max[c0 + a];
  }
  return rec;
}

void shuffle_partition(const IncomingPartition& in, const LodParams& lod, uint64_t row_bytes, PartitionOrder& order) {
  order.lod = lod;
  if (order.shuffle_target) order.layout = lod_shuffle_into(in.total, lod, row_bytes, order.shuffle_target);
  else lod_shuffle(in.total, lod, row_bytes, order.shuffle);
}

void place_partition(const IncomingPartition& in, const Schema& schema, const Box& partition_box, const Box& tile,
                     PartitionOrder& order, LodPlaceScratch& scratch) {
  const size_t pi = schema.position_index();
  const DType pt = schema.field(pi).dtype;
  order.box = partition_box;
  if (order.shuffle_target) {   // its writers place it
    if (!tile.empty()) fail(ErrorCode::kInternal, "partition ", in.id, " has a tile: its writers cannot place it");
    std::vector<uint32_t>().swap(order.perm);   // an earlier step's, not used now
    return;
  }
  if (!tile.empty()) {   // adaptive: the tile cut down to the particles it received
    const Box got = pt == DType::kF8 ? positions_box(reinterpret_cast<const double*>(in.columns[pi]), in.total)
                                     : positions_box(reinterpret_cast<const float*>(in.columns[pi]), in.total);
    order.box = intersection(tile, got);
    if (order.box.empty()) fail(ErrorCode::kInternal, "partition ", in.id, " received particles outside its tile");
  }
  if (order.perm_target) std::vector<uint32_t>().swap(order.perm);   // an earlier step's, not used now
  order.layout = order.perm_target
                     ? lod_place(std::move(order.shuffle), in.columns[pi], pt, order.box, order.perm_target, scratch)
                     : lod_place(std::move(order.shuffle), in.columns[pi], pt, order.box, order.perm, scratch);
}

DataFileRecord write_partition_file(const IncomingPartition& in, const Schema& schema, const PartitionOrder& order,
                                    int aggregator_rank, const std::string& directory, bool fsync,
                                    ScratchBuffer& scratch, WriteBehind& writer, PartitionFileTimes& times) {
  ParticleFileHead head = partition_file_head(in.total, schema, order);
  const ColumnStats stats = in.stats.is_pending() ? ColumnStats::of(schema, in.columns, in.total) : in.stats;
  writer.begin(join_path(directory, partition_file_name(in.id)));
  try {
    write_runs(slice_columns(head, 1)[0], in.columns, order.permutation(), head, head.segment_checksums.data(), scratch,
               writer, times);
    // The head goes in front of the columns' bytes, which the writer may still be writing.
    return finish_partition_file(head, in, stats, schema, order.box, aggregator_rank, writer, fsync, times);
  } catch (...) {
    try {   // the buffer must outlive the queued writes
      writer.finish(false);
    } catch (const Error&) {
    }
    throw;
  }
}

}  // namespace lodex
