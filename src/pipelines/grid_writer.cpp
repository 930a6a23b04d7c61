// Parallel IDX writes of grid variables (include/lodex/grid.hpp; paper 001 §III-§V, paper 003).
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
#include "lodex/grid.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/idx_zip.hpp"
#include "pipelines/phase_clock.hpp"
#include "storage/file.hpp"

namespace lodex {

namespace {

enum Phase { kPlan, kRestructure, kEncode, kAggregate, kCompress, kFileWrite, kHeader, kNumPhases };
constexpr const char* kPhaseNames[kNumPhases] = {"plan",     "restructure", "hz_encode", "aggregate",
                                                 "compress", "file_write",  "header"};
constexpr int kTagRestructure = 31, kTagAggregate = 32;
constexpr const char* kTimePattern = "time_%06d/";

std::string box_text(const GridBox& b) {
  return cat("((", b.lo[0], ", ", b.lo[1], ", ", b.lo[2], "), (", b.hi[0], ", ", b.hi[1], ", ", b.hi[2], "))");
}

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
    Exchange::SubBox b;
    b.base = data[field];
    for (int a = 0; a < 3; ++a) {
      b.sizes[2 - a] = static_cast<int>(box.hi[a] - box.lo[a]);
      b.sub[2 - a] = static_cast<int>(part.hi[a] - part.lo[a]);
      b.start[2 - a] = static_cast<int>(part.lo[a] - box.lo[a]);
    }
    b.elem = static_cast<int>(sample);
    return b;
  }
};

// Copies `part` from one array view to another (both cover it).
void copy_part(const ArrayView& from, const ArrayView& to, size_t field, const GridBox& part, size_t sample,
               uint8_t* to_data) {
  const uint64_t row = static_cast<uint64_t>(part.hi[0] - part.lo[0]) * sample;
  for (int64_t z = part.lo[2]; z < part.hi[2]; ++z)
    for (int64_t y = part.lo[1]; y < part.hi[1]; ++y) {
      const std::array<int64_t, 3> p{part.lo[0], y, z};
      std::memcpy(to_data + to.offset(p, sample), from.data[field] + from.offset(p, sample), row);
    }
}

}  // namespace

// Buffers a write keeps for the next step: the pages are mapped once, not at every step.
struct GridScratch {
  std::vector<std::vector<uint8_t>> dense, encoded;   // restructured bricks; encoded [brick * F + field]
  std::map<size_t, std::vector<uint8_t>> units;       // unit index -> file-sized buffer
};

int grid_index_bits(const std::array<uint64_t, 3>& dims, int ndims) {
  return static_cast<int>(HzIndex::default_bitmask(dims, ndims).size()) - 1;
}

