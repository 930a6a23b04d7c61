// Serial IDX reads (pipelines/grids/idx_dataset.hpp): the blocks of levels 0..r that meet the query, file
// by file, each decoded (raw or zlib) and scattered into the result with the per-level hz tables.
#include "pipelines/grids/idx_dataset.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <map>
#include <memory>

#include "format/idx_sums.hpp"
#include "layout/hz.hpp"
#include "pipelines/agreed_read.hpp"
#include "storage/file.hpp"
#include "storage/file_cache.hpp"

namespace lodex {

IdxDataset IdxDataset::open(const std::string& idx_path, bool allow_outside) {
  // A linked .idx file: its templates and its tree are those of the file the link leads to.
  const std::string real = real_path(idx_path);
  const std::string dir = parent_path(real.empty() ? idx_path : real);
  return open(idx_path, dir, Confinement(dir, allow_outside));
}

IdxDataset IdxDataset::open(const std::string& idx_path, const Confinement& confinement) {
  return open(idx_path, parent_path(idx_path), confinement);
}

IdxDataset IdxDataset::open(const std::string& idx_path, const std::string& dir, const Confinement& confinement) {
  IdxDataset d;
  d.path_ = idx_path;
  d.dir_ = dir;
  d.confinement_ = confinement;
  const std::vector<uint8_t> bytes = confinement.read_whole(idx_path, uint64_t{16} << 20);
  d.header_ = decode_idx_header(std::string(bytes.begin(), bytes.end()), "'" + idx_path + "'");
  d.index_ = std::make_shared<const HzIndex>(d.header_.bits);
  return d;
}

int IdxDataset::max_resolution() const { return index_->maxh(); }

namespace {

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
                           std::optional<int> resolution, MPI_Comm comm, IdxReadStats* stats,
                           const std::optional<Error>& input_error) const {
  const auto res_text = [](int r) { return std::to_string(r); };
  return agreed_read(
      comm, input_error, "IDX read",
      {{"file", path_},
       {"field", field},
       {"time", std::to_string(time)},
       {"box", argument_text(box, box_text)},
       {"resolution", argument_text(resolution, res_text)}},
      [&](int rank, int size) { return read_part(field, time, box, resolution, rank, size); },
      [&](const GridReadPart& part) { return read_samples(part, field, time, stats); });
}

namespace {

// The query's lattice at resolution r over the part's box, and its size checked against the limit.
LatticeOut query_lattice(const HzIndex& hz, const GridReadPart& part, size_t sample_bytes, const std::string& what) {
  const StridedBox lattice = hz.resolution_box(part.resolution);
  LatticeOut q;
  for (int a = 0; a < 3; ++a) {
    q.delta[a] = lattice.stride[a];
    const int64_t d = static_cast<int64_t>(q.delta[a]), lo = part.box.lo[a], hi = part.box.hi[a];
    q.first[a] = (lo + d - 1) / d * d;
    q.count[a] = q.first[a] < hi ? static_cast<uint64_t>((hi - 1 - q.first[a]) / d + 1) : 0;
  }
  require_read_within_limit(q.count, sample_bytes, what);
  return q;
}

// A block's stored bytes against the checksum lodex recorded when it wrote them.
void verify_block(uint64_t expected, const uint8_t* bytes, const IdxBlockEntry& e, uint64_t block, uint32_t field,
                  const std::string& path, const std::string& field_name) {
  if (expected == 0)
    fail(ErrorCode::kFormat, "'", path, "' holds block ", block, " of field '", field_name,
         "', which the step's checksum file says was never written (a forged or replaced block table)");
  if (idx_block_sum(bytes, e.size, block, field, e.flags) != expected)
    fail(ErrorCode::kFormat, "'", path, "' block ", block, " of field '", field_name,
         "' does not match its checksum (damaged, or the block file or its table was replaced)");
}

}  // namespace

uint64_t read_limit_bytes() {
  if (const char* env = std::getenv("LODEX_MAX_READ_BYTES"); env && *env) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (end && *end == 0 && v > 0) return v;
    fail(ErrorCode::kInvalidArgument, "LODEX_MAX_READ_BYTES='", env, "' is not a positive number of bytes");
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : UINT64_MAX;
}

void require_read_within_limit(const std::array<uint64_t, 3>& shape, size_t sample_bytes, const std::string& what) {
  const uint64_t limit = read_limit_bytes();
  uint64_t bytes = sample_bytes;
  for (int a = 0; a < 3; ++a) {
    if (shape[a] != 0 && bytes > limit / shape[a])
      fail(ErrorCode::kInvalidArgument, what, ": the read would return ", shape[0], " x ", shape[1], " x ", shape[2],
           " samples of ", sample_bytes, " bytes, more than the limit of ", limit,
           " bytes (this machine's memory unless LODEX_MAX_READ_BYTES says otherwise); read a box or a coarser "
           "resolution");
    bytes *= shape[a];
  }
}

std::vector<IdxDataset::LocatedBlock> IdxDataset::locate_blocks(const std::vector<uint64_t>& blocks, size_t fi,
                                                                const std::string& time_dir, FileCache& files,
                                                                IdxReadStats& st) const {
  const IdxHeader& h = header_;
  const std::string what = "'" + path_ + "'";
  const uint64_t bpf = static_cast<uint64_t>(h.blocks_per_file);
  std::vector<LocatedBlock> out;
  std::vector<uint8_t> table;
  for (size_t i = 0; i < blocks.size();) {
    const uint64_t file_no = blocks[i] / bpf;
    const std::string path = idx_block_file(dir_, h.filename_template, time_dir, blocks[i], bpf);
    if (!path_exists(path))
      fail(ErrorCode::kFormat, what, ": data file '", path, "' holding blocks ", file_no * bpf, "-",
           file_no * bpf + bpf - 1, " is missing");
    const File& file = files.get(path);
    const uint64_t size = file.size();
    table.resize(std::min<uint64_t>(idx_table_bytes(bpf, h.fields.size()), size));
    file.pread_all(table.data(), table.size(), 0);
    st.bytes_read += table.size();
    const auto entries = decode_idx_table(table.data(), table.size(), bpf, h.fields.size(), size, "'" + path + "'");
    for (; i < blocks.size() && blocks[i] / bpf == file_no; ++i) {
      const IdxBlockEntry& e = entries[fi * bpf + blocks[i] % bpf];
      if (!e.present())
        fail(ErrorCode::kFormat, "'", path, "' does not hold block ", blocks[i], " of field '", h.fields[fi].name,
             "' (its table entry is empty), which the query needs");
      out.push_back({path, blocks[i], e});
    }
  }
  return out;
}

std::vector<uint64_t> IdxDataset::load_sums(const std::vector<LocatedBlock>& located, size_t fi, int64_t time,
                                            const std::string& time_dir, FileCache& files, IdxReadStats& st) const {
  const IdxHeader& h = header_;
  const std::string path = idx_sums_path(path_, time_dir);
  if (!path_exists(path)) {
    if (sums_required_)
      fail(ErrorCode::kFormat, "'", path_, "': the block checksums of this step, '", path,
           "', are missing (the dataset's manifest records them)");
    return {};
  }
  const int bpb = std::min(h.bits_per_block, index_->maxh());
  const IdxSumsHeader expected{
      idx_sums_identity(h.dims(), h.bits, h.bits_per_block, static_cast<uint64_t>(h.blocks_per_file), h.fields, time),
      uint64_t{1} << (index_->maxh() - bpb), static_cast<uint32_t>(h.fields.size())};
  const File& file = files.get(path);
  std::vector<uint8_t> head(kIdxSumsHeaderBytes);
  const uint64_t size = file.size();
  head.resize(std::min<uint64_t>(size, kIdxSumsHeaderBytes));
  file.pread_all(head.data(), head.size(), 0);
  st.bytes_read += head.size();
  check_idx_sums_header(head.data(), head.size(), size, expected, "'" + path + "'");
  // Runs of nearby blocks share one read; a sparse query reads its entries one run at a time.
  std::vector<uint64_t> sums(located.size());
  std::vector<uint64_t> run;
  for (size_t i = 0; i < located.size();) {
    size_t j = i + 1;
    while (j < located.size() && located[j].block - located[j - 1].block <= 64) ++j;
    const uint64_t first = located[i].block, count = located[j - 1].block - first + 1;
    run.resize(count);
    file.pread_all(run.data(), count * 8, idx_sums_offset(expected, static_cast<uint32_t>(fi), first));
    st.bytes_read += count * 8;
    for (; i < j; ++i) sums[i] = run[located[i].block - first];
  }
  return sums;
}

void IdxDataset::decode_blocks(const std::vector<LocatedBlock>& located, const std::vector<uint64_t>& sums, size_t fi,
                               int r, FileCache& files, LatticeOut& lattice, IdxReadStats& st) const {
  const IdxHeader& h = header_;
  const IdxField& f = h.fields[fi];
  const int bpb = h.bits_per_block;
  const size_t sb = dtype_size(f.dtype) * f.components;
  const uint64_t raw_bytes = (uint64_t{1} << bpb) * sb;
  std::vector<uint8_t> payload, decoded(raw_bytes);
  for (size_t i = 0; i < located.size(); ++i) {
    const IdxBlockEntry& e = located[i].entry;
    const std::string& path = located[i].path;
    const uint64_t b = located[i].block;
    payload.resize(e.size);
    files.get(path).pread_all(payload.data(), e.size, e.offset);
    st.bytes_read += e.size;
    ++st.blocks_read;
    if (!sums.empty()) verify_block(sums[i], payload.data(), e, b, static_cast<uint32_t>(fi), path, f.name);
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
    hz_decode_block(*index_, b, bpb, r, (e.flags & kIdxRowMajor) != 0, src, sb, lattice);
  }
}

// Phases: the query's lattice (size checked against the limit) -> the blocks meeting it -> their
// files' tables read and every needed block found present -> the answer allocated -> blocks decoded.
// A forged or damaged header fails in the first three, before the answer's memory is taken.
GridArray IdxDataset::read_samples(const GridReadPart& part, const std::string& field, int64_t time,
                                   IdxReadStats* stats) const {
  const IdxHeader& h = header_;
  const std::string what = "'" + path_ + "'";
  size_t fi = 0;
  while (fi < h.fields.size() && h.fields[fi].name != field) ++fi;
  if (fi == h.fields.size()) fail(ErrorCode::kInternal, what, ": field '", field, "' was planned but is not there");
  const IdxField& f = h.fields[fi];
  const std::string time_dir = time_dir_of(h, time, what);
  const size_t sb = dtype_size(f.dtype) * f.components;
  LatticeOut lattice = query_lattice(*index_, part, sb, what);

  GridArray out;
  out.dtype = f.dtype;
  out.components = f.components;
  out.shape = lattice.count;
  const uint64_t n = lattice.count[0] * lattice.count[1] * lattice.count[2];
  IdxReadStats st;
  st.bytes_returned = n * sb;
  if (n == 0) {
    out.bytes.allocate(0);
    if (stats) *stats = st;
    return out;
  }
  std::array<int64_t, 3> end;
  for (int a = 0; a < 3; ++a) end[a] = lattice.end(a);
  const std::vector<uint64_t> blocks = blocks_meeting(*index_, h.bits_per_block, part.resolution, lattice.first, end);
  FileCache files(64, confinement_);
  const std::vector<LocatedBlock> located = locate_blocks(blocks, fi, time_dir, files, st);
  const std::vector<uint64_t> sums = load_sums(located, fi, time, time_dir, files, st);
  out.bytes.allocate(n * sb);
  lattice.data = out.bytes.data();
  decode_blocks(located, sums, fi, part.resolution, files, lattice, st);
  st.files_opened = files.opens();
  if (stats) *stats = st;
  return out;
}

}  // namespace lodex
