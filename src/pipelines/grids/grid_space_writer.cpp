#include "pipelines/grids/grid_space_writer.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstring>

#include "format/idx.hpp"
#include "format/idx_sums.hpp"
#include "pipelines/box_copy.hpp"
#include "pipelines/grids/idx_zip.hpp"
#include "storage/file.hpp"

namespace lodex {

std::array<uint64_t, 3> ArrayView::stride(size_t sample) const {
  const uint64_t nx = static_cast<uint64_t>(box.hi[0] - box.lo[0]), ny = static_cast<uint64_t>(box.hi[1] - box.lo[1]);
  return {sample, sample * nx, sample * nx * ny};
}

uint64_t ArrayView::offset(const std::array<int64_t, 3>& p, size_t sample) const {
  const auto s = stride(sample);
  return static_cast<uint64_t>(p[0] - box.lo[0]) * s[0] + static_cast<uint64_t>(p[1] - box.lo[1]) * s[1] +
         static_cast<uint64_t>(p[2] - box.lo[2]) * s[2];
}

Exchange::SubBox ArrayView::sub(size_t field, const GridBox& part, size_t sample) const {
  return sub_box(data[field], box, part, sample);
}

namespace {

constexpr int kTagRestructure = 31, kTagAggregate = 32, kTagMerge = 33;

bool same_input(const GridPlanInput& a, const GridPlanInput& b) {
  return a.dims == b.dims && a.tmpl.bitmask == b.tmpl.bitmask && a.tmpl.brick_bits == b.tmpl.brick_bits &&
         a.tmpl.order == b.tmpl.order && a.tmpl.derived == b.tmpl.derived && a.bits_per_block == b.bits_per_block &&
         a.blocks_per_file == b.blocks_per_file && a.fields == b.fields && a.aggregation == b.aggregation &&
         a.boxes == b.boxes && a.partitions == b.partitions;
}

}  // namespace

// A block's payload for the file: raw (inside the unit buffer) or zipped (in `packed`).
struct GridPayload {
  uint64_t slot = 0;
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  uint32_t flags = 0;
};

// This rank's side of one space's write; the phases below run in this order. It lives until the
// files are written: on the caller's thread for write, on a helper thread for write_async.
struct SpaceWrite {
  const Comm& comm;
  const SpaceTarget& t;
  const ArrayView& mine;
  const std::vector<size_t>& sample;
  GridScratch& scratch;
  SpaceOutcome& out;
  const GridPlan& plan;
  bool stream = false;   // units gathered and written window by window (streamed_units)
  int me = 0;
  size_t F = 0;
  GridBox grid;
  std::string tmpl;   // the file name template
  // restructure -> encode
  std::vector<ArrayView> brick_src;        // per owned brick: where its samples are
  // encode -> aggregate
  std::vector<size_t> my_units;            // units this rank writes
  std::vector<uint64_t> direct;            // per (brick slot, field): levels encoded into unit buffers
  // compress -> write
  std::map<size_t, std::vector<GridPayload>> payloads;
  std::vector<std::vector<uint8_t>> packed;
  std::vector<uint64_t> totals;            // payload bytes per unit (every unit, agreed)

