#include "pipelines/particles/partition_file_writer.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "pipelines/phase_clock.hpp"
#include "storage/file.hpp"

namespace lodex {

namespace {

// Per-component min/max of a column, widened to double so that pruning by them never drops a
// value. One pass over the rows, all components at once; NaN values are skipped (a field may hold
// NaN, positions may not). A component with no non-NaN value gets NaN bounds.
template <typename T>
void column_minmax(const T* v, uint64_t n, uint32_t comps, double* mn, double* mx) {
  std::vector<T> lo(comps, std::numeric_limits<T>::max()), hi(comps, std::numeric_limits<T>::lowest());
  std::vector<uint8_t> seen(comps, 0);
  for (uint64_t i = 0; i < n; ++i) {
    const T* row = v + i * comps;
    for (uint32_t c = 0; c < comps; ++c) {
      const T x = row[c];
      if constexpr (std::is_floating_point_v<T>) {
        if (x != x) continue;
      }
      lo[c] = x < lo[c] ? x : lo[c];
      hi[c] = x > hi[c] ? x : hi[c];
      seen[c] = 1;
    }
  }
  for (uint32_t c = 0; c < comps; ++c) {
    double dlo = static_cast<double>(lo[c]), dhi = static_cast<double>(hi[c]);
    if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
      // Integers beyond 2^53 round to the nearest double: widen by one ulp both ways.
      if (std::abs(dlo) >= 9007199254740992.0) dlo = std::nextafter(dlo, -INFINITY);
      if (std::abs(dhi) >= 9007199254740992.0) dhi = std::nextafter(dhi, INFINITY);
    }
    if (!seen[c]) dlo = dhi = std::numeric_limits<double>::quiet_NaN();
    mn[c] = dlo;
    mx[c] = dhi;
  }
}

void field_minmax(const FieldSpec& f, const uint8_t* data, uint64_t n, double* mn, double* mx) {
  switch (f.dtype) {
    case DType::kF4: return column_minmax(reinterpret_cast<const float*>(data), n, f.components, mn, mx);
    case DType::kF8: return column_minmax(reinterpret_cast<const double*>(data), n, f.components, mn, mx);
    case DType::kI1: return column_minmax(reinterpret_cast<const int8_t*>(data), n, f.components, mn, mx);
    case DType::kU1: return column_minmax(reinterpret_cast<const uint8_t*>(data), n, f.components, mn, mx);
    case DType::kI2: return column_minmax(reinterpret_cast<const int16_t*>(data), n, f.components, mn, mx);
    case DType::kU2: return column_minmax(reinterpret_cast<const uint16_t*>(data), n, f.components, mn, mx);
    case DType::kI4: return column_minmax(reinterpret_cast<const int32_t*>(data), n, f.components, mn, mx);
    case DType::kU4: return column_minmax(reinterpret_cast<const uint32_t*>(data), n, f.components, mn, mx);
    case DType::kI8: return column_minmax(reinterpret_cast<const int64_t*>(data), n, f.components, mn, mx);
    case DType::kU8: return column_minmax(reinterpret_cast<const uint64_t*>(data), n, f.components, mn, mx);
  }
}

}  // namespace

DataFileRecord write_partition_file(const IncomingPartition& in, const Schema& schema, const Box& pbox,
                                    const LodParams& lod, int aggregator_rank, const std::string& directory,
                                    bool fsync, ScratchBuffer& scratch, PartitionFileTimes& times) {
  const size_t nf = schema.size();
  const size_t pi = schema.position_index();
  double t0 = wall_seconds();
  std::vector<uint32_t> perm;
  const LodLayout layout = lod_order(in.columns[pi], schema.field(pi).dtype, in.total, pbox, lod, perm);
  ParticleFileHead head;
  head.num_particles = in.total;
  head.level_scale = lod.scale;
  head.brick_bits = layout.brick_bits;
  head.brick_box = pbox;
  head.seed = lod.seed;
  head.fields = schema.fields();
  head.level_ends = layout.level_ends;
  head.segment_starts = layout.segment_starts;
  assign_column_offsets(head);
  const uint64_t file_bytes = head.file_bytes();
  // Contents unspecified: every byte of the file is written below.
  uint8_t* buffer = scratch.reserve(file_bytes);
  for (size_t f = 0; f < nf; ++f)
    gather_rows(in.columns[f], buffer + head.column_offsets[f], schema.field(f).row_bytes(), perm.data(),
                in.total);
  times.reorder_s += wall_seconds() - t0;

  const uint64_t nseg = head.num_segments();
  head.segment_checksums.resize(nf * nseg);
  for (size_t f = 0; f < nf; ++f) {
    const size_t rb = schema.field(f).row_bytes();
    const uint8_t* col = buffer + head.column_offsets[f];
    for (uint64_t s = 0; s < nseg; ++s)
      head.segment_checksums[f * nseg + s] = checksum64(
          col + head.segment_starts[s] * rb, (head.segment_starts[s + 1] - head.segment_starts[s]) * rb);
  }
  const std::vector<uint8_t> head_bytes = encode_particle_head(head);
  std::memcpy(buffer, head_bytes.data(), head_bytes.size());
  uint64_t at = head_bytes.size();   // zero the alignment gaps: files are reproducible byte for byte
  for (size_t f = 0; f < nf; ++f) {
    std::memset(buffer + at, 0, head.column_offsets[f] - at);
    at = head.column_offsets[f] + head.column_bytes(f);
  }
  char name[32];
  std::snprintf(name, sizeof name, "p%06u.lpd", in.id);
  File file(join_path(directory, name), File::Mode::kCreate);
  file.pwrite_all(buffer, file_bytes, 0);
  if (fsync) file.sync();
  file.close();
  t0 = wall_seconds();   // the rest describes the file (bounds, min/max, record)

  DataFileRecord rec;
  rec.file_name = name;
  rec.partition = in.id;
  rec.aggregator_rank = aggregator_rank;
  rec.partition_box = pbox;
  rec.count = in.total;
  rec.file_bytes = file_bytes;
  rec.head_checksum = checksum64(head_bytes.data(), head_bytes.size());
  uint32_t comps = 0;
  for (const auto& f : schema.fields()) comps += f.components;
  rec.min.resize(comps);
  rec.max.resize(comps);
  uint32_t c0 = 0;
  for (size_t f = 0; f < nf; ++f) {
    field_minmax(schema.field(f), in.columns[f], in.total, rec.min.data() + c0, rec.max.data() + c0);
    if (f == pi)
      for (int a = 0; a < 3; ++a) {
        rec.bounds.inclusive_min[a] = rec.min[c0 + a];
        rec.bounds.exclusive_max[a] = rec.max[c0 + a];
      }
    c0 += schema.field(f).components;
  }
  times.describe_s += wall_seconds() - t0;
  return rec;
}

}  // namespace lodex
