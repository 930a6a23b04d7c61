// Fuzz target: an IDX block file's table (40-byte header, blocks_per_file x fields entries).
// The first two bytes choose blocks_per_file (1..256) and fields (1..8), the rest is the file;
// every present entry the decoder accepts must lie inside the file.
#include "format/idx.hpp"
#include "fuzz/fuzz_target.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  if (size < 2) return;
  const uint64_t blocks_per_file = uint64_t{data[0]} + 1;
  const size_t fields = (data[1] & 7u) + 1;
  data += 2;
  size -= 2;
  const auto entries = decode_idx_table(data, size, blocks_per_file, fields, size, "fuzz.bin");
  if (entries.size() != blocks_per_file * fields) std::abort();
  for (const IdxBlockEntry& e : entries)
    if (e.present() && (e.offset > size || e.size > size - e.offset)) std::abort();
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