  int level_at(int h) const { return std::min<int>(h + t.level_shift, static_cast<int>(out.encode_s.size()) - 1); }
  bool collects(const GridUnit& u) const { return plan.collector(u, me) == me; }
};

namespace {

// ---- restructure: whole bricks at their owners ----
void restructure(SpaceWrite& w) {
  const std::vector<uint64_t>& owned = w.plan.bricks_of(w.me);
  const uint64_t brick_samples = uint64_t{1} << w.plan.brick_bits();
  w.brick_src.assign(owned.size(), {});
  std::vector<std::vector<uint8_t>>& dense = w.scratch.dense;
  size_t ndense = 0;
  std::map<int, std::vector<Exchange::SubBox>> recv_boxes, send_boxes;
  for (size_t i = 0; i < owned.size(); ++i) {
    const GridBox bb = w.plan.brick_box(owned[i]);
    const GridBox valid = bb.intersect(w.grid);
    if (valid.intersect(w.mine.box) == valid) {   // all of it is here: read it in place
      w.brick_src[i] = w.mine;
      continue;
    }
    w.brick_src[i].box = bb;
    for (size_t f = 0; f < w.F; ++f) {
      if (ndense == dense.size()) dense.emplace_back();
      std::vector<uint8_t>& d = dense[ndense++];
      d.resize(brick_samples * w.sample[f]);
      if (!(valid == bb)) std::fill(d.begin(), d.end(), 0);   // samples outside the grid
      w.brick_src[i].data.push_back(d.data());
      const GridBox part = bb.intersect(w.mine.box);
      if (!part.empty()) copy_region(w.mine.data[f], w.mine.box, d.data(), w.brick_src[i].box, part, w.sample[f]);
    }
    for (int s = 0; s < w.comm.size(); ++s) {
      if (s == w.me) continue;
      const GridBox part = bb.intersect(w.t.in.boxes[s]);
      if (part.empty()) continue;
      for (size_t f = 0; f < w.F; ++f) {
        recv_boxes[s].push_back(w.brick_src[i].sub(f, part, w.sample[f]));
        w.out.restructured += part.volume() * w.sample[f];
      }
    }
  }
  for (uint64_t b : w.plan.bricks_meeting(w.mine.box)) {
    const int o = w.plan.owner(b);
    if (o == w.me || o < 0) continue;
    const GridBox part = w.plan.brick_box(b).intersect(w.mine.box);
    if (part.empty()) continue;
    for (size_t f = 0; f < w.F; ++f) send_boxes[o].push_back(w.mine.sub(f, part, w.sample[f]));
  }
  // Both sides list a pair's parts by brick (ascending), then field, so the types match.
  Exchange ex(w.comm);
  for (auto& [s, list] : recv_boxes) ex.irecv_boxes(list, s, kTagRestructure);
  for (auto& [o, list] : send_boxes) ex.isend_boxes(list, o, kTagRestructure);
  ex.wait_all();   // busy on both sides: a sender packs a derived type piece by piece as it is polled
}

// The buffers of the units this rank collects; blocks partly outside the grid are zeroed there.
void prepare_units(SpaceWrite& w) {
  const auto& units = w.plan.units();
  const int bpb = w.plan.bits_per_block();
  const uint64_t bpf = w.t.in.blocks_per_file;
  auto& unit_buf = w.scratch.units;
  if (w.stream) {   // no unit buffer: a window of blocks at a time (streamed_units)
    std::map<size_t, std::vector<uint8_t>>().swap(unit_buf);
    w.my_units.clear();
    for (size_t u = 0; u < units.size(); ++u)
      if (units[u].aggregator == w.me) w.my_units.push_back(u);
    return;
  }
  for (auto it = unit_buf.begin(); it != unit_buf.end();)   // units this rank no longer collects
    it = units.size() > it->first && w.collects(units[it->first]) ? std::next(it) : unit_buf.erase(it);
  w.my_units.clear();
  for (size_t u = 0; u < units.size(); ++u) {
    if (!w.collects(units[u])) continue;
    if (units[u].aggregator == w.me) w.my_units.push_back(u);
    auto& buf = unit_buf[u];
    const size_t sb = w.sample[units[u].field];
    const uint64_t first = units[u].file * bpf;
    // The file's blocks that exist in the index (a small grid's one file holds fewer than bpf):
    // only those, never blocks_per_file of them (8 x a 128^3 f4 grid at the default 256 x 2^15).
    buf.resize((std::min(w.plan.blocks(), first + bpf) - first) * (uint64_t{1} << bpb) * sb);
    for (uint64_t b = first; b < std::min(w.plan.blocks(), first + bpf); ++b)
      if (w.plan.block_present(b) && w.plan.block_partial(b))
        std::memset(buf.data() + ((b - first) << bpb) * sb, 0, (uint64_t{1} << bpb) * sb);
  }
}

// ---- hz_encode: a level of a brick whose run lies in a unit this rank collects is encoded
// straight into that unit's buffer (no copy at the aggregation); the others go through the
// brick's encoded buffer ----
void encode(SpaceWrite& w) {
  prepare_units(w);
  const HzIndex& local = w.plan.local_index();
  const int n = w.plan.index().maxh(), p = w.plan.brick_bits();
  const uint64_t brick_samples = uint64_t{1} << p, fs = w.plan.file_samples();
  const auto& units = w.plan.units();
  const std::vector<uint64_t>& files = w.plan.files();
  const std::vector<uint64_t>& owned = w.plan.bricks_of(w.me);
  std::vector<std::vector<uint8_t>>& encoded = w.scratch.encoded;   // [brick slot * F + field]
  if (encoded.size() < owned.size() * w.F) encoded.resize(owned.size() * w.F);
  w.direct.assign(owned.size() * w.F, 0);
  std::vector<uint8_t*> level_out(p + 1);
  for (size_t i = 0; i < owned.size(); ++i) {
    const GridBox bb = w.plan.brick_box(owned[i]);
    const GridBox valid = bb.intersect(w.grid);
    Coord3 vext;
    for (int a = 0; a < 3; ++a) vext[a] = static_cast<uint64_t>(valid.hi[a] - valid.lo[a]);
    const bool partial = !(valid == bb);
    const uint64_t origin_v = (owned[i] << p) | (uint64_t{1} << n);
    const uint64_t origin_hz = origin_v >> (__builtin_ctzll(origin_v) + 1);
    const int origin_level = HzIndex::level_of(origin_hz);
    for (size_t f = 0; f < w.F; ++f) {
      const size_t sb = w.sample[f];
      uint64_t& mask = w.direct[i * w.F + f];
      for (int h = 0; h <= p; ++h) {   // where each level's run goes, when it is one of this rank's units
        const uint64_t g0 = h == 0 ? origin_hz : (uint64_t{1} << (n - p + h - 1)) + (owned[i] << (h - 1));
        const uint64_t len = h == 0 ? 1 : uint64_t{1} << (h - 1);
        level_out[h] = nullptr;
        if (w.stream) continue;
        if (g0 / fs != (g0 + len - 1) / fs) continue;
        const auto it = std::lower_bound(files.begin(), files.end(), g0 / fs);
        if (it == files.end() || *it != g0 / fs) continue;
        const size_t u = static_cast<size_t>(it - files.begin()) * w.F + f;
        if (!w.collects(units[u])) continue;
        level_out[h] = w.scratch.units[u].data() + (g0 - units[u].file * fs) * sb;
        mask |= uint64_t{1} << h;
      }
      uint8_t* enc = nullptr;
      if (mask != (uint64_t{2} << p) - 1) {
        auto& e = encoded[i * w.F + f];
        e.resize(brick_samples * sb);
        if (partial) std::fill(e.begin(), e.end(), 0);
        enc = e.data();
      }
      const ArrayView& src = w.brick_src[i];
      const uint8_t* origin = src.data[f] + src.offset(bb.lo, sb);
      const auto stride = src.stride(sb);
      for (int h = 0; h <= p; ++h) {
        const double t0 = wall_seconds();
        if (level_out[h]) hz_encode_level_run(local, h, origin, stride, vext, sb, level_out[h]);
        else hz_encode_level(local, h, origin, stride, vext, sb, enc);
        w.out.encode_s[w.level_at(h == 0 ? origin_level : n - p + h)] += wall_seconds() - t0;
      }
    }
  }
}

// ---- aggregate: runs to their collectors; then shared files merged at their aggregators ----
void aggregate(SpaceWrite& w, const Comm& comm) {
  const uint64_t fs = w.plan.file_samples();
  const auto& units = w.plan.units();
  const std::vector<uint64_t>& owned = w.plan.bricks_of(w.me);
  const uint32_t my_part = w.plan.partition_of_rank(w.me);
  std::map<uint64_t, std::vector<std::pair<size_t, BrickRun>>> my_runs;   // file -> (brick slot, run)
  for (size_t i = 0; i < owned.size(); ++i)
    for (const BrickRun& r : w.plan.brick_runs(owned[i])) my_runs[r.global / fs].push_back({i, r});
  for (auto& [file, list] : my_runs)
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second.global < b.second.global; });
  w.out.aggregator = !w.my_units.empty();
  std::map<int, std::vector<Exchange::Range>> sends, recvs, merge_sends, merge_recvs;
  for (size_t u = 0; u < units.size(); ++u) {
    const GridUnit& unit = units[u];
    const size_t sb = w.sample[unit.field];
    const uint64_t A = unit.file * fs;
    const int to = w.plan.collector(unit, w.me);
    auto mr = my_runs.find(unit.file);
    if (mr != my_runs.end())
      for (const auto& [slot, r] : mr->second) {
        w.out.aggregated += r.count * sb;
        const uint8_t* enc = w.scratch.encoded[slot * w.F + unit.field].data();
        if (to != w.me) {
          sends[to].push_back({enc + r.local * sb, r.count * sb});
          continue;
        }
        // A run may span several levels (they are adjacent in hz); the levels encoded in place
        // are already there.
        const uint64_t in_place = w.direct[slot * w.F + unit.field];
        for (uint64_t l = r.local, end = r.local + r.count; l < end;) {
          const int h = HzIndex::level_of(l);
          const uint64_t stop = std::min(end, h == 0 ? uint64_t{1} : uint64_t{1} << h);
          if (!((in_place >> h) & 1))
            std::memcpy(w.scratch.units[u].data() + (r.global + (l - r.local) - A) * sb, enc + l * sb, (stop - l) * sb);
          l = stop;
        }
      }
    if (to != w.me) continue;
    const bool final = unit.aggregator == w.me;
    for (const BrickRun& r : w.plan.file_runs(unit.file)) {
      const int s = w.plan.owner(r.brick);
      uint8_t* at = w.scratch.units[u].data() + (r.global - A) * sb;
      if (w.plan.collector(unit, s) == w.me) {   // from an owner of this partition
        if (s != w.me) recvs[s].push_back({at, r.count * sb});
      } else if (final) {                        // merged from another partition's collector
        merge_recvs[w.plan.collector(unit, s)].push_back({at, r.count * sb});
      }
      if (!final && w.plan.partition_of_brick(r.brick) == my_part)
        merge_sends[unit.aggregator].push_back({at, r.count * sb});
    }
  }
  Exchange ex(comm);
  for (auto& [s, list] : recvs) ex.irecv_ranges(list, s, kTagAggregate);
  for (auto& [a, list] : sends) ex.isend_ranges(list, a, kTagAggregate);
  ex.wait_all();   // busy on both sides (derived types: see restructure)
  // The merge of the coarse blocks partitions share (after this rank's partition is gathered).
  for (auto& [s, list] : merge_recvs) ex.irecv_ranges(list, s, kTagMerge);
  for (auto& [a, list] : merge_sends) ex.isend_ranges(list, a, kTagMerge);
  ex.wait_all();
}

