// Serial IDX writes (pipelines/grids/idx_dataset.hpp): every block of every field gathered into hz order
// with the per-level tables, optionally zlib-compressed, files assembled in memory and written
// once each, then the .idx header.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include "layout/hz.hpp"
#include "pipelines/grids/idx_dataset.hpp"
#include "pipelines/grids/idx_zip.hpp"
#include "storage/file.hpp"

namespace lodex {

namespace {

std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  if (b.size() > 4 && b.compare(b.size() - 4, 4, ".idx") == 0) b.resize(b.size() - 4);
  return b;
}

}  // namespace

uint64_t write_idx(const std::string& idx_path, const std::array<uint64_t, 3>& dims, int ndims,
                   const std::vector<IdxFieldData>& fields, const IdxWriteOptions& o) {
  if (ndims < 1 || ndims > 3) fail(ErrorCode::kInvalidArgument, "grids have 1 to 3 axes, not ", ndims);
  if (fields.empty()) fail(ErrorCode::kInvalidArgument, "an IDX write needs at least one field");
  std::array<uint64_t, 3> d{1, 1, 1};
  for (int a = 0; a < ndims; ++a) {
    if (dims[a] < 1) fail(ErrorCode::kInvalidArgument, "grid dimension ", "xyz"[a], " is ", dims[a]);
    d[a] = dims[a];
  }
  const std::string bits = o.bitmask.empty() ? HzIndex::default_bitmask(d, ndims) : o.bitmask;
  const HzIndex hz(bits);
  hz.require_fits(d, ndims);
  if (o.bits_per_block < 1 || o.bits_per_block > 31)
    fail(ErrorCode::kInvalidArgument, "bits_per_block ", o.bits_per_block, " is outside 1..31");
  const int bpb = std::min(o.bits_per_block, hz.maxh());
  const uint64_t nblocks = uint64_t{1} << (hz.maxh() - bpb);
  if (o.blocks_per_file == 0 || o.blocks_per_file < -1)
    fail(ErrorCode::kInvalidArgument, "blocks_per_file ", o.blocks_per_file, " must be positive (or -1: one file)");
  const uint64_t bpf = o.blocks_per_file == -1 ? nblocks : static_cast<uint64_t>(o.blocks_per_file);

  std::vector<IdxField> header_fields;
  for (const auto& f : fields) {
    if (!f.data) fail(ErrorCode::kInvalidArgument, "field '", f.field.name, "' has no data");
    header_fields.push_back(f.field);
  }
  const IdxHeader h = idx_write_header(base_name(idx_path), d, ndims, header_fields, bits, bpb, bpf, o.zip, o.time);
  const std::string dir = parent_path(idx_path);
  const std::string time_dir = idx_time_dir(o.time, o.step);

  // A block's points inside the grid: indices [0, n_a) on each axis (blocks start inside or past it).
  auto span = [&](const StridedBox& bb, int a) {
    uint64_t i0, i1;
    span_within(bb.start[a], bb.stride[a], bb.count[a], 0, static_cast<int64_t>(d[a]), i0, i1);
    return i1;
  };
  std::map<int, std::unique_ptr<BlockOrder>> orders;
  uint64_t written = 0;
  std::vector<uint8_t> raw, packed, file_bytes, table_bytes;
  const uint64_t table = idx_table_bytes(bpf, fields.size());
  for (uint64_t first = 0; first < nblocks; first += bpf) {
    const uint64_t last = std::min(nblocks, first + bpf);
    std::vector<IdxBlockEntry> entries(bpf * fields.size());
    file_bytes.assign(table, 0);   // the table, filled in once the payloads behind it are placed
    for (size_t fi = 0; fi < fields.size(); ++fi) {
      const IdxField& f = fields[fi].field;
      const size_t sb = dtype_size(f.dtype) * f.components;
      const auto* src = static_cast<const uint8_t*>(fields[fi].data);
      const uint64_t raw_bytes = (uint64_t{1} << bpb) * sb;
      for (uint64_t b = first; b < last; ++b) {
        const StridedBox bb = hz.block_box(b, bpb);
        const uint64_t n0 = span(bb, 0), n1 = span(bb, 1), n2 = span(bb, 2);
        if (n0 == 0 || n1 == 0 || n2 == 0) continue;   // no sample of the grid: not written
        // Samples outside the grid stay 0; a block wholly inside is overwritten everywhere.
        if (n0 < bb.count[0] || n1 < bb.count[1] || n2 < bb.count[2]) raw.assign(raw_bytes, 0);
        else raw.resize(raw_bytes);
        auto at = [&](uint64_t x, uint64_t y, uint64_t z) { return src + ((z * d[1] + y) * d[0] + x) * sb; };
        if (b == 0) {
          for (uint64_t k = 0; k < n2; ++k)
            for (uint64_t j = 0; j < n1; ++j)
              for (uint64_t i = 0; i < n0; ++i) {
                const Coord3 p{bb.start[0] + i * bb.stride[0], bb.start[1] + j * bb.stride[1], bb.start[2] + k * bb.stride[2]};
                std::memcpy(raw.data() + hz.hz_of(p) * sb, at(p[0], p[1], p[2]), sb);
              }
        } else {
          const int H = HzIndex::level_of_block(b, bpb);
          auto& order = orders[H];
          if (!order) order = std::make_unique<BlockOrder>(hz, bpb, H);
          for (uint64_t k = 0; k < n2; ++k)
            for (uint64_t j = 0; j < n1; ++j) {
              const uint32_t jk = order->table[1][j] | order->table[2][k];
              const uint64_t y = bb.start[1] + j * bb.stride[1], z = bb.start[2] + k * bb.stride[2];
              for (uint64_t i = 0; i < n0; ++i)
                std::memcpy(raw.data() + (order->table[0][i] | jk) * sb, at(bb.start[0] + i * bb.stride[0], y, z), sb);
            }
        }
        const uint8_t* payload = raw.data();
        uint64_t size = raw_bytes;
        uint32_t flags = kIdxCodecRaw;
        if (o.zip) {
          size = zip_block(raw.data(), raw_bytes, packed, b);
          payload = packed.data();
          flags = kIdxCodecZip;
        }
        entries[fi * bpf + (b - first)] = {file_bytes.size(), size, flags};
        file_bytes.insert(file_bytes.end(), payload, payload + size);
      }
    }
    if (file_bytes.size() == table) continue;   // no block of this file holds data: no file
    if (o.zip)
      for (size_t fi = 0; fi < fields.size(); ++fi) {
        std::vector<IdxBlockEntry> slice(entries.begin() + fi * bpf, entries.begin() + (fi + 1) * bpf);
        mark_absent_zip(slice);
        std::copy(slice.begin(), slice.end(), entries.begin() + fi * bpf);
      }
    table_bytes.clear();
    encode_idx_table(entries, table_bytes);
    std::memcpy(file_bytes.data(), table_bytes.data(), table);
    const std::string path = idx_block_file(dir, h.filename_template, time_dir, first, bpf);
    make_directories(parent_path(path));
    File out(path, File::Mode::kCreate);
    out.pwrite_all(file_bytes.data(), file_bytes.size(), 0);
    out.close();
    written += file_bytes.size();
  }
  const std::string text = encode_idx_header(h);
  atomic_replace(idx_path, text.data(), text.size());
  return written + text.size();
}

}  // namespace lodex
