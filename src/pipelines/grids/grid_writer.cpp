// Parallel IDX writes of grid variables (pipelines/grids/grid_group.hpp; paper 001 §III-§V, paper 003).
// One collective step:
//   plan        every rank's box, then the same GridPlan everywhere (layout/grid_plan.hpp)
//   restructure parts of boxes lying in other ranks' bricks go to the bricks' owners
//   hz_encode   each owned brick, field by field, into its local hz order (one pass per level)
//   aggregate   each unit (one field of one file) gathers its bricks' runs at its aggregator
//   compress    zlib per block when asked
//   file_write  each aggregator writes its field's table slice and blocks of the file
//   header      the .idx header and the manifest, by rank 0, once every file is complete
// Messages use MPI derived datatypes over the callers' and the bricks' memory, so nothing is
// packed by hand; a rank's messages to itself are plain copies.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "core/error.hpp"
#include "format/idx.hpp"
#include "pipelines/grids/grid_group.hpp"
#include "pipelines/box_copy.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/grids/idx_zip.hpp"
#include "pipelines/phase_clock.hpp"
#include "storage/file.hpp"

namespace lodex {

namespace {

enum Phase { kPlan, kRestructure, kEncode, kAggregate, kCompress, kFileWrite, kHeader, kNumPhases };
constexpr const char* kPhaseNames[kNumPhases] = {"plan",     "restructure", "hz_encode", "aggregate",
                                                 "compress", "file_write",  "header"};
constexpr int kTagRestructure = 31, kTagAggregate = 32, kTagMerge = 33;
constexpr const char* kTimePattern = "time_%06d/";

// A dense row-major (z, y, x) array covering `box`, one pointer per field.
struct ArrayView {
  GridBox box;
  std::vector<const uint8_t*> data;
  std::array<uint64_t, 3> stride(size_t sample) const {
    const uint64_t nx = static_cast<uint64_t>(box.hi[0] - box.lo[0]), ny = static_cast<uint64_t>(box.hi[1] - box.lo[1]);
    return {sample, sample * nx, sample * nx * ny};
  }
  // Bytes offset of grid point p inside the array.
  uint64_t offset(const std::array<int64_t, 3>& p, size_t sample) const {
    const auto s = stride(sample);
    return static_cast<uint64_t>(p[0] - box.lo[0]) * s[0] + static_cast<uint64_t>(p[1] - box.lo[1]) * s[1] +
           static_cast<uint64_t>(p[2] - box.lo[2]) * s[2];
  }
  Exchange::SubBox sub(size_t field, const GridBox& part, size_t sample) const {
    return sub_box(data[field], box, part, sample);
  }
};

}  // namespace

// Buffers a write keeps for the next step: the pages are mapped once, not at every step.
struct GridScratch {
  std::vector<std::vector<uint8_t>> dense, encoded;   // restructured bricks; encoded [brick * F + field]
  std::map<size_t, std::vector<uint8_t>> units;       // unit index -> file-sized buffer
};

std::string GridWriteProfile::to_json() const {
  std::string s = cat("{\"step\": ", step, ", \"ranks\": ", ranks, ", \"aggregators\": ", aggregators,
                      ", \"files\": ", files, ", \"bytes\": ", bytes, ", \"restructured_bytes\": ", restructured_bytes,
                      ", \"aggregated_bytes\": ", aggregated_bytes, ", \"bitmask\": \"", bitmask,
                      "\", \"rank_order\": \"", rank_order, "\", \"brick_bits\": ", brick_bits,
                      ", \"partitions\": ", partitions, ", \"index_space\": \"", index_space, "\"",
                      ", \"fsync\": ", fsync ? "true" : "false", ", \"total_s\": ", total_s, ", \"phases\": {");
  for (size_t i = 0; i < phases.size(); ++i)
    s += cat(i ? ", " : "", "\"", phases[i].name, "\": {\"min_s\": ", phases[i].min_s, ", \"mean_s\": ",
             phases[i].mean_s, ", \"max_s\": ", phases[i].max_s, "}");
  s += "}, \"levels\": [";
  for (size_t i = 0; i < levels.size(); ++i)
    s += cat(i ? ", " : "", "{\"level\": ", levels[i].level, ", \"blocks\": ", levels[i].blocks, ", \"bytes\": ",
             levels[i].bytes, ", \"encode_s\": ", levels[i].encode_s, ", \"write_s\": ", levels[i].write_s, "}");
  return s + "]}";
}

const GridMeta& GridGroup::meta() const {
  const GridMeta* g = ds_->manifest.find_grid(name_);
  if (!g) fail(ErrorCode::kInternal, "grid '", name_, "' vanished from the manifest");
  return *g;
}

std::string GridGroup::idx_path() const {
  const GridMeta& g = meta();
  if (g.split_into_parts())
    fail(ErrorCode::kUnsupported, "grid '", name_, "' is written in the local index space: one IDX dataset per ",
         "partition (", g.partitions, " partitions), not one .idx; see its part datasets");
  return join_path(ds_->path, g.idx_name());
}

std::vector<int64_t> GridGroup::steps() const {
  std::vector<int64_t> out;
  for (const auto& s : meta().steps) out.push_back(s.step);
  return out;
}

void GridGroup::require_step(int64_t step) const {
  ds_->require_open();
  const GridMeta& g = meta();
  if (!g.find_step(step)) {
    std::string have;
    for (const auto& s : g.steps) have += (have.empty() ? "" : ", ") + std::to_string(s.step);
    fail(ErrorCode::kNotFound, "grid '", name_, "' has no step ", step, " (steps: ", have.empty() ? "none" : have, ")");
  }
}

IdxDataset GridGroup::open_step(int64_t step) const {
  require_step(step);
  return IdxDataset::open(idx_path());
}

std::vector<std::pair<GridPartDataset, IdxDataset>> GridGroup::open_parts(int64_t step) const {
  require_step(step);
  std::vector<std::pair<GridPartDataset, IdxDataset>> out;
  for (GridPartDataset& p : part_datasets()) {
    IdxDataset d = IdxDataset::open(p.idx_path);
    out.emplace_back(std::move(p), std::move(d));
  }
  return out;
}

void GridGroup::abort_write(const Error& error) {
  ds_->comm.agree([&] { throw error; });
}

namespace {

// One IDX dataset of one step, in its own coordinates: the whole grid (global index space) or
// one partition's box (local index space, paper 001 §IV).
struct SpaceTarget {
  GridPlanInput in;                  // dims, template, partitions, boxes of `comm`'s ranks
  std::string idx_dir, idx_name;     // blocks under <idx_dir>/<idx_name>/<time dir>/
  std::string tdir;
  bool zip = false, fsync = false;
  int level_shift = 0;               // local level + shift = the grid's level
  const Comm* part = nullptr;        // global index space with partitions: this rank's partition
};

// What one rank did: its error (agreed on by the caller), what it wrote, the profile pieces.
struct SpaceOutcome {
  int32_t status = 0;
  std::string message;
  uint64_t bytes = 0;                // tables and blocks this rank wrote
  uint64_t files = 0;                // files whose table header this rank wrote
  bool aggregator = false;
  uint64_t restructured = 0, aggregated = 0;
  int brick_bits = 0;
  std::vector<double> encode_s, write_s;          // per level of the grid
  std::vector<uint64_t> level_blocks, level_bytes;
};

using Clock = PhaseClock<kNumPhases>;

// Restructure, encode, aggregate (with the merge of files shared by partitions), compress and
// write one IDX dataset's files. Collective over `comm` (and t.part). Errors land in `out`.
void write_space(const Comm& comm, const SpaceTarget& t, const ArrayView& mine, const std::vector<size_t>& sample,
                 GridScratch& scratch, Clock& clock, SpaceOutcome& out) {
  const int me = comm.rank(), R = comm.size();
  const size_t F = sample.size();
  try {
    const GridPlan plan(t.in);   // the same on every rank: its errors are too
    const std::vector<GridBox>& boxes = t.in.boxes;
    const HzIndex& hz = plan.index();
    const HzIndex& local = plan.local_index();
    const int n = hz.maxh(), p = plan.brick_bits(), bpb = plan.bits_per_block();
    const uint64_t brick_samples = uint64_t{1} << p, fs = plan.file_samples(), bpf = t.in.blocks_per_file;
    const GridBox grid{{0, 0, 0}, {static_cast<int64_t>(t.in.dims[0]), static_cast<int64_t>(t.in.dims[1]),
                                   static_cast<int64_t>(t.in.dims[2])}};
    const std::string tmpl = idx_default_template(t.idx_name, n - bpb);
    out.brick_bits = p;
    auto level_at = [&](int h) { return std::min<int>(h + t.level_shift, static_cast<int>(out.encode_s.size()) - 1); };
    clock.lap(kPlan);

    // ---- restructure: whole bricks at their owners ----
    const std::vector<uint64_t>& owned = plan.bricks_of(me);
    std::vector<ArrayView> brick_src(owned.size());
    std::vector<std::vector<uint8_t>>& dense = scratch.dense;   // bricks assembled here
    size_t ndense = 0;
    Exchange ex(comm);
    std::map<int, std::vector<Exchange::SubBox>> recv_boxes, send_boxes;
    for (size_t i = 0; i < owned.size(); ++i) {
      const GridBox bb = plan.brick_box(owned[i]);
      const GridBox valid = bb.intersect(grid);
      if (valid.intersect(mine.box) == valid) {   // all of it is here: read it in place
        brick_src[i] = mine;
        continue;
      }
      brick_src[i].box = bb;
      for (size_t f = 0; f < F; ++f) {
        if (ndense == dense.size()) dense.emplace_back();
        std::vector<uint8_t>& d = dense[ndense++];
        d.resize(brick_samples * sample[f]);
        if (!(valid == bb)) std::fill(d.begin(), d.end(), 0);   // samples outside the grid
        brick_src[i].data.push_back(d.data());
        const GridBox part = bb.intersect(mine.box);
        if (!part.empty()) copy_region(mine.data[f], mine.box, d.data(), brick_src[i].box, part, sample[f]);
      }
      for (int s = 0; s < R; ++s) {
        if (s == me) continue;
        const GridBox part = bb.intersect(boxes[s]);
        if (part.empty()) continue;
        for (size_t f = 0; f < F; ++f) {
          recv_boxes[s].push_back(brick_src[i].sub(f, part, sample[f]));
          out.restructured += part.volume() * sample[f];
        }
      }
    }
    for (uint64_t b : plan.bricks_meeting(mine.box)) {
      const int o = plan.owner(b);
      if (o == me || o < 0) continue;
      const GridBox part = plan.brick_box(b).intersect(mine.box);
      if (part.empty()) continue;
      for (size_t f = 0; f < F; ++f) send_boxes[o].push_back(mine.sub(f, part, sample[f]));
    }
    // Both sides list a pair's parts by brick (ascending), then field, so the types match.
    for (auto& [s, list] : recv_boxes) ex.irecv_boxes(list, s, kTagRestructure);
    for (auto& [o, list] : send_boxes) ex.isend_boxes(list, o, kTagRestructure);
    ex.wait_all();
    clock.lap(kRestructure);

    // ---- HZ encode ----
    // The buffers of the units this rank collects come first: a level of a brick whose run lies
    // in one of them is encoded straight into it (no copy at the aggregation); the others go
    // through the brick's encoded buffer.
    const auto& units = plan.units();
    std::vector<size_t> my_units;                                       // units this rank writes
    std::map<size_t, std::vector<uint8_t>>& unit_buf = scratch.units;   // units it collects or writes
    auto collects = [&](const GridUnit& u) { return plan.collector(u, me) == me; };
    for (auto it = unit_buf.begin(); it != unit_buf.end();)   // units this rank no longer collects
      it = units.size() > it->first && collects(units[it->first]) ? std::next(it) : unit_buf.erase(it);
    for (size_t u = 0; u < units.size(); ++u) {
      if (!collects(units[u])) continue;
      if (units[u].aggregator == me) my_units.push_back(u);
      auto& buf = unit_buf[u];
      const size_t sb = sample[units[u].field];
      buf.resize(fs * sb);
      const uint64_t first = units[u].file * bpf;
      for (uint64_t b = first; b < std::min(plan.blocks(), first + bpf); ++b)
        if (plan.block_present(b) && plan.block_partial(b))
          std::memset(buf.data() + ((b - first) << bpb) * sb, 0, (uint64_t{1} << bpb) * sb);
    }
    const std::vector<uint64_t>& files = plan.files();
    std::vector<std::vector<uint8_t>>& encoded = scratch.encoded;   // [brick slot * F + field]
    if (encoded.size() < owned.size() * F) encoded.resize(owned.size() * F);
    std::vector<uint64_t> direct(owned.size() * F, 0);   // levels encoded into unit buffers (bit h)
    std::vector<uint8_t*> level_out(p + 1);
    for (size_t i = 0; i < owned.size(); ++i) {
      const GridBox bb = plan.brick_box(owned[i]);
      const GridBox valid = bb.intersect(grid);
      Coord3 vext;
      for (int a = 0; a < 3; ++a) vext[a] = static_cast<uint64_t>(valid.hi[a] - valid.lo[a]);
      const bool partial = !(valid == bb);
      const uint64_t origin_v = (owned[i] << p) | (uint64_t{1} << n);
      const uint64_t origin_hz = origin_v >> (__builtin_ctzll(origin_v) + 1);
      const int origin_level = HzIndex::level_of(origin_hz);
      for (size_t f = 0; f < F; ++f) {
        const size_t sb = sample[f];
        uint64_t& mask = direct[i * F + f];
        for (int h = 0; h <= p; ++h) {   // where each level's run goes, when it is one of this rank's units
          const uint64_t g0 = h == 0 ? origin_hz : (uint64_t{1} << (n - p + h - 1)) + (owned[i] << (h - 1));
          const uint64_t len = h == 0 ? 1 : uint64_t{1} << (h - 1);
          level_out[h] = nullptr;
          if (g0 / fs != (g0 + len - 1) / fs) continue;
          const auto it = std::lower_bound(files.begin(), files.end(), g0 / fs);
          if (it == files.end() || *it != g0 / fs) continue;
          const size_t u = static_cast<size_t>(it - files.begin()) * F + f;
          if (!collects(units[u])) continue;
          level_out[h] = unit_buf[u].data() + (g0 - units[u].file * fs) * sb;
          mask |= uint64_t{1} << h;
        }
        uint8_t* enc = nullptr;
        if (mask != (uint64_t{2} << p) - 1) {
          auto& e = encoded[i * F + f];
          e.resize(brick_samples * sb);
          if (partial) std::fill(e.begin(), e.end(), 0);
          enc = e.data();
        }
        const ArrayView& src = brick_src[i];
        const uint8_t* origin = src.data[f] + src.offset(bb.lo, sb);
        const auto stride = src.stride(sb);
        for (int h = 0; h <= p; ++h) {
          const double t0 = Clock::now();
          if (level_out[h]) hz_encode_level_run(local, h, origin, stride, vext, sb, level_out[h]);
          else hz_encode_level(local, h, origin, stride, vext, sb, enc);
          out.encode_s[level_at(h == 0 ? origin_level : n - p + h)] += Clock::now() - t0;
        }
      }
    }
    clock.lap(kEncode);

    // ---- aggregate: runs to their collectors; then shared files merged at their aggregators ----
    const uint32_t my_part = plan.partition_of_rank(me);
    std::map<uint64_t, std::vector<std::pair<size_t, BrickRun>>> my_runs;   // file -> (brick slot, run)
    for (size_t i = 0; i < owned.size(); ++i)
      for (const BrickRun& r : plan.brick_runs(owned[i])) my_runs[r.global / fs].push_back({i, r});
    for (auto& [file, list] : my_runs)
      std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second.global < b.second.global; });
    out.aggregator = !my_units.empty();
    std::map<int, std::vector<Exchange::Range>> sends, recvs, merge_sends, merge_recvs;
    for (size_t u = 0; u < units.size(); ++u) {
      const GridUnit& unit = units[u];
      const size_t sb = sample[unit.field];
      const uint64_t A = unit.file * fs;
      const int to = plan.collector(unit, me);
      auto mr = my_runs.find(unit.file);
      if (mr != my_runs.end())
        for (const auto& [slot, r] : mr->second) {
          out.aggregated += r.count * sb;
          const uint8_t* enc = encoded[slot * F + unit.field].data();
          if (to != me) {
            sends[to].push_back({enc + r.local * sb, r.count * sb});
            continue;
          }
          // A run may span several levels (they are adjacent in hz); the levels encoded in place
          // are already there.
          const uint64_t in_place = direct[slot * F + unit.field];
          for (uint64_t l = r.local, end = r.local + r.count; l < end;) {
            const int h = HzIndex::level_of(l);
            const uint64_t stop = std::min(end, h == 0 ? uint64_t{1} : uint64_t{1} << h);
            if (!((in_place >> h) & 1))
              std::memcpy(unit_buf[u].data() + (r.global + (l - r.local) - A) * sb, enc + l * sb, (stop - l) * sb);
            l = stop;
          }
        }
      if (to != me) continue;
      const bool final = unit.aggregator == me;
      for (const BrickRun& r : plan.file_runs(unit.file)) {
        const int s = plan.owner(r.brick);
        uint8_t* at = unit_buf[u].data() + (r.global - A) * sb;
        if (plan.collector(unit, s) == me) {   // from an owner of this partition
          if (s != me) recvs[s].push_back({at, r.count * sb});
        } else if (final) {                    // merged from another partition's collector
          merge_recvs[plan.collector(unit, s)].push_back({at, r.count * sb});
        }
        if (!final && plan.partition_of_brick(r.brick) == my_part) merge_sends[unit.aggregator].push_back({at, r.count * sb});
      }
    }
    for (auto& [s, list] : recvs) ex.irecv_ranges(list, s, kTagAggregate);
    for (auto& [a, list] : sends) ex.isend_ranges(list, a, kTagAggregate);
    ex.wait_all();
    // The merge of the coarse blocks partitions share (after this rank's partition is gathered).
    for (auto& [s, list] : merge_recvs) ex.irecv_ranges(list, s, kTagMerge);
    for (auto& [a, list] : merge_sends) ex.isend_ranges(list, a, kTagMerge);
    ex.wait_all();
    clock.lap(kAggregate);

