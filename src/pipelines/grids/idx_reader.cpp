// Serial IDX reads (pipelines/grids/idx_dataset.hpp): the blocks of levels 0..r that meet the query, file
// by file, each decoded (raw or zlib) and scattered into the result with the per-level hz tables.
#include "pipelines/grids/idx_dataset.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include "layout/hz.hpp"
#include "pipelines/agreed_read.hpp"
#include "storage/file.hpp"

namespace lodex {

IdxDataset IdxDataset::open(const std::string& idx_path) {
  IdxDataset d;
  d.path_ = idx_path;
  d.dir_ = parent_path(idx_path);
  const std::vector<uint8_t> bytes = read_whole_file(idx_path, uint64_t{16} << 20);
  d.header_ = decode_idx_header(std::string(bytes.begin(), bytes.end()), "'" + idx_path + "'");
  d.index_ = std::make_shared<const HzIndex>(d.header_.bits);
  return d;
}

int IdxDataset::max_resolution() const { return index_->maxh(); }

namespace {

// The query's samples along one axis: first, first + delta, ... below hi.
struct AxisRange {
  int64_t first = 0;
  uint64_t delta = 1, count = 0;
  int64_t end() const { return first + static_cast<int64_t>(count * delta); }
};

// The directory of time step `time` ("" for a dataset without time steps, whose only step is 0).
std::string time_dir_of(const IdxHeader& h, int64_t time, const std::string& what) {
  if (h.time) return idx_time_dir(h.time, time);
  if (time != 0) fail(ErrorCode::kNotFound, what, " has no time steps; step ", time, " does not exist (only 0)");
  return "";
}

}  // namespace

GridReadSpace IdxDataset::read_space() const {
  const IdxHeader& h = header_;
  GridReadSpace s;
  s.box.hi = {1, 1, 1};
  for (int a = 0; a < h.ndims; ++a) s.box.lo[a] = h.box_min[a], s.box.hi[a] = h.box_max[a] + 1;
  s.ndims = h.ndims;
  s.bitmask = h.bits;
  for (const IdxField& f : h.fields) s.fields.push_back(FieldSpec{f.name, f.dtype, f.components});
  s.what = "'" + path_ + "'";
  return s;
}

GridReadPart IdxDataset::read_part(const std::string& field, int64_t time, const std::optional<GridBox>& box,
                                   std::optional<int> resolution, int rank, int size) const {
  time_dir_of(header_, time, "'" + path_ + "'");
  return plan_grid_read(read_space(), field, box, resolution, rank, size);
}

GridArray IdxDataset::read(const std::string& field, int64_t time,
                           const std::optional<std::array<std::array<int64_t, 3>, 2>>& box,
                           std::optional<int> resolution, IdxReadStats* stats) const {
  std::optional<GridBox> b;
  if (box) b = GridBox{(*box)[0], (*box)[1]};
  return read(field, time, b, resolution, MPI_COMM_NULL, stats);
}

GridArray IdxDataset::read(const std::string& field, int64_t time, const std::optional<GridBox>& box,
                           std::optional<int> resolution, MPI_Comm comm, IdxReadStats* stats) const {
  return agreed_read(comm, [&](int rank, int size) {
    return read_samples(read_part(field, time, box, resolution, rank, size), field, time, stats);
  });
}

void IdxDataset::abort_read(const Error& error, MPI_Comm comm) const { abort_agreed_read(error, comm); }

GridArray IdxDataset::read_samples(const GridReadPart& part, const std::string& field, int64_t time,
                                   IdxReadStats* stats) const {
  const IdxHeader& h = header_;
  const std::string what = "'" + path_ + "'";
  size_t fi = 0;
  while (fi < h.fields.size() && h.fields[fi].name != field) ++fi;
  if (fi == h.fields.size()) fail(ErrorCode::kInternal, what, ": field '", field, "' was planned but is not there");
  const IdxField& f = h.fields[fi];
  const HzIndex& hz = *index_;
  const int bpb = h.bits_per_block;
  const int r = part.resolution;
  const std::string time_dir = time_dir_of(h, time, what);

  // The part's box (inside the logic box: planned); its samples at resolution r.
  const std::array<int64_t, 3>&qlo = part.box.lo, &qhi = part.box.hi;
  const StridedBox lattice = hz.resolution_box(r);
  std::array<AxisRange, 3> q;
  for (int a = 0; a < 3; ++a) {
    q[a].delta = lattice.stride[a];
    const int64_t d = static_cast<int64_t>(q[a].delta);
    q[a].first = (qlo[a] + d - 1) / d * d;
    q[a].count = q[a].first < qhi[a] ? static_cast<uint64_t>((qhi[a] - 1 - q[a].first) / d + 1) : 0;
  }
  GridArray out;
  out.dtype = f.dtype;
  out.components = f.components;
  const size_t sb = dtype_size(f.dtype) * f.components;
  for (int a = 0; a < 3; ++a) out.shape[a] = q[a].count;
  const uint64_t n = q[0].count * q[1].count * q[2].count;
  out.bytes.allocate(n * sb);
  IdxReadStats st;
  st.bytes_returned = n * sb;
  if (n == 0) {
    if (stats) *stats = st;
    return out;
  }
  LatticeOut lattice_out;
  lattice_out.data = out.bytes.data();
  for (int a = 0; a < 3; ++a) {
    lattice_out.first[a] = q[a].first;
    lattice_out.delta[a] = q[a].delta;
    lattice_out.count[a] = q[a].count;
  }

  // Blocks of levels 0..r that meet the query, by file.
  const uint64_t bpf = static_cast<uint64_t>(h.blocks_per_file);
  const uint64_t last_block = r <= bpb ? 1 : uint64_t{1} << (r - bpb);
  std::map<uint64_t, std::vector<uint64_t>> by_file;
  for (uint64_t b = 0; b < last_block; ++b) {
    const StridedBox bb = hz.block_box(b, bpb);
    bool meets = true;
    for (int a = 0; a < 3 && meets; ++a) {
      uint64_t i0, i1;
      span_within(bb.start[a], bb.stride[a], bb.count[a], q[a].first, q[a].end(), i0, i1);
      meets = i1 > i0;
    }
    if (meets) by_file[b / bpf].push_back(b);
  }

  const uint64_t raw_bytes = (uint64_t{1} << bpb) * sb;
  std::vector<uint8_t> payload, decoded(raw_bytes), table;
  for (const auto& [file_no, blocks] : by_file) {
    const std::string path = idx_block_file(dir_, h.filename_template, time_dir, blocks.front(), bpf);
    if (!path_exists(path))
      fail(ErrorCode::kFormat, what, ": data file '", path, "' holding blocks ", file_no * bpf, "-",
           file_no * bpf + bpf - 1, " is missing");
    const File file(path, File::Mode::kRead);
    ++st.files_opened;
    const uint64_t size = file.size();
    const uint64_t tb = idx_table_bytes(bpf, h.fields.size());
    table.resize(std::min<uint64_t>(tb, size));
    file.pread_all(table.data(), table.size(), 0);
    st.bytes_read += table.size();
    const auto entries = decode_idx_table(table.data(), table.size(), bpf, h.fields.size(), size, "'" + path + "'");
    for (uint64_t b : blocks) {
      const IdxBlockEntry& e = entries[fi * bpf + b % bpf];
      if (!e.present())
        fail(ErrorCode::kFormat, "'", path, "' does not hold block ", b, " of field '", f.name,
             "' (its table entry is empty), which the query needs");
      payload.resize(e.size);
      file.pread_all(payload.data(), e.size, e.offset);
      st.bytes_read += e.size;
      ++st.blocks_read;
      const uint32_t codec = e.flags & kIdxCodecMask;
      const uint8_t* src = nullptr;
      if (codec == kIdxCodecRaw) {
        if (e.size != raw_bytes)
          fail(ErrorCode::kFormat, "'", path, "' block ", b, " of field '", f.name, "' has ", e.size,
               " bytes; a raw block has ", raw_bytes);
        src = payload.data();
      } else if (codec == kIdxCodecZip) {
        uLongf got = static_cast<uLongf>(raw_bytes);
        const int rc = ::uncompress(decoded.data(), &got, payload.data(), static_cast<uLong>(e.size));
        if (rc != Z_OK || got != raw_bytes)
          fail(ErrorCode::kFormat, "'", path, "' block ", b, " of field '", f.name, "' does not decode (zlib ",
               rc == Z_OK ? "gave " + std::to_string(got) + " bytes, expected " + std::to_string(raw_bytes)
                          : std::string(zError(rc)),
               ")");
        src = decoded.data();
      } else {
        fail(ErrorCode::kUnsupported, "'", path, "' block ", b, " uses codec ", codec,
             " (lz4, zfp, png, jpg); only raw and zip blocks are supported");
      }
      hz_decode_block(hz, b, bpb, r, (e.flags & kIdxRowMajor) != 0, src, sb, lattice_out);
    }
  }
  if (stats) *stats = st;
  return out;
}

}  // namespace lodex
