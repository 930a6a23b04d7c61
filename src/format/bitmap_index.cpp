#include "format/bitmap_index.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "core/error.hpp"
#include "format/roaring_check.hpp"

namespace lodex {

namespace {
constexpr size_t kFieldNameSlot = 32;
constexpr uint32_t kMaxIndexComponents = 1 << 16;
}  // namespace

std::string index_file_name(const std::string& data_file, const std::string& field) {
  std::string stem = data_file;
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".lpd") == 0) stem.resize(stem.size() - 4);
  return stem + "." + field + ".lbx";
}

uint32_t bitmap_checksum(const uint8_t* data, size_t bytes) { return static_cast<uint32_t>(checksum64(data, bytes)); }

StoredRows encode_bin_rows(const uint32_t* rows, size_t n) {
  StoredRows out;
  if (n == 0) return out;
  // A Roaring bitmap of rows in c chunks of 65,536 takes at least 4 + 10c bytes (header, then a
  // key, a cardinality and at least 6 bytes per container): when raw ids are smaller than even
  // that, skip building it.
  uint64_t chunks = 1;
  bool ascending = true;
  for (size_t i = 1; i < n; ++i) {
    ascending = ascending && rows[i] > rows[i - 1];
    chunks += (rows[i] >> 16) != (rows[i - 1] >> 16);
  }
  if (ascending && 4 * n < 4 + 10 * chunks) {
    out.raw = true;
    out.bytes.resize(n * 4);
    std::memcpy(out.bytes.data(), rows, n * 4);   // little-endian host
    return out;
  }
  Roaring r;
  r.addMany(n, rows);
  r.runOptimize();
  const size_t roaring_bytes = r.getSizeInBytes(true);
  if (roaring_bytes > n * 4) {
    out.raw = true;
    out.bytes.resize(n * 4);
    r.toUint32Array(reinterpret_cast<uint32_t*>(out.bytes.data()));   // ascending, little-endian host
  } else {
    out.bytes.resize(roaring_bytes);
    r.write(reinterpret_cast<char*>(out.bytes.data()), true);
  }
  return out;
}

namespace {
constexpr uint32_t kRawRowsFlag = 1u << 31;   // in a bin entry's bytes field
}  // namespace

void append_bin_rows(const uint8_t* p, const IndexBin& e, uint64_t rows, std::vector<uint32_t>& out,
                     const std::string& what) {
  if (!e.raw) {
    const Roaring r = bin_bitmap(p, e, rows, what);
    const size_t at = out.size();
    out.resize(at + e.count);
    r.toUint32Array(out.data() + at);
    return;
  }
  if (e.bytes != 4 * e.count)
    fail(ErrorCode::kFormat, what, ": a bin of ", e.count, " rows stored in ", e.bytes, " bytes");
  const size_t at = out.size();
  out.resize(at + e.count);
  std::memcpy(out.data() + at, p, e.bytes);
  for (size_t i = at; i < out.size(); ++i)
    if (out[i] >= rows || (i > at && out[i] <= out[i - 1]))
      fail(ErrorCode::kFormat, what, ": the rows of a bin are not ascending row ids below ", rows);
}

Roaring bin_bitmap(const uint8_t* p, const IndexBin& e, uint64_t rows, const std::string& what) {
  if (e.raw) {
    std::vector<uint32_t> ids;
    append_bin_rows(p, e, rows, ids, what);
    Roaring r;
    r.addMany(ids.size(), ids.data());
    return r;
  }
  // Checked before CRoaring reads it (format/roaring_check.hpp): CRoaring 0.2 trusts the containers.
  const RoaringShape shape = check_roaring_portable(p, e.bytes, what);
  if (shape.cardinality != e.count || (e.count && shape.maximum >= rows))
    fail(ErrorCode::kFormat, what, ": a bitmap does not hold the ", e.count, " rows below ", rows, " its entry says");
  Roaring r;
  try {
    r = Roaring::readSafe(reinterpret_cast<const char*>(p), e.bytes);
  } catch (const std::exception& x) {
    fail(ErrorCode::kFormat, what, ": a bitmap CRoaring cannot read (", x.what(), ")");
  }
  if (r.cardinality() != e.count || r.getSizeInBytes(true) != e.bytes || (e.count && r.maximum() >= rows))
    fail(ErrorCode::kFormat, what, ": a bitmap does not hold the ", e.count, " rows its entry says");
  return r;
}