// ---- compress: the payload of every block this rank writes ----
void compress(SpaceWrite& w) {
  const auto& units = w.plan.units();
  const int bpb = w.plan.bits_per_block();
  const uint64_t bpf = w.t.in.blocks_per_file;
  for (size_t u : w.my_units) {
    const GridUnit& unit = units[u];
    const uint64_t raw = (uint64_t{1} << bpb) * w.sample[unit.field];
    const uint64_t first = unit.file * bpf;
    for (uint64_t b = first; b < std::min(w.plan.blocks(), first + bpf); ++b) {
      if (!w.plan.block_present(b)) continue;
      const uint8_t* data = w.scratch.units[u].data() + (b - first) * raw;
      GridPayload pl{b - first, data, raw, kIdxCodecRaw};
      if (w.t.zip) {
        w.packed.emplace_back();
        const uint64_t len = zip_block(data, raw, w.packed.back(), b);
        pl = {b - first, w.packed.back().data(), len, kIdxCodecZip};
      }
      w.payloads[u].push_back(pl);
    }
  }
}

// Every unit's payload bytes: computed from the plan for raw blocks; agreed on for zipped ones
// (a partition's own files over its communicator, shared files over everyone's).
void unit_totals(SpaceWrite& w, const Comm& comm) {
  const auto& units = w.plan.units();
  const int bpb = w.plan.bits_per_block();
  const uint64_t bpf = w.t.in.blocks_per_file;
  w.totals.assign(units.size(), 0);
  if (!w.t.zip) {
    for (size_t u = 0; u < units.size(); ++u) {
      const uint64_t first = units[u].file * bpf;
      for (uint64_t b = first; b < std::min(w.plan.blocks(), first + bpf); ++b)
        if (w.plan.block_present(b)) w.totals[u] += (uint64_t{1} << bpb) * w.sample[units[u].field];
    }
    return;
  }
  for (const auto& [u, list] : w.payloads)
    for (const GridPayload& pl : list) w.totals[u] += pl.size;
  if (!w.t.part) {
    comm.allreduce_u64(w.totals, MPI_SUM);
    return;
  }
  std::vector<uint64_t> shared;
  for (size_t u = 0; u < units.size(); ++u)
    if (!units[u].merge.empty()) {
      shared.push_back(w.totals[u]);
      w.totals[u] = 0;
    }
  w.t.part->allreduce_u64(w.totals, MPI_SUM);
  comm.allreduce_u64(shared, MPI_SUM);
  for (size_t u = 0, i = 0; u < units.size(); ++u)
    if (!units[u].merge.empty()) w.totals[u] = shared[i++];
}