std::string GridWriteProfile::to_json() const {
  std::string s = cat("{\"step\": ", step, ", \"ranks\": ", ranks, ", \"aggregators\": ", aggregators,
                      ", \"files\": ", files, ", \"bytes\": ", bytes, ", \"restructured_bytes\": ", restructured_bytes,
                      ", \"aggregated_bytes\": ", aggregated_bytes, ", \"bitmask\": \"", bitmask,
                      "\", \"rank_order\": \"", rank_order, "\", \"brick_bits\": ", brick_bits,
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

std::string GridGroup::idx_path() const { return join_path(ds_->path, meta().idx_name()); }

std::vector<int64_t> GridGroup::steps() const {
  std::vector<int64_t> out;
  for (const auto& s : meta().steps) out.push_back(s.step);
  return out;
}

IdxDataset GridGroup::open_step(int64_t step) const {
  ds_->require_open();
  const GridMeta& g = meta();
  if (!g.find_step(step)) {
    std::string have;
    for (const auto& s : g.steps) have += (have.empty() ? "" : ", ") + std::to_string(s.step);
    fail(ErrorCode::kNotFound, "grid '", name_, "' has no step ", step, " (steps: ", have.empty() ? "none" : have, ")");
  }
  return IdxDataset::open(idx_path());
}

void GridGroup::abort_write(const Error& error) {
  ds_->comm.agree([&] { throw error; });
}

void GridGroup::write(int64_t step, const GridBox& box, std::span<const FieldView> views) {
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  const int me = comm.rank(), R = comm.size();
  PhaseClock<kNumPhases> clock;
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

  // ---- plan ----
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
  std::unique_ptr<GridPlan> plan_ptr;
  comm.agree([&] {
    if (!comm.same_everywhere(static_cast<uint64_t>(step)))
      fail(ErrorCode::kInvalidArgument, "ranks write different steps of grid '", name_, "'");
    GridPlanInput in;
    in.dims = g.dims;
    in.tmpl = g.bitmask.empty() ? derive_template(g.dims, g.ndims, boxes) : user_template(g.bitmask, boxes);
    in.bits_per_block = g.bits_per_block;
    in.blocks_per_file = g.blocks_per_file;
    in.fields = static_cast<uint32_t>(F);
    in.aggregation = parse_grid_aggregation(g.aggregation);
    in.boxes = boxes;
    plan_ptr = std::make_unique<GridPlan>(std::move(in));
  });
  const GridPlan& plan = *plan_ptr;
  const HzIndex& hz = plan.index();
  const HzIndex& local = plan.local_index();
  const int n = hz.maxh(), p = plan.brick_bits(), bpb = plan.bits_per_block();
  const uint64_t brick_samples = uint64_t{1} << p, fs = plan.file_samples(), bpf = g.blocks_per_file;
  const GridBox grid{{0, 0, 0}, {static_cast<int64_t>(g.dims[0]), static_cast<int64_t>(g.dims[1]),
                                 static_cast<int64_t>(g.dims[2])}};
  const std::string tmpl = idx_default_template(name_, n - bpb);
  const std::string tdir = idx_time_dir(IdxTime{"0", "0", kTimePattern}, step);
  clock.lap(kPlan);

  GridWriteProfile prof;
  std::vector<double> encode_s(n + 1, 0.0), write_s(n + 1, 0.0);
  std::vector<uint64_t> level_blocks(n + 1, 0), level_bytes(n + 1, 0);
  int32_t status = 0;
  std::string message;
  std::vector<uint64_t> totals(plan.units().size(), 0);
  try {
    // ---- restructure: whole bricks at their owners ----
    const std::vector<uint64_t>& owned = plan.bricks_of(me);
    std::vector<ArrayView> brick_src(owned.size());
    if (!scratch_) scratch_ = std::make_shared<GridScratch>();
    GridScratch& scratch = *scratch_;
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
        if (!(bb.intersect(grid) == bb)) std::fill(d.begin(), d.end(), 0);   // samples outside the grid
        brick_src[i].data.push_back(d.data());
        const GridBox part = bb.intersect(mine.box);
        if (!part.empty()) copy_part(mine, brick_src[i], f, part, sample[f], d.data());
      }
      for (int s = 0; s < R; ++s) {
        if (s == me) continue;
        const GridBox part = bb.intersect(boxes[s]);
        if (part.empty()) continue;
        for (size_t f = 0; f < F; ++f) {
          recv_boxes[s].push_back(brick_src[i].sub(f, part, sample[f]));
          prof.restructured_bytes += part.volume() * sample[f];
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
    std::vector<std::vector<uint8_t>>& encoded = scratch.encoded;   // [brick slot * F + field]
    if (encoded.size() < owned.size() * F) encoded.resize(owned.size() * F);
    for (size_t i = 0; i < owned.size(); ++i) {
      const GridBox bb = plan.brick_box(owned[i]);
      const GridBox valid = bb.intersect(grid);
      Coord3 vext;
      for (int a = 0; a < 3; ++a) vext[a] = static_cast<uint64_t>(valid.hi[a] - valid.lo[a]);
      const bool partial = !(valid == bb);
      const uint64_t origin_v = (owned[i] << p) | (uint64_t{1} << n);
      const int origin_level = HzIndex::level_of(origin_v >> (__builtin_ctzll(origin_v) + 1));
      for (size_t f = 0; f < F; ++f) {
        auto& out = encoded[i * F + f];
        out.resize(brick_samples * sample[f]);
        if (partial) std::fill(out.begin(), out.end(), 0);
        const ArrayView& src = brick_src[i];
        const uint8_t* origin = src.data[f] + src.offset(bb.lo, sample[f]);
        const auto stride = src.stride(sample[f]);
        for (int h = 0; h <= p; ++h) {
          const double t0 = PhaseClock<1>::now();
          hz_encode_level(local, h, origin, stride, vext, sample[f], out.data());
          encode_s[h == 0 ? origin_level : n - p + h] += PhaseClock<1>::now() - t0;
        }
      }
    }
    clock.lap(kEncode);

    // ---- aggregate ----
    const auto& units = plan.units();
    std::map<uint64_t, std::vector<std::pair<size_t, BrickRun>>> my_runs;   // file -> (brick slot, run)
    for (size_t i = 0; i < owned.size(); ++i)
      for (const BrickRun& r : plan.brick_runs(owned[i])) my_runs[r.global / fs].push_back({i, r});
    for (auto& [file, list] : my_runs)
      std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second.global < b.second.global; });
    std::vector<size_t> my_units;
    std::map<size_t, std::vector<uint8_t>>& unit_buf = scratch.units;
    for (auto it = unit_buf.begin(); it != unit_buf.end();)   // units this rank no longer aggregates
      it = units.size() > it->first && units[it->first].aggregator == me ? std::next(it) : unit_buf.erase(it);
    for (size_t u = 0; u < units.size(); ++u)
      if (units[u].aggregator == me) {
        my_units.push_back(u);
        auto& buf = unit_buf[u];
        const size_t sb = sample[units[u].field];
        buf.resize(fs * sb);
        const uint64_t first = units[u].file * bpf;
        for (uint64_t b = first; b < std::min(plan.blocks(), first + bpf); ++b)
          if (plan.block_present(b) && plan.block_partial(b))
            std::memset(buf.data() + ((b - first) << bpb) * sb, 0, (uint64_t{1} << bpb) * sb);
      }
    std::map<int, std::vector<Exchange::Range>> sends, recvs;
    for (size_t u = 0; u < units.size(); ++u) {
      const GridUnit& unit = units[u];
      const size_t sb = sample[unit.field];
      const uint64_t A = unit.file * fs;
      auto mr = my_runs.find(unit.file);
      if (mr != my_runs.end())
        for (const auto& [slot, r] : mr->second) {
          const uint8_t* src = encoded[slot * F + unit.field].data() + r.local * sb;
          if (unit.aggregator == me) std::memcpy(unit_buf[u].data() + (r.global - A) * sb, src, r.count * sb);
          else sends[unit.aggregator].push_back({src, r.count * sb});
          prof.aggregated_bytes += r.count * sb;
        }
      if (unit.aggregator != me) continue;
      for (const BrickRun& r : plan.file_runs(unit.file)) {
        const int s = plan.owner(r.brick);
        if (s != me) recvs[s].push_back({unit_buf[u].data() + (r.global - A) * sb, r.count * sb});
      }
    }
    for (auto& [s, list] : recvs) ex.irecv_ranges(list, s, kTagAggregate);
    for (auto& [a, list] : sends) ex.isend_ranges(list, a, kTagAggregate);
    ex.wait_all();
    clock.lap(kAggregate);

    // ---- compress; rank 0 prepares the step's directory ----
    struct Payload {
      uint64_t slot = 0;
      const uint8_t* data = nullptr;
      uint64_t size = 0;
      uint32_t flags = 0;
    };
    std::map<size_t, std::vector<Payload>> payloads;
    std::vector<std::vector<uint8_t>> packed;
    comm.agree([&] {
      for (size_t u : my_units) {
        const GridUnit& unit = units[u];
        const uint64_t raw = (uint64_t{1} << bpb) * sample[unit.field];
        const uint64_t first = unit.file * bpf;
        for (uint64_t b = first; b < std::min(plan.blocks(), first + bpf); ++b) {
          if (!plan.block_present(b)) continue;
          const uint8_t* data = unit_buf[u].data() + (b - first) * raw;
          Payload pl{b - first, data, raw, kIdxCodecRaw};
          if (g.zip) {
            packed.emplace_back();
            const uint64_t len = zip_block(data, raw, packed.back(), b);
            pl = {b - first, packed.back().data(), len, kIdxCodecZip};
          }
          payloads[u].push_back(pl);
          totals[u] += pl.size;
        }
      }
      if (me == 0) {
        remove_tree(join_path(st.path, join_path(name_, tdir)));
        std::string last;
        for (uint64_t f : plan.files()) {
          const std::string dir = parent_path(idx_block_file(st.path, tmpl, tdir, f * bpf, bpf));
          if (dir != last) make_directories(dir);
          last = dir;
        }
      }
    });
    comm.allreduce_u64(totals, MPI_SUM);
    clock.lap(kCompress);

    // ---- write: each aggregator its field's table slice and blocks ----
    comm.agree([&] {
      const uint64_t table = idx_table_bytes(bpf, F);
      for (size_t u : my_units) {
        const double t0 = PhaseClock<1>::now();
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
        if (g.zip) mark_absent_zip(entries);
        std::vector<uint8_t> tbytes;
        encode_idx_table(entries, tbytes);   // header + this field's entries
        const std::string path = idx_block_file(st.path, tmpl, tdir, unit.file * bpf, bpf);
        File out(path, File::Mode::kShare);
        if (unit.field == 0) out.pwrite_all(tbytes.data(), tbytes.size(), 0);
        else
          out.pwrite_all(tbytes.data() + kIdxFileHeaderBytes, tbytes.size() - kIdxFileHeaderBytes,
                         kIdxFileHeaderBytes + kIdxBlockEntryBytes * bpf * unit.field);
        if (!iov.empty()) out.pwritev_all(iov, base);
        out.truncate(file_total);
        if (st.options.fsync) out.sync();
        out.close();
        const double dt = PhaseClock<1>::now() - t0;
        for (const Payload& pl : payloads[u]) {
          const int level = HzIndex::level_of_block(unit.file * bpf + pl.slot, bpb);
          ++level_blocks[level];
          level_bytes[level] += pl.size;
          if (totals[u]) write_s[level] += dt * static_cast<double>(pl.size) / static_cast<double>(totals[u]);
        }
      }
    });
    clock.lap(kFileWrite);
  } catch (const Error& e) {
    status = static_cast<int32_t>(e.code());
    message = e.what();
  } catch (const std::bad_alloc&) {
    status = static_cast<int32_t>(ErrorCode::kIo);
    message = "out of memory while writing a grid step";
  }
  // Everyone learns whether the step's files are complete before rank 0 commits it.
  comm.agree([&] {
    if (status) throw Error(static_cast<ErrorCode>(status), message);
  });

  // ---- commit: the .idx header and the manifest ----
  uint64_t table_total = 0;
  for (uint64_t t : totals) table_total += t;
  GridStepRecord rec;
  rec.step = step;
  rec.files = static_cast<uint32_t>(plan.files().size());
  rec.bytes = table_total + plan.files().size() * idx_table_bytes(bpf, F);
  rec.writer_ranks = static_cast<uint32_t>(R);
  const std::string bitmask_before = g.bitmask;
  g.bitmask = hz.text();
  g.steps.push_back(rec);
  try {
    comm.agree([&] {
      if (me != 0) return;
      std::vector<IdxField> fields;
      for (const auto& f : g.fields) fields.push_back(IdxField{f.name, f.dtype, f.components, "", true});
      const std::string text = encode_idx_header(idx_write_header(
          name_, g.dims, g.ndims, fields, g.bitmask, bpb, bpf, g.zip,
          IdxTime{std::to_string(g.steps.front().step), std::to_string(g.steps.back().step), kTimePattern}));
      replace_file(idx_path(), std::vector<uint8_t>(text.begin(), text.end()), st.options.fsync);
      st.write_manifest();
    });
  } catch (...) {
    g.steps.pop_back();
    g.bitmask = bitmask_before;
    throw;
  }
  clock.lap(kHeader);

  // ---- profile, reduced over ranks ----
  std::vector<double> mins(clock.seconds, clock.seconds + kNumPhases), maxs = mins, sums = mins;
  double total = 0;
  for (double s : clock.seconds) total += s;
  maxs.push_back(total);
  maxs.insert(maxs.end(), encode_s.begin(), encode_s.end());
  maxs.insert(maxs.end(), write_s.begin(), write_s.end());
  comm.allreduce_f64(mins, MPI_MIN);
  comm.allreduce_f64(maxs, MPI_MAX);
  comm.allreduce_f64(sums, MPI_SUM);
  std::vector<uint64_t> counts(level_blocks);
  counts.insert(counts.end(), level_bytes.begin(), level_bytes.end());
  counts.push_back(prof.restructured_bytes);
  counts.push_back(prof.aggregated_bytes);
  comm.allreduce_u64(counts, MPI_SUM);
  std::vector<int> aggs;
  for (const GridUnit& u : plan.units()) aggs.push_back(u.aggregator);
  std::sort(aggs.begin(), aggs.end());
  prof.step = step;
  prof.ranks = R;
  prof.aggregators = static_cast<uint32_t>(std::unique(aggs.begin(), aggs.end()) - aggs.begin());
  prof.files = rec.files;
  prof.bytes = rec.bytes;
  prof.restructured_bytes = counts[2 * (n + 1)];
  prof.aggregated_bytes = counts[2 * (n + 1) + 1];
  prof.bitmask = hz.text();
  prof.rank_order = plan.input().tmpl.derived ? rank_order_name(plan.input().tmpl.order)
                    : g.bitmask_derived              ? "derived at the first write"
                                                     : "user";
  prof.brick_bits = p;
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