    // ---- compress; the first rank prepares the step's directory ----
    struct Payload {
      uint64_t slot = 0;
      const uint8_t* data = nullptr;
      uint64_t size = 0;
      uint32_t flags = 0;
    };
    std::map<size_t, std::vector<Payload>> payloads;
    std::vector<std::vector<uint8_t>> packed;
    std::vector<uint64_t> totals(units.size(), 0);
    comm.agree([&] {
      for (size_t u : my_units) {
        const GridUnit& unit = units[u];
        const uint64_t raw = (uint64_t{1} << bpb) * sample[unit.field];
        const uint64_t first = unit.file * bpf;
        for (uint64_t b = first; b < std::min(plan.blocks(), first + bpf); ++b) {
          if (!plan.block_present(b)) continue;
          const uint8_t* data = unit_buf[u].data() + (b - first) * raw;
          Payload pl{b - first, data, raw, kIdxCodecRaw};
          if (t.zip) {
            packed.emplace_back();
            const uint64_t len = zip_block(data, raw, packed.back(), b);
            pl = {b - first, packed.back().data(), len, kIdxCodecZip};
          }
          payloads[u].push_back(pl);
          totals[u] += pl.size;
        }
      }
      if (me == 0) {
        remove_tree(join_path(t.idx_dir, join_path(t.idx_name, t.tdir)));
        std::string last;
        for (uint64_t f : plan.files()) {
          const std::string dir = parent_path(idx_block_file(t.idx_dir, tmpl, t.tdir, f * bpf, bpf));
          if (dir != last) make_directories(dir);
          last = dir;
        }
      }
    });
    if (t.part) {   // a partition's own files: its communicator; shared files: everyone's
      std::vector<uint64_t> shared;
      for (size_t u = 0; u < units.size(); ++u)
        if (!units[u].merge.empty()) {
          shared.push_back(totals[u]);
          totals[u] = 0;
        }
      t.part->allreduce_u64(totals, MPI_SUM);
      comm.allreduce_u64(shared, MPI_SUM);
      for (size_t u = 0, i = 0; u < units.size(); ++u)
        if (!units[u].merge.empty()) totals[u] = shared[i++];
    } else {
      comm.allreduce_u64(totals, MPI_SUM);
    }
    clock.lap(kCompress);

