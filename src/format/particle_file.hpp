// The particle data file (.lpd): one per aggregation partition and step, written by one
// aggregator. Byte layout: docs/formats/particles.md. Encode and decode are pure; decode
// validates every length, offset and count against the file size before use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/box.hpp"
#include "core/schema.hpp"

namespace lodex {

inline constexpr char kParticleFileMagic[8] = {'L', 'D', 'X', 'P', 'A', 'R', 'T', '\0'};
inline constexpr uint32_t kParticleFileVersion = 1;
inline constexpr uint32_t kParticleHeaderBytes = 128;
inline constexpr uint32_t kFieldEntryBytes = 64;
inline constexpr uint32_t kColumnAlignment = 64;
inline constexpr uint32_t kMaxLevels = 64;
inline constexpr uint32_t kMaxBrickBits = 10;

// Everything in a data file except the column bytes.
struct ParticleFileHead {
  uint64_t num_particles = 0;
  uint32_t level_scale = 2;
  uint32_t brick_bits = 0;
  Box brick_box;
  uint64_t seed = 0;
  std::vector<FieldSpec> fields;
  std::vector<uint64_t> column_offsets;     // per field, absolute byte offset
  std::vector<uint64_t> level_ends;         // per level, prefix row count
  std::vector<uint64_t> segment_starts;     // levels * 8^b + 1 start rows
  std::vector<uint64_t> segment_checksums;  // field-major: [f * levels * 8^b + segment]

  uint64_t num_bricks() const { return uint64_t{1} << (3 * brick_bits); }
  uint64_t num_segments() const { return level_ends.size() * num_bricks(); }
  uint64_t column_bytes(size_t f) const { return num_particles * fields[f].row_bytes(); }
  uint64_t head_bytes() const;   // header + tables, before alignment padding
  uint64_t file_bytes() const;   // total file size
};

// Fills column_offsets (from fields, levels and bricks; checksums need not be set yet).
void assign_column_offsets(ParticleFileHead& head);

// A run of whole segments [first, end) of field `field`'s column: the unit a writer gathers,
// checksums and writes. `padding`: the run ends the column, so it also writes the zero bytes up to
// the next column (or the end of the file).
struct SegmentRun {
  uint32_t field = 0;
  uint64_t first = 0, end = 0;
  bool padding = false;
};

// The columns of a file cut among `writers` writers (>= 1) along segment boundaries, in file order:
// writer k gets out[k], contiguous runs after those of writer k-1, so together the runs write every
// byte after the head exactly once. Each writer's bytes are as close to 1/writers of the columns as
// whole segments allow (a segment goes to the writer its middle byte falls to); a writer may get
// none. Needs column_offsets and segment_starts.
std::vector<std::vector<SegmentRun>> slice_columns(const ParticleFileHead& head, uint32_t writers);

// Header + tables bytes, checksums included; head_bytes() long.
std::vector<uint8_t> encode_particle_head(const ParticleFileHead& head);

// Step 1 of decoding: the fixed header (first kParticleHeaderBytes bytes) -> the size of
// header + tables to read next.
uint64_t decode_particle_header_size(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what);
// Step 2: the whole head (header_size bytes from step 1).
ParticleFileHead decode_particle_head(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what);

}  // namespace lodex
