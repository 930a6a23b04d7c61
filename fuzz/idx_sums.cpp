// Fuzz target: the block-checksum file lodex writes beside every IDX step (format/idx_sums.hpp).
// The expected layout (fields, blocks, identity) is taken from the input's own header fields, so
// the fuzzer reaches the checks past them (magic, version, the header's checksum, the file size);
// an accepted file's every entry is then read as a reader would.
#include "format/idx_sums.hpp"
#include "fuzz/fuzz_target.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  if (size < lodex::kIdxSumsHeaderBytes) {
    check_idx_sums_header(data, size, size, IdxSumsHeader{}, "fuzz.xxh3");   // must reject
    std::abort();
  }
  IdxSumsHeader expected;
  std::memcpy(&expected.fields, data + 12, 4);
  expected.blocks = lodex::fuzz::load_u64(data + 16);
  expected.identity = lodex::fuzz::load_u64(data + 24);
  check_idx_sums_header(data, size, size, expected, "fuzz.xxh3");
  if (idx_sums_bytes(expected) != size) std::abort();   // accepted: the size was checked
  uint64_t x = 0;
  for (uint32_t f = 0; f < expected.fields; ++f)
    for (uint64_t b = 0; b < expected.blocks; ++b) x ^= lodex::fuzz::load_u64(data + idx_sums_offset(expected, f, b));
  if (x == 0x5eed && size == 0) std::abort();   // keeps the reads from being optimized away
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