// ---- file_write: each aggregator its field's table slice and blocks ----
// The unit's block checksums (format/idx_sums.hpp) into the step's shared checksum file, every slot
// of the file (0 for absent blocks), so a rewritten step leaves nothing stale; the first unit's
// writer also writes the header and gives the file its size.
void write_unit_sums(SpaceWrite& w, size_t u, const std::vector<uint64_t>& sums) {
  const GridUnit& unit = w.plan.units()[u];
  const uint64_t bpf = w.t.in.blocks_per_file, first = unit.file * bpf;
  const IdxSumsHeader h{
      idx_sums_identity(w.t.in.dims, w.plan.index().text(), w.t.in.bits_per_block, bpf, w.t.fields, w.t.step),
      w.plan.blocks(), static_cast<uint32_t>(w.F)};
  const std::string path = idx_sums_path(join_path(w.t.idx_dir, w.t.idx_name + ".idx"), w.t.tdir);
  make_directories(parent_path(path));
  File file(path, File::Mode::kShare);
  if (u == 0) {
    const std::vector<uint8_t> head = encode_idx_sums_header(h);
    file.pwrite_all(head.data(), head.size(), 0);
    file.truncate(idx_sums_bytes(h));
  }
  file.pwrite_all(sums.data(), sums.size() * 8, idx_sums_offset(h, static_cast<uint32_t>(unit.field), first));
  if (w.t.fsync) file.sync();
  file.close();
}

