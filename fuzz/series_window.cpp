// Fuzz target: a series window file (.lsw) as series_reader.cpp reads it — header, chunk table,
// then every block of every chunk checked against its checksum in the block table.
#include "core/checksum.hpp"
#include "format/series_file.hpp"
#include "fuzz/fuzz_target.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  const std::string what = "fuzz.lsw";
  if (size < kSeriesHeaderBytes) return decode_series_header(data, size, size, what), void();
  SeriesWindowHead h = decode_series_header(data, kSeriesHeaderBytes, size, what);
  if (h.block_table_offset() > size) fail(ErrorCode::kFormat, what, ": short chunk table");
  decode_series_table(data + kSeriesHeaderBytes, h.table_bytes(), h, what);
  const uint64_t sums = h.block_table_offset();
  if (h.total_blocks > (size - sums) / 8) fail(ErrorCode::kFormat, what, ": short block table");
  for (const SeriesChunkEntry& e : h.entries) {
    if (e.offset > size || e.bytes > size - e.offset) std::abort();   // the table decoder promised this
    for (uint64_t k = 0; k < series_blocks(e.bytes, h.block_bytes); ++k) {
      const uint64_t at = uint64_t{k} * h.block_bytes, n = std::min<uint64_t>(h.block_bytes, e.bytes - at);
      if (checksum64(data + e.offset + at, n) != fuzz::load_u64(data + sums + 8 * (e.first_block + k)))
        fail(ErrorCode::kFormat, what, ": block fails its checksum");
    }
  }
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
