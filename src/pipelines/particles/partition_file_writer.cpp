#include "pipelines/particles/partition_file_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

namespace {

// A chunk handed to the write-behind thread: whole segments, at least this many bytes (the last
// of a column may be smaller). Small enough that the first write starts early, large enough that
// the per-call cost of the write does not show.
constexpr uint64_t kChunkBytes = uint64_t{1} << 20;

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

ParticleFileHead file_head(const IncomingPartition& in, const Schema& schema, const PartitionOrder& order) {
  ParticleFileHead head;
  head.num_particles = in.total;
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

// Field f's column in file order, chunk by chunk: gather, checksum, queue for writing. The zero
// padding up to the next column goes with the last chunk, so every byte of the file is written.
void write_column(const IncomingPartition& in, size_t f, size_t row_bytes, const PartitionOrder& order,
                  ParticleFileHead& head, uint8_t* buffer, WriteBehind& writer, PartitionFileTimes& times) {
  const uint64_t nseg = head.num_segments();
  const std::vector<uint64_t>& starts = head.segment_starts;
  const uint64_t col = head.column_offsets[f];
  const uint64_t col_end = col + head.column_bytes(f);
  const uint64_t next = f + 1 < head.fields.size() ? head.column_offsets[f + 1] : col_end;
  for (uint64_t s0 = 0; s0 < nseg;) {
    uint64_t s1 = s0 + 1;
    while (s1 < nseg && (starts[s1] - starts[s0]) * row_bytes < kChunkBytes) ++s1;
    const uint64_t r0 = starts[s0], r1 = starts[s1];
    double t0 = wall_seconds();
    uint8_t* at = buffer + col + r0 * row_bytes;
    gather_rows(in.columns[f], at, row_bytes, order.perm.data() + r0, r1 - r0);
    const double t1 = wall_seconds();
    for (uint64_t s = s0; s < s1; ++s)
      head.segment_checksums[f * nseg + s] =
          checksum64(buffer + col + starts[s] * row_bytes, (starts[s + 1] - starts[s]) * row_bytes);
    times.reorder_s += t1 - t0;
    times.checksum_s += wall_seconds() - t1;
    uint64_t bytes = (r1 - r0) * row_bytes;
    if (s1 == nseg) {
      std::memset(buffer + col_end, 0, next - col_end);
      bytes += next - col_end;
    }
    writer.write(at, bytes, col + r0 * row_bytes);
    s0 = s1;
  }
}

}  // namespace

void shuffle_partition(const IncomingPartition& in, const LodParams& lod, uint64_t row_bytes, PartitionOrder& order) {
  order.lod = lod;
  order.shuffle = lod_shuffle(in.total, lod, row_bytes);
}

void place_partition(const IncomingPartition& in, const Schema& schema, const Box& partition_box, const Box& tile,
                     PartitionOrder& order) {
  const size_t pi = schema.position_index();
  const DType pt = schema.field(pi).dtype;
  order.box = partition_box;
  if (!tile.empty()) {   // adaptive: the tile cut down to the particles it received
    const Box got = pt == DType::kF8 ? positions_box(reinterpret_cast<const double*>(in.columns[pi]), in.total)
                                     : positions_box(reinterpret_cast<const float*>(in.columns[pi]), in.total);
    order.box = intersection(tile, got);
    if (order.box.empty()) fail(ErrorCode::kInternal, "partition ", in.id, " received particles outside its tile");
  }
  order.layout = lod_place(std::move(order.shuffle), in.columns[pi], pt, order.box, order.perm);
}

DataFileRecord write_partition_file(const IncomingPartition& in, const Schema& schema, const PartitionOrder& order,
                                    int aggregator_rank, const std::string& directory, bool fsync,
                                    ScratchBuffer& scratch, WriteBehind& writer, PartitionFileTimes& times) {
  ParticleFileHead head = file_head(in, schema, order);
  const uint64_t file_bytes = head.file_bytes();
  uint8_t* buffer = scratch.reserve(file_bytes);   // every byte is written below
  char name[32];
  std::snprintf(name, sizeof name, "p%06u.lpd", in.id);
  writer.begin(join_path(directory, name));
  try {
    for (size_t f = 0; f < schema.size(); ++f)
      write_column(in, f, schema.field(f).row_bytes(), order, head, buffer, writer, times);
    const std::vector<uint8_t> head_bytes = encode_particle_head(head);
    std::memcpy(buffer, head_bytes.data(), head_bytes.size());
    std::memset(buffer + head_bytes.size(), 0, head.column_offsets[0] - head_bytes.size());
    writer.write(buffer, head.column_offsets[0], 0);
    const double t0 = wall_seconds();
    writer.finish(fsync);
    times.wait_s += wall_seconds() - t0;

    DataFileRecord rec;
    rec.file_name = name;
    rec.partition = in.id;
    rec.aggregator_rank = aggregator_rank;
    rec.partition_box = order.box;
    rec.count = in.total;
    rec.file_bytes = file_bytes;
    rec.head_checksum = checksum64(head_bytes.data(), head_bytes.size());
    rec.min = in.stats.min;
    rec.max = in.stats.max;
    uint32_t c0 = 0;
    for (size_t f = 0; f < schema.position_index(); ++f) c0 += schema.field(f).components;
    for (int a = 0; a < 3; ++a) {
      rec.bounds.inclusive_min[a] = rec.min[c0 + a];
      rec.bounds.exclusive_max[a] = rec.max[c0 + a];
    }
    return rec;
  } catch (...) {
    try {   // the buffer must outlive the queued writes
      writer.finish(false);
    } catch (const Error&) {
    }
    throw;
  }
}

}  // namespace lodex