// One unit's file as its blocks are written: where its payloads start, the table's entries and
// the block checksums so far.
struct UnitFile {
  File file;
  uint64_t base = 0, file_total = 0, at = 0;   // payloads' first byte, the file's size, the next payload's
  std::vector<IdxBlockEntry> entries;
  std::vector<uint64_t> sums;
  std::vector<std::pair<uint64_t, uint64_t>> written;   // (slot, bytes) per block, for the profile
  double write_s = 0;
};

UnitFile open_unit(SpaceWrite& w, size_t u) {
  const GridUnit& unit = w.plan.units()[u];
  const uint64_t bpf = w.t.in.blocks_per_file, first = unit.file * bpf;
  UnitFile f;
  // A file's units are consecutive, field 0 first: its fields' payloads follow the table in order.
  const size_t u0 = u - unit.field;
  f.base = f.file_total = idx_table_bytes(bpf, w.F);
  for (size_t v = u0; v < u0 + w.F; ++v) {
    if (v < u) f.base += w.totals[v];
    f.file_total += w.totals[v];
  }
  f.at = f.base;
  f.entries.assign(bpf, IdxBlockEntry{});
  f.sums.assign(std::min(bpf, w.plan.blocks() - first), 0);
  const std::string path = idx_block_file(w.t.idx_dir, w.tmpl, w.t.tdir, first, bpf);
  make_directories(parent_path(path));   // concurrent creators of one folder are fine
  f.file = File(path, File::Mode::kShare);
  return f;
}

