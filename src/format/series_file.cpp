#include "format/series_file.hpp"

#include <cstring>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "core/error.hpp"

namespace lodex {

namespace {
constexpr size_t kNameSlot = 32;
constexpr uint32_t kMaxSteps = 1 << 20;
constexpr uint32_t kMaxEntries = 1 << 26;
}  // namespace

uint64_t SeriesWindowHead::table_bytes() const { return uint64_t{variables} * chunks * 24 + 8; }

uint64_t series_data_offset(uint32_t variables, uint32_t chunks, uint64_t total_blocks) {
  SeriesWindowHead h;
  h.variables = variables;
  h.chunks = chunks;
  return align_up(h.block_table_offset() + 8 * total_blocks, kSeriesDataAlignment);
}

void number_series_blocks(SeriesWindowHead& h) {
  h.total_blocks = 0;
  for (SeriesChunkEntry& e : h.entries) {
    e.first_block = h.total_blocks;
    h.total_blocks += series_blocks(e.bytes, h.block_bytes);
  }
}

std::vector<uint8_t> encode_series_head(const SeriesWindowHead& h) {
  if (h.entries.size() != uint64_t{h.variables} * h.chunks)
    fail(ErrorCode::kInternal, "series window: ", h.entries.size(), " entries for ", h.variables, " x ", h.chunks);
  ByteWriter w;
  w.put_bytes(kSeriesFileMagic, 8);
  w.put<uint32_t>(kSeriesFileVersion);
  w.put<uint32_t>(kSeriesHeaderBytes);
  w.put_fixed_string(h.series, kNameSlot);
  w.put<uint64_t>(h.first_step);
  w.put<uint32_t>(h.steps);
  w.put<uint32_t>(h.variables);
  w.put<uint32_t>(h.chunks);
  w.put<uint32_t>(h.block_bytes);
  w.put<uint64_t>(h.table_bytes());
  w.put<uint64_t>(h.data_offset);
  w.put<uint64_t>(h.file_bytes);
  w.put<uint64_t>(h.total_planes);
  w.put<uint64_t>(h.total_blocks);
  while (w.size() < kSeriesHeaderBytes - 8) w.put<uint8_t>(0);
  w.put<uint64_t>(checksum64(w.bytes().data(), w.size()));
  const size_t table = w.size();
  uint64_t planes = 0, blocks = 0;
  for (const SeriesChunkEntry& e : h.entries) {
    w.put<uint64_t>(e.offset);
    w.put<uint64_t>(e.bytes);
    w.put<uint32_t>(e.planes);
    w.put<uint32_t>(0);
    planes += e.planes;
    blocks += series_blocks(e.bytes, h.block_bytes);
  }
  if (planes != h.total_planes || blocks != h.total_blocks)
    fail(ErrorCode::kInternal, "series window: total planes ", h.total_planes, " != ", planes, " or blocks ",
         h.total_blocks, " != ", blocks);
  w.put<uint64_t>(checksum64(w.bytes().data() + table, w.size() - table));
  if (h.block_table_offset() + 8 * blocks > h.data_offset)
    fail(ErrorCode::kInternal, "series window: the tables run into the data");
  return std::move(w.bytes());
}

SeriesWindowHead decode_series_header(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what) {
  ByteReader r(data, size, what);
  if (size < 8 || std::memcmp(data, kSeriesFileMagic, 8) != 0) r.corrupt("not a lodex series window file (bad magic)");
  if (size < kSeriesHeaderBytes)
    r.corrupt(cat("truncated: the header needs ", kSeriesHeaderBytes, " bytes, got ", size));
  if (!ends_with_checksum(data, kSeriesHeaderBytes)) r.corrupt("header checksum mismatch");
  r.skip(8, "magic");
  if (const uint32_t v = r.get<uint32_t>("version"); v != kSeriesFileVersion)
    r.corrupt(cat("version ", v, " is not supported (this lodex reads version ", kSeriesFileVersion, ")"));
  if (r.get<uint32_t>("header bytes") != kSeriesHeaderBytes) r.corrupt("header bytes is not 128");
  SeriesWindowHead h;
  h.series = r.get_fixed_string(kNameSlot, "series name");
  h.first_step = r.get<uint64_t>("first step");
  h.steps = r.get<uint32_t>("steps");
  h.variables = r.get<uint32_t>("variables");
  h.chunks = r.get<uint32_t>("chunks");
  h.block_bytes = r.get<uint32_t>("block bytes");
  const uint64_t table_bytes = r.get<uint64_t>("table bytes");
  h.data_offset = r.get<uint64_t>("data offset");
  h.file_bytes = r.get<uint64_t>("file bytes");
  h.total_planes = r.get<uint64_t>("total planes");
  h.total_blocks = r.get<uint64_t>("total blocks");
  if (h.block_bytes < 512 || h.block_bytes > (1u << 24) || (h.block_bytes & (h.block_bytes - 1)) != 0)
    r.corrupt(cat("block bytes ", h.block_bytes, " is not a power of two from 512 to 16 MiB"));
  if (h.steps < 1 || h.steps > kMaxSteps || h.variables < 1 || h.chunks < 1 ||
      uint64_t{h.variables} * h.chunks > kMaxEntries)
    r.corrupt(cat(h.steps, " steps, ", h.variables, " variables, ", h.chunks, " chunks"));
  if (h.total_planes < uint64_t{h.variables} * h.chunks || h.total_planes > (uint64_t{1} << 32))
    r.corrupt(cat(h.total_planes, " planes for ", h.variables, " x ", h.chunks, " chunks"));
  if (table_bytes != h.table_bytes()) r.corrupt("table size does not match the variables and chunks");
  if (h.total_blocks > file_size / 8 || h.data_offset != series_data_offset(h.variables, h.chunks, h.total_blocks))
    r.corrupt("data offset is not after the tables");
  if (h.file_bytes != file_size)
    r.corrupt(cat("the header records ", h.file_bytes, " bytes, the file has ", file_size, " (truncated or extended)"));
  if (h.data_offset > file_size) r.corrupt("truncated: the table runs past the end");
  return h;
}

void decode_series_table(const uint8_t* data, size_t size, SeriesWindowHead& h, const std::string& what) {
  ByteReader r(data, size, what, kSeriesHeaderBytes);
  const uint64_t need = h.table_bytes();
  if (size < need) r.corrupt(cat("truncated chunk table: ", size, " of ", need, " bytes"));
  if (!ends_with_checksum(data, need)) r.corrupt("chunk table checksum mismatch");
  h.entries.assign(uint64_t{h.variables} * h.chunks, SeriesChunkEntry{});
  uint64_t at = h.data_offset, planes = 0;
  for (size_t i = 0; i < h.entries.size(); ++i) {
    SeriesChunkEntry& e = h.entries[i];
    e.offset = r.get<uint64_t>("chunk offset");
    e.bytes = r.get<uint64_t>("chunk bytes");
    e.planes = r.get<uint32_t>("chunk planes");
    r.skip(4, "reserved");
    planes += e.planes;
    if (e.planes < 1 || planes > h.total_planes)
      r.corrupt(cat("chunk ", i, " has ", e.planes, " planes; the header counts ", h.total_planes, " in all"));
    if (e.offset != at || e.bytes > h.file_bytes - e.offset || e.bytes % (uint64_t{h.steps} * e.planes) != 0)
      r.corrupt(cat("chunk ", i, " at ", e.offset, " (", e.bytes,
                    " bytes) is not where the previous ends, leaves the file, "
                    "or is not a whole number of slabs"));
    at += e.bytes;
  }
  if (planes != h.total_planes)
    r.corrupt(cat("the chunks have ", planes, " planes; the header counts ", h.total_planes));
  const uint64_t header_blocks = h.total_blocks;
  number_series_blocks(h);
  if (h.total_blocks != header_blocks)
    r.corrupt(cat("the chunks have ", h.total_blocks, " blocks; the header counts ", header_blocks));
  if (at != h.file_bytes) r.corrupt(cat("the chunks end at ", at, ", the file at ", h.file_bytes));
}

std::vector<std::pair<uint64_t, uint64_t>> series_head_ranges(const SeriesWindowHead& h, uint32_t v, bool header) {
  if (v >= h.variables) fail(ErrorCode::kInternal, "series window: variable ", v, " of ", h.variables);
  const uint64_t lo = kSeriesHeaderBytes + uint64_t{24} * v * h.chunks, hi = lo + uint64_t{24} * h.chunks;
  if (header) return {{0, kSeriesHeaderBytes}, {lo, hi}};
  return {{lo, hi}};
}

std::vector<SeriesChunkEntry> decode_series_entries(const uint8_t* data, size_t size, const SeriesWindowHead& h,
                                                    uint32_t v, const std::string& what) {
  const uint64_t at = kSeriesHeaderBytes + uint64_t{24} * v * h.chunks;
  ByteReader r(data, size, what, at);
  if (size != uint64_t{24} * h.chunks) r.corrupt(cat("truncated chunk table: ", size, " of ", 24 * h.chunks, " bytes"));
  std::vector<SeriesChunkEntry> entries(h.chunks);
  for (SeriesChunkEntry& e : entries) {
    e.offset = r.get<uint64_t>("chunk offset");
    e.bytes = r.get<uint64_t>("chunk bytes");
    e.planes = r.get<uint32_t>("chunk planes");
    if (r.get<uint32_t>("reserved") != 0) r.corrupt("a chunk table entry's reserved word is not 0");
  }
  return entries;
}

SeriesWindowHead planned_window_head(const std::string& series, const std::vector<SeriesVariable>& vars,
                                     const SarPlan& sar, int64_t first_step, uint32_t steps) {
  SeriesWindowHead h;
  h.series = series.substr(0, 31);
  h.first_step = static_cast<uint64_t>(first_step);
  h.steps = steps;
  h.variables = static_cast<uint32_t>(vars.size());
  h.chunks = static_cast<uint32_t>(sar.chunks().size());
  const std::vector<uint32_t> planes = chunk_planes(vars, sar);
  const WindowLayout sizes = window_layout(vars, sar, steps, 0);
  h.entries.resize(planes.size());
  for (uint32_t v = 0; v < h.variables; ++v)
    for (uint32_t c = 0; c < h.chunks; ++c) {
      SeriesChunkEntry& e = h.entries[size_t{v} * h.chunks + c];
      e.bytes = sizes.bytes[v][c];
      e.planes = planes[size_t{v} * h.chunks + c];
      h.total_planes += e.planes;
    }
  number_series_blocks(h);
  h.data_offset = series_data_offset(h.variables, h.chunks, h.total_blocks);
  for (uint32_t v = 0; v < h.variables; ++v)
    for (uint32_t c = 0; c < h.chunks; ++c)
      h.entries[size_t{v} * h.chunks + c].offset = sizes.offset[v][c] + h.data_offset;
  h.file_bytes = sizes.end + h.data_offset;
  return h;
}

std::vector<SeriesChunkPlace> chunk_places(const SeriesWindowHead& head, uint32_t v) {
  std::vector<SeriesChunkPlace> places(head.chunks);
  for (uint32_t c = 0; c < head.chunks; ++c) {
    const SeriesChunkEntry& e = head.entries[size_t{v} * head.chunks + c];
    places[c] = {e.offset, e.bytes, e.planes, e.first_block};
  }
  return places;
}

}  // namespace lodex
