// The bitmap index file (.lbx) of one field of one particle data file: per component, the bins
// (layout/binning.hpp) with their value ranges and row counts, and one Roaring bitmap (portable
// serialization) of the rows of each bin, plus one of the NaN rows. Byte layout:
// docs/formats/particles.md. Pure: encode, and decode in bounded steps (header, component table,
// one component's bin table), each validated against the file size and its checksum before use;
// the bitmap bytes themselves are checked against their per-bin checksum by whoever reads them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "layout/binning.hpp"

namespace lodex {

inline constexpr char kBitmapIndexMagic[8] = {'L', 'D', 'X', 'B', 'I', 'D', 'X', '\0'};
inline constexpr uint32_t kBitmapIndexVersion = 1;
inline constexpr uint32_t kIndexHeaderBytes = 128;
inline constexpr uint32_t kIndexComponentBytes = 64;
inline constexpr uint32_t kIndexBinBytes = 56;

struct IndexBin {
  double lo = 0;     // lower edge of the bin (NaN for the NaN entry)
  double vmin = 0, vmax = 0;   // the values in the bin span [vmin, vmax] (NaN for the NaN entry)
  uint64_t count = 0;          // rows in the bin
  uint64_t offset = 0;         // absolute offset of the serialized bitmap (0 when count = 0)
  uint64_t bytes = 0;          // its length
  uint64_t checksum = 0;       // checksum64 of those bytes
};

struct IndexComponent {
  uint64_t bins = 0;          // value bins (the table holds bins + 1 entries: the last is NaN's)
  uint64_t nan_rows = 0;
  double min = 0, max = 0;    // over non-NaN values (NaN when there are none)
  uint64_t table_offset = 0;  // absolute offset of this component's bin table
  uint64_t table_checksum = 0;
  uint64_t table_bytes() const { return (bins + 1) * kIndexBinBytes; }
};

struct BitmapIndexHead {
  uint64_t rows = 0;
  DType dtype = DType::kF4;
  BinningSpec binning;
  uint64_t data_head_checksum = 0;   // the data file's head checksum (spatial metadata) when built
  std::string field;
  uint64_t file_bytes = 0;
  std::vector<IndexComponent> components;
  uint64_t component_table_bytes() const { return components.size() * kIndexComponentBytes + 8; }
};

// One component ready to encode: its bins and each bin's serialized bitmap, then the NaN bitmap.
struct EncodedComponent {
  std::vector<IndexBin> bins;           // lo, vmin, vmax, count set; offsets filled by the encoder
  std::vector<std::vector<uint8_t>> bitmaps;   // bins.size() + 1 (the last: NaN rows; empty if none)
  uint64_t nan_rows = 0;
};

// The whole file. head.components and file_bytes are filled from `comps`.
std::vector<uint8_t> encode_bitmap_index(BitmapIndexHead& head, const std::vector<EncodedComponent>& comps);

// Step 1: the header (first kIndexHeaderBytes bytes): everything but the components, whose count
// is set (entries zeroed); next read component_table_bytes() from offset kIndexHeaderBytes.
BitmapIndexHead decode_index_header(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what);
// Step 2: the component table into head.components.
void decode_index_components(const uint8_t* data, size_t size, BitmapIndexHead& head, const std::string& what);
// Step 3: one component's bin table (table_bytes() from table_offset): bins + 1 entries, the last
// NaN's; counts add up to the rows, value ranges ascend, bitmaps lie inside the file.
std::vector<IndexBin> decode_index_bins(const uint8_t* data, size_t size, const BitmapIndexHead& head,
                                        uint32_t component, const std::string& what);

// The index file of `field` beside data file `data_file` (p000003.lpd -> p000003.energy.lbx).
std::string index_file_name(const std::string& data_file, const std::string& field);

}  // namespace lodex