    // ---- write: each aggregator its field's table slice and blocks ----
    comm.agree([&] {
      const uint64_t table = idx_table_bytes(bpf, F);
      for (size_t u : my_units) {
        const double t0 = Clock::now();
        const GridUnit& unit = units[u];
        // A file's units are consecutive, field 0 first: its fields' payloads follow the table in order.
        const size_t u0 = u - unit.field;
        uint64_t base = table, file_total = table;
        for (size_t v = u0; v < u0 + F; ++v) {
          if (v < u) base += totals[v];
          file_total += totals[v];
        }
        std::vector<IdxBlockEntry> entries(bpf);
        std::vector<iovec> iov;
        uint64_t at = base;
        for (const Payload& pl : payloads[u]) {
          entries[pl.slot] = {at, pl.size, pl.flags};
          iov.push_back({const_cast<uint8_t*>(pl.data), pl.size});
          at += pl.size;
        }
        if (t.zip) mark_absent_zip(entries);
        std::vector<uint8_t> tbytes;
        encode_idx_table(entries, tbytes);   // header + this field's entries
        const std::string path = idx_block_file(t.idx_dir, tmpl, t.tdir, unit.file * bpf, bpf);
        File file(path, File::Mode::kShare);
        if (unit.field == 0) {
          file.pwrite_all(tbytes.data(), tbytes.size(), 0);
          out.bytes += kIdxFileHeaderBytes;
          ++out.files;
        } else {
          file.pwrite_all(tbytes.data() + kIdxFileHeaderBytes, tbytes.size() - kIdxFileHeaderBytes,
                          kIdxFileHeaderBytes + kIdxBlockEntryBytes * bpf * unit.field);
        }
        out.bytes += kIdxBlockEntryBytes * bpf + totals[u];
        if (!iov.empty()) file.pwritev_all(iov, base);
        file.truncate(file_total);
        if (t.fsync) file.sync();
        file.close();
        const double dt = Clock::now() - t0;
        for (const Payload& pl : payloads[u]) {
          const int level = level_at(HzIndex::level_of_block(unit.file * bpf + pl.slot, bpb));
          ++out.level_blocks[level];
          out.level_bytes[level] += pl.size;
          if (totals[u]) out.write_s[level] += dt * static_cast<double>(pl.size) / static_cast<double>(totals[u]);
        }
      }
    });
    clock.lap(kFileWrite);
  } catch (const Error& e) {
    out.status = static_cast<int32_t>(e.code());
    out.message = e.what();
  } catch (const std::bad_alloc&) {
    out.status = static_cast<int32_t>(ErrorCode::kIo);
    out.message = "out of memory while writing a grid step";
  }
}