namespace {

template <typename V>
void put_bin_table(ByteWriter& t, const std::vector<IndexBin>& bins) {
  for (const IndexBin& e : bins) {
    t.put<V>(static_cast<V>(e.vmin));
    t.put<V>(static_cast<V>(e.vmax));
    t.put<uint32_t>(static_cast<uint32_t>(e.count));
    t.put<uint32_t>(static_cast<uint32_t>(e.bytes) | (e.raw ? kRawRowsFlag : 0));
    t.put<uint32_t>(e.checksum);
  }
}

}  // namespace

std::vector<uint8_t> encode_bitmap_index(BitmapIndexHead& head, const std::vector<EncodedComponent>& comps) {
  if (comps.empty() || comps.size() > kMaxIndexComponents)
    fail(ErrorCode::kInternal, "an index needs 1 to ", kMaxIndexComponents, " components, got ", comps.size());
  if (head.rows >= (uint64_t{1} << 32))
    fail(ErrorCode::kUnsupported, "bitmap indexes cover files of fewer than 2^32 rows, not ", head.rows);
  head.components.assign(comps.size(), IndexComponent{});
  // Offsets: header, component table, bin tables, then each component's bitmaps.
  uint64_t at = kIndexHeaderBytes + head.component_table_bytes();
  for (size_t c = 0; c < comps.size(); ++c) {
    if (comps[c].bitmaps.size() != comps[c].bins.size() + 1)
      fail(ErrorCode::kInternal, "component ", c, ": ", comps[c].bitmaps.size(), " bitmaps for ", comps[c].bins.size(),
           " bins");
    IndexComponent& ic = head.components[c];
    ic.bins = comps[c].bins.size();
    ic.nan_rows = comps[c].nan_rows;
    ic.min = ic.bins ? comps[c].bins.front().vmin : std::nan("");
    ic.max = ic.bins ? comps[c].bins.back().vmax : std::nan("");
    ic.entry_bytes = index_bin_bytes(head.dtype);
    ic.table_offset = at;
    at += ic.table_bytes();
  }
  std::vector<std::vector<IndexBin>> tables(comps.size());
  for (size_t c = 0; c < comps.size(); ++c) {
    tables[c] = comps[c].bins;
    IndexBin nan;
    nan.vmin = nan.vmax = std::nan("");
    nan.count = comps[c].nan_rows;
    tables[c].push_back(nan);
    head.components[c].bitmaps_offset = at;
    for (size_t b = 0; b < tables[c].size(); ++b) {
      const auto& bm = comps[c].bitmaps[b].bytes;
      if (bm.size() >= kRawRowsFlag) fail(ErrorCode::kUnsupported, "a bitmap of ", bm.size(), " bytes");
      IndexBin& e = tables[c][b];
      e.bytes = bm.size();
      e.raw = comps[c].bitmaps[b].raw;
      e.offset = at;
      e.checksum = bitmap_checksum(bm.data(), bm.size());
      at += bm.size();
    }
    head.components[c].bitmap_bytes = at - head.components[c].bitmaps_offset;
  }
  head.file_bytes = at;

  ByteWriter w;
  w.put_bytes(kBitmapIndexMagic, 8);
  w.put<uint32_t>(kBitmapIndexVersion);
  w.put<uint32_t>(kIndexHeaderBytes);
  w.put<uint64_t>(head.rows);
  w.put<uint32_t>(static_cast<uint32_t>(comps.size()));
  w.put<uint8_t>(static_cast<uint8_t>(head.dtype));
  w.put<uint8_t>(static_cast<uint8_t>(head.binning.kind));
  w.put<uint16_t>(0);
  w.put<uint32_t>(head.binning.param);
  w.put<uint32_t>(0);
  w.put<uint64_t>(head.data_head_checksum);
  w.put_fixed_string(head.field, kFieldNameSlot);
  w.put<uint64_t>(kIndexHeaderBytes);
  w.put<uint64_t>(head.component_table_bytes());
  w.put<uint64_t>(head.file_bytes);
  w.put<uint64_t>(0);
  w.put<uint64_t>(0);
  w.put<uint64_t>(checksum64(w.bytes().data(), w.size()));
  std::vector<std::vector<uint8_t>> table_bytes(
      comps.size());   // encoded first: the component table holds their checksums
  for (size_t c = 0; c < comps.size(); ++c) {
    ByteWriter t;
    if (index_value_bytes(head.dtype) == 4) put_bin_table<float>(t, tables[c]);
    else put_bin_table<double>(t, tables[c]);
    table_bytes[c] = std::move(t.bytes());
    head.components[c].table_checksum = checksum64(table_bytes[c].data(), table_bytes[c].size());
  }
  const size_t table_start = w.size();
  for (const IndexComponent& ic : head.components) {
    w.put<uint64_t>(ic.bins);
    w.put<uint64_t>(ic.nan_rows);
    w.put<double>(ic.min);
    w.put<double>(ic.max);
    w.put<uint64_t>(ic.table_offset);
    w.put<uint64_t>(ic.table_checksum);
    w.put<uint64_t>(ic.bitmaps_offset);
    w.put<uint64_t>(ic.bitmap_bytes);
  }
  w.put<uint64_t>(checksum64(w.bytes().data() + table_start, w.size() - table_start));
  for (const auto& t : table_bytes) w.put_bytes(t.data(), t.size());
  std::vector<uint8_t>& out = w.bytes();
  out.reserve(head.file_bytes);
  for (const auto& comp : comps)
    for (const auto& bm : comp.bitmaps) w.put_bytes(bm.bytes.data(), bm.bytes.size());
  if (out.size() != head.file_bytes)
    fail(ErrorCode::kInternal, "index encoding: ", out.size(), " != ", head.file_bytes);
  return std::move(out);
}

