// The block checksums lodex keeps beside every IDX time step it writes (docs/formats/idx.md §7):
// one file per step, `<name>.checksums/<time dir>blocks.xxh3` next to `<name>.idx`, which
// OpenVisus never opens, so the IDX files stay byte-identical to OpenVisus's. It holds a 48-byte
// header, then one uint64 per (field, block), field-major: the block's stored bytes hashed with a
// seed made of the block number, the field and the codec flags (0: no block written). A flipped
// bit, a block table pointing elsewhere, a codec flag changed or two block files swapped all give
// another checksum. Pure encode/decode: no file access.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "format/idx.hpp"

namespace lodex {

inline constexpr uint64_t kIdxSumsHeaderBytes = 48;

// What a sums file must belong to: the IDX dataset's layout at one time step.
struct IdxSumsHeader {
  uint64_t identity = 0;   // idx_sums_identity of the dataset and the step
  uint64_t blocks = 0;     // blocks of one field (2^(maxh - bits_per_block))
  uint32_t fields = 0;
};

// Where the sums of the step whose time directory is `time_dir` ("" without time) live.
std::string idx_sums_path(const std::string& idx_path, const std::string& time_dir);
// A hash of the dataset's layout and the step: the box's extents, bitmask, bits per block, blocks
// per file, the fields (names, types, components) and the step number. Sums moved to another grid or step with
// their block files do not match it; a file template or time pattern edited to follow moved
// block files does not change it.
uint64_t idx_sums_identity(const std::array<uint64_t, 3>& dims, const std::string& bitmask, int bits_per_block,
                           uint64_t blocks_per_file, const std::vector<IdxField>& fields, int64_t step);
// The checksum of one stored block (its bytes as they are in the block file); never 0.
uint64_t idx_block_sum(const void* bytes, uint64_t size, uint64_t block, uint32_t field, uint32_t flags);
// Byte offset of (field, block)'s checksum in the file, and the file's whole size.
inline uint64_t idx_sums_offset(const IdxSumsHeader& h, uint32_t field, uint64_t block) {
  return kIdxSumsHeaderBytes + 8 * (uint64_t{field} * h.blocks + block);
}
inline uint64_t idx_sums_bytes(const IdxSumsHeader& h) { return idx_sums_offset(h, h.fields, 0); }

std::vector<uint8_t> encode_idx_sums_header(const IdxSumsHeader& h);
// Checks magic, version and the header's own checksum, then that it is the header `expected`
// describes and that the file has its size; a FormatError naming `what` otherwise.
void check_idx_sums_header(const uint8_t* data, size_t size, uint64_t file_size, const IdxSumsHeader& expected,
                           const std::string& what);

}  // namespace lodex