// The next payloads of the unit, in slot order, written after the ones before.
void write_payloads(SpaceWrite& w, size_t u, UnitFile& f, const std::vector<GridPayload>& payloads) {
  const double t0 = wall_seconds();
  const uint64_t first = w.plan.units()[u].file * w.t.in.blocks_per_file;
  const uint32_t field = static_cast<uint32_t>(w.plan.units()[u].field);
  std::vector<iovec> iov;
  const uint64_t start = f.at;
  for (const GridPayload& pl : payloads) {
    f.entries[pl.slot] = {f.at, pl.size, pl.flags};
    f.sums[pl.slot] = idx_block_sum(pl.data, pl.size, first + pl.slot, field, pl.flags);
    f.written.push_back({pl.slot, pl.size});
    iov.push_back({const_cast<uint8_t*>(pl.data), pl.size});
    f.at += pl.size;
  }
  if (!iov.empty()) f.file.pwritev_all(iov, start);
  f.write_s += wall_seconds() - t0;
}

// The unit's table slice (with the file's header for field 0), its size, its block checksums;
// the profile's counts.
void close_unit(SpaceWrite& w, size_t u, UnitFile& f) {
  const double t0 = wall_seconds();
  const GridUnit& unit = w.plan.units()[u];
  const uint64_t bpf = w.t.in.blocks_per_file;
  if (w.t.zip) mark_absent_zip(f.entries);
  std::vector<uint8_t> tbytes;
  encode_idx_table(f.entries, tbytes);   // header + this field's entries
  if (unit.field == 0) {
    f.file.pwrite_all(tbytes.data(), tbytes.size(), 0);
    w.out.bytes += kIdxFileHeaderBytes;
    ++w.out.files;
  } else {
    f.file.pwrite_all(tbytes.data() + kIdxFileHeaderBytes, tbytes.size() - kIdxFileHeaderBytes,
                      kIdxFileHeaderBytes + kIdxBlockEntryBytes * bpf * unit.field);
  }
  w.out.bytes += kIdxBlockEntryBytes * bpf + w.totals[u];
  f.file.truncate(f.file_total);
  if (w.t.fsync) f.file.sync();
  f.file.close();
  write_unit_sums(w, u, f.sums);
  const double dt = f.write_s + wall_seconds() - t0;
  for (const auto& [slot, size] : f.written) {
    const int level = w.level_at(HzIndex::level_of_block(unit.file * bpf + slot, w.plan.bits_per_block()));
    ++w.out.level_blocks[level];
    w.out.level_bytes[level] += size;
    if (w.totals[u]) w.out.write_s[level] += dt * static_cast<double>(size) / static_cast<double>(w.totals[u]);
  }
}

void write_unit(SpaceWrite& w, size_t u) {
  UnitFile f = open_unit(w, u);
  write_payloads(w, u, f, w.payloads[u]);
  close_unit(w, u, f);
}

// ---- aggregate + file_write, streamed (a blocking write of raw blocks, one aggregator per file):
// each unit is gathered a window of whole blocks at a time (at most kStreamWindow bytes, at least
// one block) into one buffer at its aggregator, which writes the window's blocks and their
// checksums before the next window arrives. The aggregator holds a window, not the file. Every
// rank walks the units and windows in the same order, so the messages of a pair match in order.
constexpr uint64_t kStreamWindow = uint64_t{256} << 10;