BitmapIndexHead decode_index_header(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what) {
  ByteReader r(data, size, what);
  if (size < 8 || std::memcmp(data, kBitmapIndexMagic, 8) != 0) r.corrupt("not a lodex bitmap index (bad magic)");
  if (size < kIndexHeaderBytes)
    r.corrupt(cat("truncated: the header needs ", kIndexHeaderBytes, " bytes, the file has ", size));
  if (checksum64(data, kIndexHeaderBytes - 8) != [&] {
        uint64_t v;
        std::memcpy(&v, data + kIndexHeaderBytes - 8, 8);
        return v;
      }())
    r.corrupt("header checksum mismatch");
  r.skip(8, "magic");
  BitmapIndexHead h;
  if (const uint32_t v = r.get<uint32_t>("version"); v != kBitmapIndexVersion)
    r.corrupt(cat("version ", v, " is not supported (this lodex reads version ", kBitmapIndexVersion, ")"));
  if (r.get<uint32_t>("header bytes") != kIndexHeaderBytes) r.corrupt("header bytes is not 128");
  h.rows = r.get<uint64_t>("rows");
  const uint32_t comps = r.get<uint32_t>("components");
  if (comps < 1 || comps > kMaxIndexComponents) r.corrupt(cat(comps, " components"));
  if (!dtype_from_code(r.get<uint8_t>("dtype"), &h.dtype)) r.corrupt("unknown dtype code");
  const uint8_t kind = r.get<uint8_t>("binning");
  if (kind != static_cast<uint8_t>(Binning::kPrecision) && kind != static_cast<uint8_t>(Binning::kEqualWeight))
    r.corrupt(cat("unknown binning ", int{kind}));
  h.binning.kind = static_cast<Binning>(kind);
  r.skip(2, "reserved");
  h.binning.param = r.get<uint32_t>("binning parameter");
  try {
    validate(h.binning);
  } catch (const Error& e) {
    r.corrupt(e.what());
  }
  r.skip(4, "reserved");
  h.data_head_checksum = r.get<uint64_t>("data head checksum");
  h.field = r.get_fixed_string(kFieldNameSlot, "field name");
  if (r.get<uint64_t>("table offset") != kIndexHeaderBytes) r.corrupt("component table is not at offset 128");
  const uint64_t table_bytes = r.get<uint64_t>("table bytes");
  h.file_bytes = r.get<uint64_t>("file bytes");
  h.components.assign(comps, IndexComponent{});
  if (table_bytes != h.component_table_bytes()) r.corrupt("component table size does not match the components");
  if (h.file_bytes != file_size)
    r.corrupt(cat("the header records ", h.file_bytes, " bytes, the file has ", file_size, " (truncated or extended)"));
  if (kIndexHeaderBytes + table_bytes > file_size) r.corrupt("truncated: the component table runs past the end");
  return h;
}

