// IDX on-disk structures (docs/formats/idx.md §2-§3): the `.idx` text header, the
// binary files' block table, and the file names. Pure encode/decode: no file access.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.hpp"

namespace lodex {

struct IdxField {
  std::string name;
  DType dtype = DType::kF4;
  uint32_t components = 1;
  std::string compression;   // default_compression hint: "" or "zip" (blocks carry their own codec)
  bool hz_layout = true;     // default_layout(hzorder); false: row-major hint
};

struct IdxTime {
  std::string first, last;   // integers, or "*" for any
  std::string pattern;       // printf template of the time directory, e.g. "time_%02d/"
};

struct IdxHeader {
  int version = 6;
  int ndims = 3;                                // 1..3: axes of the logic box
  std::array<int64_t, 3> box_min{0, 0, 0};      // logic box, inclusive max
  std::array<int64_t, 3> box_max{0, 0, 0};
  std::vector<IdxField> fields;
  std::string bits;                             // bitmask "V..."
  int bits_per_block = 0;
  int64_t blocks_per_file = 0;
  int interleave = 0;
  std::string filename_template;                // e.g. "./name/%04x.bin"
  std::optional<IdxTime> time;
  int missing_blocks = 0;
  int64_t arco = 0;
  std::vector<std::pair<std::string, std::string>> other;   // keys we do not use, kept as read

  std::array<uint64_t, 3> dims() const;   // box extents (1 on unused axes)
};

// The header as OpenVisus 2.2 writes it (key order and spacing included).
std::string encode_idx_header(const IdxHeader& h);
// Parses and validates (what: names the file in errors). Accepts OpenVisus and PIDX spellings:
// version 6 or 6.1, 2-10 box numbers (trailing axes of extent 1 dropped), `float32[3]` and
// `3*float32`, `(interleave)` or `(interleave block)`.
IdxHeader decode_idx_header(const std::string& text, const std::string& what);

// Binary files (version 6): a 40-byte header, then blocks_per_file x fields entries of ten
// big-endian uint32 (0, 0, offset_lo, offset_hi, size, flags, 0, 0, 0, 0), field-major.
inline constexpr uint64_t kIdxFileHeaderBytes = 40;
inline constexpr uint64_t kIdxBlockEntryBytes = 40;
inline constexpr uint32_t kIdxCodecMask = 0x0f, kIdxCodecRaw = 0, kIdxCodecZip = 3, kIdxRowMajor = 0x10;
struct IdxBlockEntry {
  uint64_t offset = 0, size = 0;   // absent: both 0
  uint32_t flags = 0;
  bool present() const { return offset != 0 && size != 0; }
};
inline uint64_t idx_table_bytes(uint64_t blocks_per_file, size_t fields) {
  return kIdxFileHeaderBytes + kIdxBlockEntryBytes * blocks_per_file * fields;
}
// OpenVisus's compressDataset(["zip"]) leaves each absent block of a file as (offset = where
// the next block would start, size 0, zip): fills the absent entries of one field's slots so.
void mark_absent_zip(std::vector<IdxBlockEntry>& field_entries);
// entries: blocks_per_file x fields, index field * blocks_per_file + slot. Appends the header and table.
void encode_idx_table(const std::vector<IdxBlockEntry>& entries, std::vector<uint8_t>& out);
// Validates every present entry against the file size and the codec it names.
std::vector<IdxBlockEntry> decode_idx_table(const uint8_t* data, size_t size, uint64_t blocks_per_file, size_t fields,
                                            uint64_t file_size, const std::string& what);

// The file holding block `block` (docs/formats/idx.md §3.5): the template expanded right to left with
// the first block the file can hold, the time directory before the leftmost %-group; a relative
// template (with or without a leading "./") is resolved against `idx_dir`.
std::string idx_block_file(const std::string& idx_dir, const std::string& filename_template,
                           const std::string& time_dir, uint64_t block, uint64_t blocks_per_file);
// The header of a grid lodex writes: `fields` in hz layout (compression hint "zip" when `zip`),
// the logic box of `dims`, OpenVisus's default file template for dataset `name`.
IdxHeader idx_write_header(const std::string& name, const std::array<uint64_t, 3>& dims, int ndims,
                           std::vector<IdxField> fields, const std::string& bits, int bits_per_block,
                           uint64_t blocks_per_file, bool zip, std::optional<IdxTime> time);
// OpenVisus's default file template for dataset `name`: ./<name>/ then a %02x/ directory per 8
// block-address bits above 16, then %04x.bin.
std::string idx_default_template(const std::string& name, int block_bits);
// printf of the time pattern with integer t ("" when the header has no time).
std::string idx_time_dir(const std::optional<IdxTime>& time, int64_t t);
// Whether step t lies in the header's time range (first and last are integers, or "*": open).
bool idx_time_holds(const IdxTime& time, int64_t t);

}  // namespace lodex