// The part of `r` inside global [lo, hi), or a run of count 0.
BrickRun clip(const BrickRun& r, uint64_t lo, uint64_t hi) {
  const uint64_t a = std::max(r.global, lo), b = std::min(r.global + r.count, hi);
  if (a >= b) return BrickRun{r.brick, 0, 0, 0};
  return BrickRun{r.brick, r.local + (a - r.global), a, b - a};
}

void streamed_units(SpaceWrite& w, const Comm& comm, CollectiveOp& op) {
  const auto& units = w.plan.units();
  const int bpb = w.plan.bits_per_block();
  const uint64_t fs = w.plan.file_samples(), bpf = w.t.in.blocks_per_file, B = uint64_t{1} << bpb;
  const std::vector<uint64_t>& owned = w.plan.bricks_of(w.me);
  std::map<uint64_t, std::vector<std::pair<size_t, BrickRun>>> my_runs;   // file -> (brick slot, run)
  for (size_t i = 0; i < owned.size(); ++i)
    for (const BrickRun& r : w.plan.brick_runs(owned[i])) my_runs[r.global / fs].push_back({i, r});
  for (auto& [file, list] : my_runs)   // in the order the aggregator lists them (file_runs)
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second.global < b.second.global; });
  w.out.aggregator = !w.my_units.empty();
  std::vector<uint8_t> window;
  for (size_t u = 0; u < units.size(); ++u) {
    const GridUnit& unit = units[u];
    const size_t sb = w.sample[unit.field];
    const uint64_t A = unit.file * fs, first = unit.file * bpf;
    const uint64_t nblocks = std::min(w.plan.blocks(), first + bpf) - first;
    const uint64_t per = std::max<uint64_t>(1, kStreamWindow / (B * sb));   // blocks per window
    const bool mine = unit.aggregator == w.me;
    const auto mr = my_runs.find(unit.file);
    if (!mine && mr == my_runs.end()) continue;   // nothing of this unit here
    UnitFile f;
    if (mine && !op.failed()) op.run_locally([&] { f = open_unit(w, u); });
    for (uint64_t b0 = 0; b0 < nblocks; b0 += per) {
      const uint64_t b1 = std::min(nblocks, b0 + per), lo = A + (b0 << bpb), hi = A + (b1 << bpb);
      Exchange ex(comm);
      std::map<int, std::vector<Exchange::Range>> recvs;
      std::vector<Exchange::Range> sends;
      if (mine) {
        window.resize((b1 - b0) * B * sb);
        for (uint64_t b = first + b0; b < first + b1; ++b)   // samples outside the grid are zero
          if (w.plan.block_present(b) && w.plan.block_partial(b))
            std::memset(window.data() + (b - first - b0) * B * sb, 0, B * sb);
        for (const BrickRun& r : w.plan.file_runs(unit.file)) {
          const BrickRun c = clip(r, lo, hi);
          const int s = w.plan.owner(r.brick);
          if (c.count && s != w.me) recvs[s].push_back({window.data() + (c.global - lo) * sb, c.count * sb});
        }
      }
      if (mr != my_runs.end())
        for (const auto& [slot, r] : mr->second) {
          const BrickRun c = clip(r, lo, hi);
          if (!c.count) continue;
          const uint8_t* enc = w.scratch.encoded[slot * w.F + unit.field].data() + c.local * sb;
          if (mine) std::memcpy(window.data() + (c.global - lo) * sb, enc, c.count * sb);
          else sends.push_back({enc, c.count * sb});
          w.out.aggregated += c.count * sb;
        }
      for (auto& [s, list] : recvs) ex.irecv_ranges(list, s, kTagAggregate);
      if (!sends.empty()) ex.isend_ranges(sends, unit.aggregator, kTagAggregate);
      ex.wait_all();
      if (!mine || op.failed()) continue;
      std::vector<GridPayload> payloads;
      for (uint64_t b = first + b0; b < first + b1; ++b)
        if (w.plan.block_present(b))
          payloads.push_back({b - first, window.data() + (b - first - b0) * B * sb, B * sb, kIdxCodecRaw});
      op.run_locally([&] { write_payloads(w, u, f, payloads); });
    }
    if (mine && !op.failed()) op.run_locally([&] { close_unit(w, u, f); });
  }
}

