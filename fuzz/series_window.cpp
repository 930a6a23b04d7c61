// Fuzz target: a series window file (.lsw) — the header; each variable's chunk-table entries as
// series_reader.cpp reads them (decode_series_entries); the whole table without the series' plan
// (decode_series_table; the two decoders must agree); then every block of every chunk checked
// against its checksum in the block table.
#include <cstdlib>
#include <vector>

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
  std::vector<SeriesChunkEntry> read_entries;   // what reads of every variable decode
  for (uint32_t v = 0; v < h.variables; ++v) {
    const auto [lo, hi] = series_head_ranges(h, v, false).front();
    const std::vector<SeriesChunkEntry> got = decode_series_entries(data + lo, hi - lo, h, v, what);
    read_entries.insert(read_entries.end(), got.begin(), got.end());
  }
  decode_series_table(data + kSeriesHeaderBytes, h.table_bytes(), h, what);
  for (size_t i = 0; i < h.entries.size(); ++i) {
    const SeriesChunkEntry &a = read_entries[i], &b = h.entries[i];
    if (a.offset != b.offset || a.bytes != b.bytes || a.planes != b.planes) std::abort();   // decoders disagree
  }
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
