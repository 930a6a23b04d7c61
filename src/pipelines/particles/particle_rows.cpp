#include "pipelines/particles/particle_rows.hpp"

#include <cstring>

#include "core/checksum.hpp"
#include "core/error.hpp"

namespace lodex {

namespace {
constexpr uint64_t kMaxGapBytes = 64 << 10;
}

DataFile open_data_file(const Confinement& confinement, const std::string& dir, const DataFileRecord& rec,
                        const Schema& schema, IoCount& io) {
  DataFile out;
  out.path = join_path(dir, rec.file_name);
  const std::string what = "'" + out.path + "'";
  out.file = confinement.open(out.path);
  const uint64_t size = out.file.size();
  if (size != rec.file_bytes)
    fail(ErrorCode::kFormat, what, " has ", size, " bytes; the spatial metadata says ", rec.file_bytes,
         " (truncated or replaced)");
  if (size < kParticleHeaderBytes)
    fail(ErrorCode::kFormat, what, " is truncated: ", size, " bytes is shorter than the header");
  std::vector<uint8_t> bytes(kParticleHeaderBytes);
  out.file.pread_all(bytes.data(), kParticleHeaderBytes, 0);
  const uint64_t head_size = decode_particle_header_size(bytes.data(), bytes.size(), size, what);
  bytes.resize(head_size);
  out.file.pread_all(bytes.data() + kParticleHeaderBytes, head_size - kParticleHeaderBytes, kParticleHeaderBytes);
  io.requests += 2;
  io.bytes += head_size;
  out.head_bytes = head_size;
  if (checksum64(bytes.data(), head_size) != rec.head_checksum)
    fail(ErrorCode::kFormat, what, " header does not match its spatial metadata checksum");
  out.head = decode_particle_head(bytes.data(), head_size, size, what);
  if (out.head.num_particles != rec.count || !(out.head.fields == schema.fields()))
    fail(ErrorCode::kFormat, what, " holds a different particle count or schema than its metadata says");
  // The writer records the file's brick box as the partition box: a difference means one of the
  // two was forged, and bricks placed by the wrong box would drop particles from box reads.
  if (!(out.head.brick_box.inclusive_min == rec.partition_box.inclusive_min &&
        out.head.brick_box.exclusive_max == rec.partition_box.exclusive_max))
    fail(ErrorCode::kFormat, what, " has brick box ", to_string(out.head.brick_box), "; its spatial metadata says ",
         to_string(rec.partition_box));
  return out;
}

void verify_segment(const std::string& path, const ParticleFileHead& h, size_t f, uint64_t s, const uint8_t* bytes) {
  const uint64_t rb = h.fields[f].row_bytes();
  const uint64_t a = h.segment_starts[s], b = h.segment_starts[s + 1];
  if (checksum64(bytes, (b - a) * rb) != h.segment_checksums[f * h.num_segments() + s])
    fail(ErrorCode::kFormat, "'", path, "' field '", h.fields[f].name, "' rows ", a, "-", b, " (bytes from ",
         h.column_offsets[f] + a * rb, ") fail their checksum");
}

namespace {
template <typename T>
bool in_box(const T* p, const Box& b) {
  for (int a = 0; a < 3; ++a) {
    const double v = static_cast<double>(p[a]);
    if (!(v >= b.inclusive_min[a] && v < b.exclusive_max[a])) return false;
  }
  return true;
}
}  // namespace

bool position_in_box(const uint8_t* row, DType dtype, const Box& box) {
  return dtype == DType::kF8 ? in_box(reinterpret_cast<const double*>(row), box)
                             : in_box(reinterpret_cast<const float*>(row), box);
}

namespace {

// Reads segments [s0, s1) of field f (contiguous bytes) into buf and verifies each.
void read_segments(const DataFile& df, size_t f, uint64_t s0, uint64_t s1, std::vector<uint8_t>& buf, IoCount& io) {
  const ParticleFileHead& h = df.head;
  const uint64_t rb = h.fields[f].row_bytes();
  const uint64_t first = h.segment_starts[s0], last = h.segment_starts[s1];
  buf.resize((last - first) * rb);
  if (buf.empty()) return;
  df.file.pread_all(buf.data(), buf.size(), h.column_offsets[f] + first * rb);
  ++io.requests;
  io.bytes += buf.size();
  for (uint64_t s = s0; s < s1; ++s) verify_segment(df.path, h, f, s, buf.data() + (h.segment_starts[s] - first) * rb);
}

}  // namespace

void gather_rows(const DataFile& df, size_t f, const uint32_t* rows, size_t n, uint8_t* out, IoCount& io) {
  const ParticleFileHead& h = df.head;
  const uint64_t rb = h.fields[f].row_bytes();
  const auto& starts = h.segment_starts;
  const uint64_t nseg = h.num_segments();
  if (n == h.num_particles) {   // every row (ascending and distinct): the column itself
    read_column(df, f, out, io);
    return;
  }
  std::vector<uint8_t> buf;
  size_t i = 0;
  uint64_t s = 0;
  while (i < n) {
    // The segment of rows[i], then the run of segments up to the last wanted one within the gap.
    while (starts[s + 1] <= rows[i]) ++s;
    const uint64_t s0 = s;
    size_t j = i;
    uint64_t s_end = s0 + 1;   // one past the last segment with wanted rows
    while (j < n) {
      uint64_t t = s_end - 1;
      while (starts[t + 1] <= rows[j]) ++t;
      if (t >= s_end && (starts[t] - starts[s_end]) * rb > kMaxGapBytes) break;
      s_end = t + 1;
      ++j;
    }
    if (s_end > nseg) fail(ErrorCode::kInternal, "row past the last segment");
    read_segments(df, f, s0, s_end, buf, io);
    const uint64_t base = starts[s0];
    for (size_t k = i; k < j; ++k) std::memcpy(out + k * rb, buf.data() + (rows[k] - base) * rb, rb);
    i = j;
    s = s_end - 1;
  }
}

void read_column(const DataFile& df, size_t f, uint8_t* out, IoCount& io) {
  const ParticleFileHead& h = df.head;
  const uint64_t rb = h.fields[f].row_bytes();
  const uint64_t bytes = h.num_particles * rb;
  if (bytes == 0) return;
  df.file.pread_all(out, bytes, h.column_offsets[f]);
  ++io.requests;
  io.bytes += bytes;
  for (uint64_t s = 0; s < h.num_segments(); ++s) verify_segment(df.path, h, f, s, out + h.segment_starts[s] * rb);
}

}  // namespace lodex
