// Serial IDX writes (pipelines/grids/idx_dataset.hpp): every block of every field encoded into hz
// order (layout/hz.hpp: per-level and per-block tables, typed sample copies), optionally
// zlib-compressed, then the .idx header.
//
// Raw files are assembled in place: the file's size is known before any block is encoded, so each
// block goes straight to its offset in the file image, and a write-behind thread writes finished
// runs of blocks while the next ones are encoded. Zipped files are written once assembled.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "core/scratch_buffer.hpp"
#include "core/worker_pool.hpp"
#include "format/idx_sums.hpp"
#include "layout/hz.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/grids/idx_dataset.hpp"
#include "pipelines/grids/idx_zip.hpp"
#include "storage/file.hpp"
#include "storage/write_behind.hpp"

namespace lodex {

namespace {

// Encoded bytes handed to the write-behind thread at a time.
constexpr uint64_t kWriteRunBytes = uint64_t{4} << 20;

std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  if (b.size() > 4 && b.compare(b.size() - 4, 4, ".idx") == 0) b.resize(b.size() - 4);
  return b;
}

// The checked parameters of one write.
struct IdxWrite {
  Coord3 dims{1, 1, 1};
  std::unique_ptr<HzIndex> hz;
  int bpb = 0;
  uint64_t nblocks = 0, bpf = 0;
  IdxHeader header;
  std::string dir, time_dir;
  int64_t step = 0;                   // 0 without time steps
  std::vector<const uint8_t*> data;   // per field
  std::vector<size_t> sample;         // bytes per sample, per field
  std::map<int, std::unique_ptr<BlockOrder>> orders;   // per level past bpb (read by encoding threads)
  std::vector<uint64_t> sums;         // idx_block_sum per (field, block), field-major; 0: not written