const GridPlan& cached_plan(const SpaceTarget& t, GridScratch& scratch) {
  if (!scratch.plan || !scratch.plan_input || !same_input(*scratch.plan_input, t.in)) {
    scratch.plan.reset();
    scratch.plan = std::make_unique<GridPlan>(t.in);   // the same on every rank: its errors are too
    scratch.plan_input = std::make_unique<GridPlanInput>(t.in);
  }
  return *scratch.plan;
}

// aggregate + compress (and the zipped units' agreed sizes), over `comm`.
void gather_and_compress(SpaceWrite& w, const Comm& comm, CollectiveOp& op) {
  PhaseTimes& times = op.times();
  aggregate(w, comm);
  times.lap(kGridAggregate);
  op.run_locally([&] { compress(w); });
  unit_totals(w, comm);   // collective when zipped, failed or not
  times.lap(kGridCompress);
}

}  // namespace

std::shared_ptr<SpaceWrite> prepare_space(const Comm& comm, const SpaceTarget& t, const ArrayView& mine,
                                          const std::vector<size_t>& sample, GridScratch& scratch, CollectiveOp& op,
                                          SpaceOutcome& out, bool stream, bool defer_stream) {
  PhaseTimes& times = op.times();
  const GridPlan& plan = cached_plan(t, scratch);
  auto w = std::make_shared<SpaceWrite>(SpaceWrite{comm, t, mine, sample, scratch, out, plan});
  w->stream = stream && !t.zip && !t.part;   // zipped sizes are agreed on after every block is packed
  w->me = comm.rank();
  w->F = sample.size();
  w->grid = GridBox{
      {0, 0, 0},
      {static_cast<int64_t>(t.in.dims[0]), static_cast<int64_t>(t.in.dims[1]), static_cast<int64_t>(t.in.dims[2])}};
  w->tmpl = idx_default_template(t.idx_name, plan.index().maxh() - plan.bits_per_block());
  out.brick_bits = plan.brick_bits();
  times.lap(kGridPlan);
  // Exchanges make a failure here an internal one (out of memory): they must not be left halfway.
  restructure(*w);
  times.lap(kGridRestructure);
  encode(*w);
  times.lap(kGridEncode);
  if (w->stream) {   // the files are written here, window by window: "aggregate" holds the writes
    unit_totals(*w, comm);
    if (!defer_stream) gather_space_files(*w, comm, op);
    return w;
  }
  if (defer_stream) return w;   // aggregate and compress on the helper (gather_space_files)
  gather_and_compress(*w, comm, op);
  return w;
}

void gather_space_files(SpaceWrite& w, const Comm& comm, CollectiveOp& op) {
  if (!w.stream) return gather_and_compress(w, comm, op);   // a zipped grid's units, for write_space_files
  PhaseTimes& times = op.times();
  streamed_units(w, comm, op);
  // Its window back to the system: glibc would keep it (and the messages' lists) in the heap,
  // 0.1-0.4 x a 4 MiB step measured between steps.
  malloc_trim(0);
  times.lap(kGridAggregate);
  times.lap(kGridCompress);
}

void write_space_files(SpaceWrite& w, CollectiveOp& op) {
  if (!op.failed() && !w.stream)
    op.run_locally([&] {
      for (size_t u : w.my_units) write_unit(w, u);
    });
  op.times().lap(kGridFileWrite);
}

void write_space(const Comm& comm, const SpaceTarget& t, const ArrayView& mine, const std::vector<size_t>& sample,
                 GridScratch& scratch, CollectiveOp& op, SpaceOutcome& out) {
  write_space_files(*prepare_space(comm, t, mine, sample, scratch, op, out, true), op);
}

}  // namespace lodex
