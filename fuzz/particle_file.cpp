// Fuzz target: a particle data file (.lpd) as a reader takes it — the fixed header gives the
// head size, the head (fields, levels, segments, checksums) is decoded, then every segment the
// head describes is located and checked against its checksum, as particle_rows.cpp does before
// returning rows.
#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "fuzz/fuzz_target.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  const std::string what = "fuzz.lpd";
  const uint64_t head_size = decode_particle_header_size(data, size, size, what);
  if (head_size > size) return;   // a reader's pread would fail here
  const ParticleFileHead h = decode_particle_head(data, head_size, size, what);
  const uint64_t nseg = h.num_segments();
  for (size_t f = 0; f < h.fields.size(); ++f) {
    const uint64_t rb = h.fields[f].row_bytes();
    for (uint64_t s = 0; s < nseg; ++s) {
      const uint64_t a = h.segment_starts[s], b = h.segment_starts[s + 1];
      const uint64_t at = h.column_offsets[f] + a * rb, n = (b - a) * rb;
      if (at > size || n > size - at) fail(ErrorCode::kFormat, what, ": segment outside the file");
      if (checksum64(data + at, n) != h.segment_checksums[f * nseg + s])
        fail(ErrorCode::kFormat, what, ": segment fails its checksum");
    }
  }
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