  uint64_t raw_bytes(size_t f) const { return (uint64_t{1} << bpb) * sample[f]; }
  // Points of block b inside the grid per axis (0 on some axis: the block holds no sample).
  Coord3 inside(uint64_t b) const {
    const StridedBox bb = hz->block_box(b, bpb);
    Coord3 n{};
    for (int a = 0; a < 3; ++a) {
      uint64_t i0;
      span_within(bb.start[a], bb.stride[a], bb.count[a], 0, static_cast<int64_t>(dims[a]), i0, n[a]);
    }
    return n;
  }
  bool present(uint64_t b) const {
    const Coord3 n = inside(b);
    return n[0] && n[1] && n[2];
  }
  // Encodes block b of field f into `out` (raw_bytes(f)); samples outside the grid are 0.
  void encode(size_t f, uint64_t b, uint8_t* out) {
    const StridedBox bb = hz->block_box(b, bpb);
    const Coord3 n = inside(b);
    if (n[0] < bb.count[0] || n[1] < bb.count[1] || n[2] < bb.count[2] || b == 0) std::memset(out, 0, raw_bytes(f));
    const BlockOrder* order = b > 0 ? orders.at(HzIndex::level_of_block(b, bpb)).get() : nullptr;
    const size_t sb = sample[f];
    hz_encode_block(*hz, b, bpb, order, data[f], {sb, sb * dims[0], sb * dims[0] * dims[1]}, dims, sb, out);
  }
};

IdxWrite check_write(const std::string& idx_path, const std::array<uint64_t, 3>& dims, int ndims,
                     const std::vector<IdxFieldData>& fields, const IdxWriteOptions& o) {
  if (ndims < 1 || ndims > 3) fail(ErrorCode::kInvalidArgument, "grids have 1 to 3 axes, not ", ndims);
  if (fields.empty()) fail(ErrorCode::kInvalidArgument, "an IDX write needs at least one field");
  IdxWrite w;
  for (int a = 0; a < ndims; ++a) {
    if (dims[a] < 1) fail(ErrorCode::kInvalidArgument, "grid dimension ", "xyz"[a], " is ", dims[a]);
    w.dims[a] = dims[a];
  }
  const std::string bits = o.bitmask.empty() ? HzIndex::default_bitmask(w.dims, ndims) : o.bitmask;
  w.hz = std::make_unique<HzIndex>(bits);
  w.hz->require_fits(w.dims, ndims);
  if (o.bits_per_block < 1 || o.bits_per_block > 31)
    fail(ErrorCode::kInvalidArgument, "bits_per_block ", o.bits_per_block, " is outside 1..31");
  w.bpb = std::min(o.bits_per_block, w.hz->maxh());
  w.nblocks = uint64_t{1} << (w.hz->maxh() - w.bpb);
  if (o.blocks_per_file == 0 || o.blocks_per_file < -1)
    fail(ErrorCode::kInvalidArgument, "blocks_per_file ", o.blocks_per_file, " must be positive (or -1: one file)");
  w.bpf = o.blocks_per_file == -1 ? w.nblocks : static_cast<uint64_t>(o.blocks_per_file);
  std::vector<IdxField> header_fields;
  for (const auto& f : fields) {
    if (!f.data) fail(ErrorCode::kInvalidArgument, "field '", f.field.name, "' has no data");
    header_fields.push_back(f.field);
    w.data.push_back(static_cast<const uint8_t*>(f.data));
    w.sample.push_back(dtype_size(f.field.dtype) * f.field.components);
  }
  w.header = idx_write_header(base_name(idx_path), w.dims, ndims, header_fields, bits, w.bpb, w.bpf, o.zip, o.time);
  w.dir = parent_path(idx_path);
  w.time_dir = idx_time_dir(o.time, o.step);
  w.step = o.time ? o.step : 0;
  for (int level = w.bpb + 1; level <= w.hz->maxh(); ++level)
    w.orders[level] = std::make_unique<BlockOrder>(*w.hz, w.bpb, level);
  w.sums.assign(w.nblocks * fields.size(), 0);
  return w;
}

// One file of raw blocks: table, then each field's present blocks in order. Returns its size (0:
// no block holds data, no file). Blocks are encoded into two alternating run buffers: while the
// write-behind thread writes one run, the next is encoded into the other (a whole-file image would
// cost a page fault per 4 KiB of fresh memory).
uint64_t write_raw_file(IdxWrite& w, uint64_t first, std::array<ScratchBuffer, 2>& runs, WriteBehind& writer) {
  const size_t F = w.data.size();
  const uint64_t last = std::min(w.nblocks, first + w.bpf);
  const uint64_t table = idx_table_bytes(w.bpf, F);
  std::vector<IdxBlockEntry> entries(w.bpf * F);
  uint64_t size = table, largest = 0;
  for (size_t f = 0; f < F; ++f) {
    largest = std::max(largest, w.raw_bytes(f));
    for (uint64_t b = first; b < last; ++b)
      if (w.present(b)) {
        entries[f * w.bpf + (b - first)] = {size, w.raw_bytes(f), kIdxCodecRaw};
        size += w.raw_bytes(f);
      }
  }
  if (size == table) return 0;
  const std::string path = idx_block_file(w.dir, w.header.filename_template, w.time_dir, first, w.bpf);
  make_directories(parent_path(path));
  std::vector<uint8_t> table_bytes;
  encode_idx_table(entries, table_bytes);
  writer.begin_in_place(path, size);   // every byte is written: table, then blocks back to back
  try {
    writer.write(table_bytes.data(), table, 0);
    const uint64_t capacity = std::max(kWriteRunBytes, largest);
    // The present blocks (field, block) in file order, cut into runs of at most `capacity` bytes.
    std::vector<std::pair<size_t, uint64_t>> blocks;
    for (size_t f = 0; f < F; ++f)
      for (uint64_t b = first; b < last; ++b)
        if (entries[f * w.bpf + (b - first)].present()) blocks.push_back({f, b});
    const size_t threads = std::max(1u, std::thread::hardware_concurrency());
    int current = 0;
    for (size_t i = 0; i < blocks.size();) {
      const uint64_t run_start = entries[blocks[i].first * w.bpf + (blocks[i].second - first)].offset;
      size_t j = i;
      uint64_t run_bytes = 0;
      while (j < blocks.size() && run_bytes + w.raw_bytes(blocks[j].first) <= capacity)
        run_bytes += w.raw_bytes(blocks[j++].first);
      writer.wait_pending(1);   // the run last written from this buffer is on disk (in the cache)
      uint8_t* run = runs[current].reserve(capacity);
      // Blocks encode independently: the run's blocks are shared by the cores (the writer's included).
      parallel_for(j - i, threads, [&](size_t t, size_t) {
        const auto [f, b] = blocks[i + t];
        uint8_t* at = run + (entries[f * w.bpf + (b - first)].offset - run_start);
        w.encode(f, b, at);
        w.sums[f * w.nblocks + b] = idx_block_sum(at, w.raw_bytes(f), b, static_cast<uint32_t>(f), kIdxCodecRaw);
      });
      writer.write(run, run_bytes, run_start);
      current ^= 1;
      i = j;
    }
    writer.finish(false);
  } catch (...) {
    try {   // the runs must outlive the queued writes
      writer.finish(false);
    } catch (const Error&) {
    }
    throw;
  }
  return size;
}

// One file of zlib blocks: sizes are known only once compressed, so it is assembled, then written.
uint64_t write_zip_file(IdxWrite& w, uint64_t first) {
  const size_t F = w.data.size();
  const uint64_t last = std::min(w.nblocks, first + w.bpf);
  const uint64_t table = idx_table_bytes(w.bpf, F);
  std::vector<IdxBlockEntry> entries(w.bpf * F);
  std::vector<uint8_t> file_bytes(table, 0), raw, packed;
  for (size_t f = 0; f < F; ++f)
    for (uint64_t b = first; b < last; ++b) {
      if (!w.present(b)) continue;
      raw.resize(w.raw_bytes(f));
      w.encode(f, b, raw.data());
      const uint64_t size = zip_block(raw.data(), raw.size(), packed, b);
      w.sums[f * w.nblocks + b] = idx_block_sum(packed.data(), size, b, static_cast<uint32_t>(f), kIdxCodecZip);
      entries[f * w.bpf + (b - first)] = {file_bytes.size(), size, kIdxCodecZip};
      file_bytes.insert(file_bytes.end(), packed.begin(), packed.begin() + static_cast<long>(size));
    }
  if (file_bytes.size() == table) return 0;
  for (size_t f = 0; f < F; ++f) {
    std::vector<IdxBlockEntry> slice(entries.begin() + f * w.bpf, entries.begin() + (f + 1) * w.bpf);
    mark_absent_zip(slice);
    std::copy(slice.begin(), slice.end(), entries.begin() + f * w.bpf);
  }
  std::vector<uint8_t> table_bytes;
  encode_idx_table(entries, table_bytes);
  std::memcpy(file_bytes.data(), table_bytes.data(), table);
  const std::string path = idx_block_file(w.dir, w.header.filename_template, w.time_dir, first, w.bpf);
  make_directories(parent_path(path));
  File out(path, File::Mode::kShare);   // rewritten in place: the cached pages are reused
  out.truncate(file_bytes.size());
  out.pwrite_all(file_bytes.data(), file_bytes.size(), 0);
  out.close();
  return file_bytes.size();
}

// The step's block checksums (format/idx_sums.hpp), replaced atomically like the header.
uint64_t write_sums(const IdxWrite& w, const std::string& idx_path) {
  const IdxSumsHeader h{idx_sums_identity(w.dims, w.header.bits, w.bpb, w.bpf, w.header.fields, w.step), w.nblocks,
                        static_cast<uint32_t>(w.data.size())};
  std::vector<uint8_t> bytes = encode_idx_sums_header(h);
  const size_t at = bytes.size();
  bytes.resize(idx_sums_bytes(h));
  std::memcpy(bytes.data() + at, w.sums.data(), w.sums.size() * 8);
  const std::string path = idx_sums_path(idx_path, w.time_dir);
  make_directories(parent_path(path));
  replace_file(path, bytes, false);
  return bytes.size();
}

}  // namespace

uint64_t write_idx(const std::string& idx_path, const std::array<uint64_t, 3>& dims, int ndims,
                   const std::vector<IdxFieldData>& fields, const IdxWriteOptions& o) {
  IdxWrite w = check_write(idx_path, dims, ndims, fields, o);
  // Kept for the next call: fresh buffers would cost a page fault per 4 KiB every time.
  static std::mutex runs_lock;
  static std::array<ScratchBuffer, 2> runs;
  const std::lock_guard<std::mutex> lock(runs_lock);
  WriteBehind writer;
  uint64_t written = 0;
  for (uint64_t first = 0; first < w.nblocks; first += w.bpf)
    written += o.zip ? write_zip_file(w, first) : write_raw_file(w, first, runs, writer);
  written += write_sums(w, idx_path);
  // Atomic against readers (write and rename), not durable: the block files are not synced either.
  const std::string text = encode_idx_header(w.header);
  replace_file(idx_path, bytes_of(text), false);
  return written + text.size();
}

}  // namespace lodex