void decode_index_components(const uint8_t* data, size_t size, BitmapIndexHead& h, const std::string& what) {
  ByteReader r(data, size, what, kIndexHeaderBytes);
  const uint64_t need = h.component_table_bytes();
  if (size < need) r.corrupt(cat("truncated component table: ", size, " of ", need, " bytes"));
  if (!ends_with_checksum(data, need)) r.corrupt("component table checksum mismatch");
  const uint64_t tables_start = kIndexHeaderBytes + need;
  for (IndexComponent& ic : h.components) {
    ic.bins = r.get<uint64_t>("bins");
    ic.nan_rows = r.get<uint64_t>("NaN rows");
    ic.min = r.get<double>("min");
    ic.max = r.get<double>("max");
    ic.table_offset = r.get<uint64_t>("bin table offset");
    ic.table_checksum = r.get<uint64_t>("bin table checksum");
    ic.bitmaps_offset = r.get<uint64_t>("bitmaps offset");
    ic.bitmap_bytes = r.get<uint64_t>("bitmap bytes");
    ic.entry_bytes = index_bin_bytes(h.dtype);
    if (ic.bins > h.rows || ic.nan_rows > h.rows)
      r.corrupt(cat(ic.bins, " bins or ", ic.nan_rows, " NaN rows for ", h.rows, " rows"));
    if (ic.table_offset < tables_start || ic.table_offset > h.file_bytes ||
        ic.table_bytes() > h.file_bytes - ic.table_offset)
      r.corrupt("a bin table lies outside the file");
    if (ic.bitmaps_offset < tables_start || ic.bitmaps_offset > h.file_bytes ||
        ic.bitmap_bytes > h.file_bytes - ic.bitmaps_offset)
      r.corrupt("a component's bitmaps lie outside the file");
  }
}

namespace {

template <typename V>
double get_value(const uint8_t* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return static_cast<double>(v);
}

uint32_t get_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

std::vector<IndexBin> decode_index_bins(const uint8_t* data, size_t size, const BitmapIndexHead& h, uint32_t c,
                                        const std::string& what) {
  const IndexComponent& ic = h.components.at(c);
  ByteReader r(data, size, what, ic.table_offset);
  if (size < ic.table_bytes()) r.corrupt(cat("truncated bin table of component ", c));
  const uint8_t* table = r.take(ic.table_bytes(), "bin table");
  if (checksum64(table, ic.table_bytes()) != ic.table_checksum)
    r.corrupt(cat("bin table checksum mismatch (component ", c, ")"));
  const uint32_t w = index_value_bytes(h.dtype);
  const uint32_t eb = ic.entry_bytes;
  std::vector<IndexBin> bins(ic.bins + 1);
  uint64_t total = 0, at = ic.bitmaps_offset;
  const uint64_t end = ic.bitmaps_offset + ic.bitmap_bytes;
  for (uint64_t b = 0; b <= ic.bins; ++b) {
    const uint8_t* p = table + b * eb;
    IndexBin& e = bins[b];
    e.vmin = w == 4 ? get_value<float>(p) : get_value<double>(p);
    e.vmax = w == 4 ? get_value<float>(p + w) : get_value<double>(p + w);
    e.count = get_u32(p + 2 * w);
    const uint32_t stored_bytes = get_u32(p + 2 * w + 4);
    e.bytes = stored_bytes & ~kRawRowsFlag;
    e.raw = (stored_bytes & kRawRowsFlag) != 0;
    e.checksum = get_u32(p + 2 * w + 8);
    e.offset = at;
    const bool is_nan = b == ic.bins;
    if (e.count > h.rows - total) r.corrupt(cat("the bins of component ", c, " hold more rows than the index covers"));
    if (is_nan ? e.count != ic.nan_rows : (e.count == 0 || !(e.vmin <= e.vmax)))
      r.corrupt(cat("bin ", b, " of component ", c, " has count ", e.count, " and range [", e.vmin, ", ", e.vmax, "]"));
    if (!is_nan && b > 0 && !(bins[b - 1].vmax < e.vmin))
      r.corrupt(cat("bins ", b - 1, " and ", b, " of component ", c, " overlap"));
    if ((e.count == 0) != (e.bytes == 0) || e.bytes > end - at || (e.raw && e.bytes != 4 * e.count))
      r.corrupt(cat("the bitmap of bin ", b, " of component ", c, " runs past the component's bitmaps"));
    at += e.bytes;
    total += e.count;
  }
  if (at != end)
    r.corrupt(cat("the bitmaps of component ", c, " take ", at - ic.bitmaps_offset, " bytes, the table says ",
                  ic.bitmap_bytes));
  if (total != h.rows) r.corrupt(cat("the bins of component ", c, " hold ", total, " rows, the index covers ", h.rows));
  if (ic.bins && (bins.front().vmin != ic.min || bins[ic.bins - 1].vmax != ic.max))
    r.corrupt(cat("component ", c, "'s min/max disagree with its bins"));
  return bins;
}

}  // namespace lodex