// The IDX header of one dataset of the grid (the whole grid, or one partition's box).
void write_idx_header(const GridMeta& g, const std::string& idx_name, const std::string& path, const Coord3& dims,
                      const std::string& bitmask, int bits_per_block, bool fsync) {
  std::vector<IdxField> fields;
  for (const auto& f : g.fields) fields.push_back(IdxField{f.name, f.dtype, f.components, "", true});
  const std::string text = encode_idx_header(idx_write_header(
      idx_name, dims, g.ndims, fields, bitmask, bits_per_block, g.blocks_per_file, g.zip,
      IdxTime{std::to_string(g.steps.front().step), std::to_string(g.steps.back().step), kTimePattern}));
  replace_file(path, std::vector<uint8_t>(text.begin(), text.end()), fsync);
}

std::string part_name(uint32_t q) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "p%04u", q);
  return buf;
}

// Partition q's box clipped to the grid (empty when the partition holds no sample).
GridBox part_box(const GridMeta& g, const HzIndex& hz, int k, uint32_t q) {
  const GridBox grid{{0, 0, 0}, {static_cast<int64_t>(g.dims[0]), static_cast<int64_t>(g.dims[1]),
                                 static_cast<int64_t>(g.dims[2])}};
  return grid_partition_box(hz, k, q).intersect(grid);
}

}  // namespace

