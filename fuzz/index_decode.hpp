// Shared by the bitmap index fuzz targets: a whole .lbx decoded as a value query reads it —
// header, component table, every component's bin table, then every bin's stored rows checked
// against their checksum and decoded (both as a row list and as a Roaring bitmap), as
// src/pipelines/queries/value_query.cpp does; an accepted bin must read back the same rows every
// way CRoaring gives them.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "format/bitmap_index.hpp"

namespace lodex::fuzz {

inline void decode_whole_index(const uint8_t* data, size_t size) {
  const std::string what = "fuzz.lbx";
  if (size < kIndexHeaderBytes) return decode_index_header(data, size, size, what), void();
  BitmapIndexHead h = decode_index_header(data, kIndexHeaderBytes, size, what);
  if (kIndexHeaderBytes + h.component_table_bytes() > size) fail(ErrorCode::kFormat, what, ": short component table");
  decode_index_components(data + kIndexHeaderBytes, h.component_table_bytes(), h, what);
  for (uint32_t c = 0; c < h.components.size(); ++c) {
    const IndexComponent& comp = h.components[c];
    if (comp.table_offset > size || comp.table_bytes() > size - comp.table_offset)
      fail(ErrorCode::kFormat, what, ": bin table outside the file");
    const std::vector<IndexBin> bins = decode_index_bins(data + comp.table_offset, comp.table_bytes(), h, c, what);
    for (const IndexBin& e : bins) {
      if (e.bytes == 0) continue;
      if (e.offset > size || e.bytes > size - e.offset) fail(ErrorCode::kFormat, what, ": bitmap outside the file");
      const uint8_t* p = data + e.offset;
      if (bitmap_checksum(p, e.bytes) != e.checksum) fail(ErrorCode::kFormat, what, ": bitmap fails its checksum");
      std::vector<uint32_t> rows;
      append_bin_rows(p, e, h.rows, rows, what);
      const Roaring bm = bin_bitmap(p, e, h.rows, what);
      // Accepted: the same ascending row ids below the row count, however they are read (the
      // extraction, the iterator, membership).
      if (bm.cardinality() != rows.size()) std::abort();
      for (size_t i = 0; i < rows.size(); ++i)
        if ((i > 0 && rows[i] <= rows[i - 1]) || rows[i] >= h.rows || !bm.contains(rows[i])) std::abort();
      size_t k = 0;
      for (auto it = bm.begin(); it != bm.end(); ++it, ++k)
        if (k >= rows.size() || *it != rows[k]) std::abort();
      if (k != rows.size()) std::abort();
    }
  }
}

}  // namespace lodex::fuzz
