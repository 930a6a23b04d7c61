// Fuzz target: an IDX header (.idx text) — parsed and validated, then re-encoded and parsed
// again (what lodex writes must read back the same), and the block file names of the first and
// last block expanded from its template.
#include "format/idx.hpp"
#include "fuzz/fuzz_target.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  const IdxHeader h = decode_idx_header(std::string(reinterpret_cast<const char*>(data), size), "fuzz.idx");
  const IdxHeader again = decode_idx_header(encode_idx_header(h), "fuzz.idx (re-encoded)");
  if (again.dims() != h.dims() || again.fields.size() != h.fields.size() || again.bits != h.bits) std::abort();
  if (h.blocks_per_file > 0 && h.bits_per_block >= 0 && static_cast<size_t>(h.bits_per_block) < h.bits.size()) {
    const uint64_t blocks = uint64_t{1} << (h.bits.size() - 1 - h.bits_per_block);
    (void)idx_block_file("/fuzz", h.filename_template, "", 0, h.blocks_per_file);
    (void)idx_block_file("/fuzz", h.filename_template, "", blocks - 1, h.blocks_per_file);
  }
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