std::vector<GridPartDataset> GridGroup::part_datasets() const {
  const GridMeta& g = meta();
  std::vector<GridPartDataset> out;
  if (!g.split_into_parts() || g.bitmask.empty()) return out;
  const HzIndex hz(g.bitmask);
  const int k = grid_partition_bits(g.partitions, hz);
  for (uint32_t q = 0; q < g.partitions; ++q) {
    const GridBox b = part_box(g, hz, k, q);
    if (!b.empty()) out.push_back({q, b, join_path(join_path(ds_->path, name_), part_name(q) + ".idx")});
  }
  return out;
}

void GridGroup::write(int64_t step, const GridBox& box, std::span<const FieldView> views) {
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  const int me = comm.rank(), R = comm.size();
  Clock clock;
  GridMeta& g = *st.manifest.find_grid(name_);
  const size_t F = g.fields.size();
  std::vector<size_t> sample(F);
  for (size_t f = 0; f < F; ++f) sample[f] = dtype_size(g.fields[f].dtype) * g.fields[f].components;
  // ---- this rank's arguments ----
  ArrayView mine{box, std::vector<const uint8_t*>(F, nullptr)};
  comm.agree([&] {
    st.require_writable();
    if (step < 0) fail(ErrorCode::kInvalidArgument, "step must be non-negative, got ", step);
    if (g.find_step(step)) fail(ErrorCode::kAlreadyExists, "grid '", name_, "' already has step ", step);
    if (!g.steps.empty() && step < g.steps.back().step)
      fail(ErrorCode::kInvalidArgument, "grid '", name_, "' has step ", g.steps.back().step, "; step ", step,
           " comes before it (grid steps are written in increasing order)");
    for (int a = 0; a < 3; ++a) {
      if (box.hi[a] < box.lo[a])
        fail(ErrorCode::kInvalidArgument, "box ", box_text(box), " has max < min on axis ", "xyz"[a]);
      if (!box.empty() && (box.lo[a] < 0 || box.hi[a] > static_cast<int64_t>(g.dims[a])))
        fail(ErrorCode::kInvalidArgument, "box ", box_text(box), " is outside the ", g.dims[0], " x ", g.dims[1], " x ",
             g.dims[2], " grid '", name_, "'");
    }
    const uint64_t n = box.volume();
    for (const FieldView& v : views) {
      size_t f = 0;
      while (f < F && g.fields[f].name != v.name) ++f;
      if (f == F) fail(ErrorCode::kInvalidArgument, "grid '", name_, "' has no field '", v.name, "'");
      if (mine.data[f]) fail(ErrorCode::kInvalidArgument, "field '", v.name, "' is given twice");
      if (v.dtype != g.fields[f].dtype || v.components != g.fields[f].components)
        fail(ErrorCode::kInvalidArgument, "field '", v.name, "' is ", dtype_name(g.fields[f].dtype), " x ",
             g.fields[f].components, ", not ", dtype_name(v.dtype), " x ", v.components);
      if (v.rows != n)
        fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has ", v.rows, " samples; the box ", box_text(box),
             " holds ", n);
      if (n > 0 && !v.data) fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has no data");
      mine.data[f] = static_cast<const uint8_t*>(v.data);
    }
    for (size_t f = 0; f < F; ++f)
      if (!mine.data[f] && n > 0) fail(ErrorCode::kInvalidArgument, "field '", g.fields[f].name, "' is missing");
  });
  if (mine.box.empty()) mine.box = GridBox{};

  // ---- plan: every rank's box; the template; partitions ----
  std::vector<int64_t> all(6 * static_cast<size_t>(R));
  const int64_t mine6[6] = {mine.box.lo[0], mine.box.lo[1], mine.box.lo[2], mine.box.hi[0], mine.box.hi[1], mine.box.hi[2]};
  if (comm.is_mpi()) comm.allgather(mine6, sizeof mine6, all.data());
  else std::copy(mine6, mine6 + 6, all.begin());
  std::vector<GridBox> boxes(R);
  for (int r = 0; r < R; ++r)
    for (int a = 0; a < 3; ++a) {
      boxes[r].lo[a] = all[6 * r + a];
      boxes[r].hi[a] = all[6 * r + 3 + a];
    }
  const bool local_space = g.split_into_parts();
  GridTemplate tmpl;
  std::optional<HzIndex> hz_of_grid;
  std::vector<uint32_t> parts;
  int k = 0;
  comm.agree([&] {
    if (!comm.same_everywhere(static_cast<uint64_t>(step)))
      fail(ErrorCode::kInvalidArgument, "ranks write different steps of grid '", name_, "'");
    tmpl = g.bitmask.empty() ? derive_template(g.dims, g.ndims, boxes) : user_template(g.bitmask, boxes);
    hz_of_grid.emplace(tmpl.bitmask);
    k = grid_partition_bits(g.partitions, *hz_of_grid);
    parts = grid_rank_partitions(*hz_of_grid, k, boxes);
  });
  const HzIndex& global_hz = *hz_of_grid;
  const uint32_t my_part = parts[me];
  // Every rank sees the same `parts`, so every rank splits (a collective) or none does.
  if (g.partitions > 1 && parts != part_of_rank_) {
    part_comm_ = std::make_shared<Comm>(comm.split(static_cast<int>(my_part)));
    part_of_rank_ = parts;
  }
  const int levels = global_hz.maxh() + 1;

  SpaceTarget t;
  t.in.tmpl = tmpl;
  t.in.bits_per_block = g.bits_per_block;
  t.in.blocks_per_file = g.blocks_per_file;
  t.in.fields = static_cast<uint32_t>(F);
  t.in.aggregation = parse_grid_aggregation(g.aggregation);
  t.tdir = idx_time_dir(IdxTime{"0", "0", kTimePattern}, step);
  t.zip = g.zip;
  t.fsync = st.options.fsync;
  const Comm* space_comm = &comm;
  ArrayView space_mine = mine;
  GridBox my_part_box;
  if (!local_space) {   // one dataset over the whole grid
    t.in.dims = g.dims;
    t.in.boxes = boxes;
    t.in.partitions = g.partitions;
    t.idx_dir = st.path;
    t.idx_name = name_;
    t.part = g.partitions > 1 ? part_comm_.get() : nullptr;
  } else {              // this rank's partition's own dataset, in the partition's coordinates
    my_part_box = part_box(g, global_hz, k, my_part);
    space_comm = part_comm_.get();
    for (int a = 0; a < 3; ++a) t.in.dims[a] = static_cast<uint64_t>(std::max<int64_t>(0, my_part_box.hi[a] - my_part_box.lo[a]));
    const std::string part_bitmask = "V" + global_hz.text().substr(1 + k);
    for (int r = 0; r < R; ++r) {
      if (parts[r] != my_part) continue;
      GridBox b = boxes[r];
      if (!b.empty())
        for (int a = 0; a < 3; ++a) {
          b.lo[a] -= my_part_box.lo[a];
          b.hi[a] -= my_part_box.lo[a];
        }
      t.in.boxes.push_back(b);
    }
    t.in.tmpl = user_template(part_bitmask, t.in.boxes);
    // A partition's index is k characters shorter: its blocks are at most all of it.
    t.in.bits_per_block = std::min(g.bits_per_block, global_hz.maxh() - k);
    if (!space_mine.box.empty())
      for (int a = 0; a < 3; ++a) {
        space_mine.box.lo[a] -= my_part_box.lo[a];
        space_mine.box.hi[a] -= my_part_box.lo[a];
      }
    t.idx_dir = join_path(st.path, name_);
    t.idx_name = part_name(my_part);
    t.level_shift = k;
  }
  if (!scratch_) scratch_ = std::make_shared<GridScratch>();
  SpaceOutcome out;
  out.encode_s.assign(levels, 0.0);
  out.write_s.assign(levels, 0.0);
  out.level_blocks.assign(levels, 0);
  out.level_bytes.assign(levels, 0);
  const bool has_samples = !local_space || !my_part_box.empty();
  if (has_samples) write_space(*space_comm, t, space_mine, sample, *scratch_, clock, out);
  // Everyone learns whether the step's files are complete before anything commits it.
  comm.agree([&] {
    if (out.status) throw Error(static_cast<ErrorCode>(out.status), out.message);
  });

  // ---- commit: the .idx headers, then the manifest ----
  std::vector<uint64_t> written{out.bytes, out.files};
  comm.allreduce_u64(written, MPI_SUM);
  GridStepRecord rec;
  rec.step = step;
  rec.files = static_cast<uint32_t>(written[1]);
  rec.bytes = written[0];
  rec.writer_ranks = static_cast<uint32_t>(R);
  const std::string bitmask_before = g.bitmask;
  g.bitmask = global_hz.text();
  g.steps.push_back(rec);
  try {
    comm.agree([&] {
      if (!local_space && me == 0)
        write_idx_header(g, name_, idx_path(), g.dims, g.bitmask, g.bits_per_block, st.options.fsync);
      if (local_space && has_samples && space_comm->rank() == 0)
        write_idx_header(g, t.idx_name, join_path(t.idx_dir, t.idx_name + ".idx"), t.in.dims, t.in.tmpl.bitmask,
                         t.in.bits_per_block, st.options.fsync);
    });
    comm.agree([&] {
      if (me == 0) st.write_manifest();
    });
  } catch (...) {
    g.steps.pop_back();
    g.bitmask = bitmask_before;
    throw;
  }
  clock.lap(kHeader);

  // ---- profile, reduced over ranks ----
  const int n = levels - 1;
  std::vector<double> mins(clock.seconds, clock.seconds + kNumPhases), maxs = mins, sums = mins;
  double total = 0;
  for (double s : clock.seconds) total += s;
  maxs.push_back(total);
  maxs.insert(maxs.end(), out.encode_s.begin(), out.encode_s.end());
  maxs.insert(maxs.end(), out.write_s.begin(), out.write_s.end());
  comm.allreduce_f64(mins, MPI_MIN);
  comm.allreduce_f64(maxs, MPI_MAX);
  comm.allreduce_f64(sums, MPI_SUM);
  std::vector<uint64_t> counts(out.level_blocks);
  counts.insert(counts.end(), out.level_bytes.begin(), out.level_bytes.end());
  counts.push_back(out.restructured);
  counts.push_back(out.aggregated);
  counts.push_back(out.aggregator ? 1 : 0);
  comm.allreduce_u64(counts, MPI_SUM);
  GridWriteProfile prof;
  prof.step = step;
  prof.ranks = R;
  prof.aggregators = static_cast<uint32_t>(counts[2 * (n + 1) + 2]);
  prof.files = rec.files;
  prof.bytes = rec.bytes;
  prof.restructured_bytes = counts[2 * (n + 1)];
  prof.aggregated_bytes = counts[2 * (n + 1) + 1];
  prof.bitmask = global_hz.text();
  prof.rank_order = tmpl.derived ? rank_order_name(tmpl.order) : g.bitmask_derived ? "derived at the first write" : "user";
  prof.brick_bits = out.brick_bits;
  prof.partitions = g.partitions;
  prof.index_space = g.index_space;
  prof.fsync = st.options.fsync;
  prof.total_s = maxs[kNumPhases];
  for (int ph = 0; ph < kNumPhases; ++ph)
    prof.phases.push_back({kPhaseNames[ph], mins[ph], sums[ph] / R, maxs[ph]});
  for (int L = 0; L <= n; ++L) {
    GridWriteProfile::Level lv;
    lv.level = L;
    lv.blocks = counts[L];
    lv.bytes = counts[n + 1 + L];
    lv.encode_s = maxs[kNumPhases + 1 + L];
    lv.write_s = maxs[kNumPhases + 1 + (n + 1) + L];
    prof.levels.push_back(lv);
  }
  profile_ = std::move(prof);
}

}  // namespace lodex
