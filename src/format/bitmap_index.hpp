// The bitmap index file (.lbx) of one field of one particle data file: per component, the bins
// (layout/binning.hpp) with their value ranges and row counts, and one Roaring bitmap (portable
// serialization) of the rows of each bin, plus one of the NaN rows. Byte layout:
// docs/formats/particles.md. Pure: encode, and decode in bounded steps (header, component table,
// one component's bin table), each validated against the file size and its checksum before use;
// the bitmap bytes themselves are checked against their per-bin checksum by whoever reads them.
#pragma once

#include <roaring/roaring.hh>

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "layout/binning.hpp"

namespace lodex {

inline constexpr char kBitmapIndexMagic[8] = {'L', 'D', 'X', 'B', 'I', 'D', 'X', '\0'};
inline constexpr uint32_t kBitmapIndexVersion = 2;
inline constexpr uint32_t kIndexHeaderBytes = 128;
inline constexpr uint32_t kIndexComponentBytes = 64;

// A bin table entry holds the bin's value range in the field's own width for f4 fields (their
// values are floats: exact) and as f64 otherwise, then u32 count, bitmap bytes and checksum.
inline uint32_t index_value_bytes(DType dtype) { return dtype == DType::kF4 ? 4 : 8; }
inline uint32_t index_bin_bytes(DType dtype) { return 2 * index_value_bytes(dtype) + 12; }

struct IndexBin {
  double vmin = 0, vmax = 0;   // the values in the bin span [vmin, vmax] (NaN for the NaN entry)
  uint64_t count = 0;          // rows in the bin (< 2^32)
  uint64_t offset = 0;         // absolute offset of the serialized bitmap (implicit in the file)
  uint64_t bytes = 0;          // its length (< 2^31; 0 when count = 0)
  uint32_t checksum = 0;       // the low 32 bits of checksum64 of those bytes
  bool raw = false;            // stored as sorted u32 row ids instead of a Roaring bitmap
};

// A bin's rows as stored: a Roaring bitmap (portable serialization, run-optimized) or, when that
// is smaller, the ascending row ids as u32 — a sparse bin's few scattered rows, for which Roaring
// pays ~10 bytes a row and a reader one allocation per row.
struct StoredRows {
  std::vector<uint8_t> bytes;
  bool raw = false;
};
StoredRows encode_bin_rows(const uint32_t* rows, size_t n);
// The rows of bin `e` from its stored bytes (checksum already verified by the caller), checked to be
// exactly e.count ascending rows below `rows`; a Roaring bitmap is checked container by container
// (format/roaring_check.hpp) before CRoaring reads it. Appends them to `out`, or returns them as a bitmap.
void append_bin_rows(const uint8_t* p, const IndexBin& e, uint64_t rows, std::vector<uint32_t>& out,
                     const std::string& what);
Roaring bin_bitmap(const uint8_t* p, const IndexBin& e, uint64_t rows, const std::string& what);

// The check stored for a bitmap's bytes.
uint32_t bitmap_checksum(const uint8_t* data, size_t bytes);

struct IndexComponent {
  uint64_t bins = 0;          // value bins (the table holds bins + 1 entries: the last is NaN's)
  uint64_t nan_rows = 0;
  double min = 0, max = 0;    // over non-NaN values (NaN when there are none)
  uint64_t table_offset = 0;  // absolute offset of this component's bin table
  uint64_t table_checksum = 0;
  uint64_t bitmaps_offset = 0;   // the bins' bitmaps, back to back in bin order (NaN's last)
  uint64_t bitmap_bytes = 0;
  uint32_t entry_bytes = 0;      // index_bin_bytes(dtype)
  uint64_t table_bytes() const { return (bins + 1) * entry_bytes; }
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
  std::vector<IndexBin> bins;           // vmin, vmax, count set; the rest filled by the encoder
  std::vector<StoredRows> bitmaps;      // bins.size() + 1 (the last: NaN rows; empty if none)
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
// NaN's; counts add up to the rows, value ranges ascend, bitmaps fill the component's bitmap
// region (each bin's offset is the sum of the sizes before it).
std::vector<IndexBin> decode_index_bins(const uint8_t* data, size_t size, const BitmapIndexHead& head,
                                        uint32_t component, const std::string& what);

// The index file of `field` beside data file `data_file` (p000003.lpd -> p000003.energy.lbx).
std::string index_file_name(const std::string& data_file, const std::string& field);

}  // namespace lodex
