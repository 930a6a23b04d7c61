// Series reads (include/lodex/series.hpp): any hyperslab (steps × z × y × x) of one variable.
// Per window holding some of the steps: its head (checked once, then kept: committed windows
// never change), then of every chunk the box meets only the slabs (one z-plane of one step) the
// box needs, in file order, neighbours merged into one request; every slab is checked against
// its checksum before its rows are copied out.
#include <algorithm>
#include <numeric>

#include "core/checksum.hpp"
#include "format/series_file.hpp"
#include "lodex/series.hpp"
#include "pipelines/box_copy.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/phase_clock.hpp"
#include "pipelines/series_common.hpp"

namespace lodex {

struct SeriesReadPlan {
  SeriesDecomposition dec;
  std::unique_ptr<SarPlan> sar;
  std::vector<uint32_t> planes;   // [variable × chunks + chunk]
  uint64_t total_planes = 0;
};

namespace {

// "0..23, 30, 40..41": steps, consecutive runs collapsed.
std::string steps_text(const std::vector<int64_t>& steps) {
  if (steps.empty()) return "none";
  std::string s;
  for (size_t i = 0; i < steps.size();) {
    size_t j = i;
    while (j + 1 < steps.size() && steps[j + 1] == steps[j] + 1) ++j;
    s += cat(i ? ", " : "", steps[i]);
    if (j > i) s += cat("..", steps[j]);
    i = j + 1;
  }
  return s;
}

}  // namespace

const SeriesReadPlan& SeriesGroup::read_plan() const {
  if (read_plan_) return *read_plan_;
  const SeriesMeta& m = meta();
  auto p = std::make_shared<SeriesReadPlan>();
  std::vector<GridBox> boxes;   // one per cell, x fastest: the decomposition the windows were written with
  for (size_t z = 0; z + 1 < m.cuts[2].size(); ++z)
    for (size_t y = 0; y + 1 < m.cuts[1].size(); ++y)
      for (size_t x = 0; x + 1 < m.cuts[0].size(); ++x)
        boxes.push_back({{m.cuts[0][x], m.cuts[1][y], m.cuts[2][z]}, {m.cuts[0][x + 1], m.cuts[1][y + 1], m.cuts[2][z + 1]}});
  p->dec = decompose_series(m.dims, boxes);
  p->sar = std::make_unique<SarPlan>(p->dec, m.d_sar);
  p->planes = chunk_planes(m.variables, *p->sar);
  p->total_planes = std::accumulate(p->planes.begin(), p->planes.end(), uint64_t{0});
  read_plan_ = std::move(p);
  return *read_plan_;
}

std::shared_ptr<const SeriesWindowHead> SeriesGroup::window_head(size_t window) const {
  const SeriesMeta& m = meta();
  const SeriesWindowRecord& rec = m.windows[window];
  if (auto it = heads_.find(rec.file); it != heads_.end()) return it->second;
  const SeriesReadPlan& plan = read_plan();
  const std::string path = join_path(join_path(ds_->path, name_), rec.file);
  if (!path_exists(path))
    fail(ErrorCode::kFormat, "window file '", path, "' of series '", name_, "' (steps ", steps_text(rec.steps),
         ") is listed in the manifest but missing");
  File f(path, File::Mode::kRead);
  const uint64_t size = f.size();
  std::vector<uint8_t> buf(std::min<uint64_t>(size, kSeriesHeaderBytes));
  f.pread_all(buf.data(), buf.size(), 0);
  auto head = std::make_shared<SeriesWindowHead>(decode_series_header(buf.data(), buf.size(), size, path));
  SeriesWindowHead& h = *head;
  const uint32_t V = static_cast<uint32_t>(m.variables.size()), C = static_cast<uint32_t>(plan.sar->chunks().size());
  if (h.series != name_.substr(0, 31) || h.first_step != static_cast<uint64_t>(rec.steps.front()) ||
      h.steps != rec.steps.size() || h.variables != V || h.chunks != C || h.total_planes != plan.total_planes ||
      h.file_bytes != rec.bytes)
    fail(ErrorCode::kFormat, path, ": the window file does not match the manifest (series '", h.series, "', first step ",
         h.first_step, ", ", h.steps, " steps, ", h.variables, " variables, ", h.chunks, " chunks, ", h.file_bytes,
         " bytes; the manifest says '", name_, "', ", rec.steps.front(), ", ", rec.steps.size(), ", ", V, ", ", C, ", ",
         rec.bytes, ")");
  buf.resize(h.table_bytes());
  f.pread_all(buf.data(), buf.size(), kSeriesHeaderBytes);
  decode_series_table(buf.data(), buf.size(), h, path);
  const WindowLayout layout = window_layout(m.variables, *plan.sar, h.steps, h.data_offset);
  for (uint32_t v = 0; v < V; ++v)
    for (uint32_t c = 0; c < C; ++c) {
      const SeriesChunkEntry& e = h.entries[size_t{v} * C + c];
      if (e.offset != layout.offset[v][c] || e.bytes != layout.bytes[v][c] || e.planes != plan.planes[size_t{v} * C + c])
        fail(ErrorCode::kFormat, path, ": chunk ", c, " of variable '", m.variables[v].name,
             "' is not where the series' plan puts it");
    }
  read_stats_.head_requests += 2;
  read_stats_.requests += 2;
  read_stats_.head_bytes += kSeriesHeaderBytes + h.table_bytes();
  read_stats_.bytes_read += kSeriesHeaderBytes + h.table_bytes();
  heads_.emplace(rec.file, head);
  return head;
}

SeriesArray SeriesGroup::read(const std::string& var, const std::vector<int64_t>& steps,
                              const std::optional<GridBox>& box) const {
  const double t0 = wall_seconds();
  read_stats_ = {};
  ds_->require_open();
  const SeriesMeta& m = meta();
  uint32_t v = 0;
  while (v < m.variables.size() && m.variables[v].name != var) ++v;
  if (v == m.variables.size()) {
    std::string names;
    for (const auto& x : m.variables) names += (names.empty() ? "" : ", ") + x.name;
    fail(ErrorCode::kNotFound, "series '", name_, "' has no variable '", var, "' (variables: ", names, ")");
  }
  const SeriesVariable& variable = m.variables[v];
  if (steps.empty()) fail(ErrorCode::kInvalidArgument, "no steps asked for");
  // Each step's window and its slot there.
  {
    std::vector<int64_t> sorted = steps;
    std::sort(sorted.begin(), sorted.end());
    if (auto it = std::adjacent_find(sorted.begin(), sorted.end()); it != sorted.end())
      fail(ErrorCode::kInvalidArgument, "step ", *it, " is asked for twice");
  }
  std::vector<std::pair<size_t, uint32_t>> where(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    const int64_t s = steps[i];
    bool found = false;
    for (size_t w = 0; w < m.windows.size() && !found; ++w) {
      const auto& ws = m.windows[w].steps;
      const auto it = std::lower_bound(ws.begin(), ws.end(), s);
      if (it != ws.end() && *it == s) {
        where[i] = {w, static_cast<uint32_t>(it - ws.begin())};
        found = true;
      }
    }
    if (found) continue;
    const std::vector<int64_t> buffered = buffered_steps();
    if (std::count(buffered.begin(), buffered.end(), s))
      fail(ErrorCode::kNotFound, "step ", s, " of series '", name_, "' is buffered and not yet flushed (", buffered.size(),
           " steps are): it becomes readable when its window is written, at the write that fills "
           "the window, at flush() or at close()");
    fail(ErrorCode::kNotFound, "series '", name_, "' has no step ", s, " (steps: ", steps_text(this->steps()), ")");
  }
  const GridBox grid{{0, 0, 0}, m.dims};
  GridBox obox = box ? *box : grid;
  if (variable.ndim == 2 && box) obox.lo[2] = 0, obox.hi[2] = m.dims[2];   // z does not apply
  for (int a = 0; a < 3; ++a)
    if (obox.lo[a] < 0 || obox.hi[a] > m.dims[a] || obox.lo[a] >= obox.hi[a])
      fail(ErrorCode::kInvalidArgument, "box ", box_text(obox), " is empty or outside the ", m.dims[0], " x ", m.dims[1],
           " x ", m.dims[2], " grid of series '", name_, "'");
  obox = var_box(variable, obox);
  const uint64_t sample = variable.sample_bytes();
  const uint64_t out_step = obox.volume() * sample;
  SeriesArray out;
  out.dtype = variable.dtype;
  out.shape = {steps.size(), static_cast<uint64_t>(obox.hi[2] - obox.lo[2]), static_cast<uint64_t>(obox.hi[1] - obox.lo[1]),
               static_cast<uint64_t>(obox.hi[0] - obox.lo[0])};
  out.bytes.allocate(out_step * steps.size());
  const SeriesReadPlan& plan = read_plan();
  const auto& chunks = plan.sar->chunks();
  const uint32_t C = static_cast<uint32_t>(chunks.size());

  std::vector<size_t> windows;
  for (const auto& [w, k] : where)
    if (std::find(windows.begin(), windows.end(), w) == windows.end()) windows.push_back(w);
  std::sort(windows.begin(), windows.end());
  std::vector<uint8_t> scratch;
  for (size_t w : windows) {
    const std::shared_ptr<const SeriesWindowHead> head = window_head(w);
    // Every slab this window gives: where it is in the file, and where its rows go.
    struct Slab {
      uint64_t offset, bytes, checksum;
      GridBox box;        // the slab's (one z-plane of the chunk)
      GridBox region;     // what of it the output takes
      uint8_t* out;       // the output step it lands in
    };
    std::vector<Slab> slabs;
    for (uint32_t c = 0; c < C; ++c) {
      const GridBox cb = var_box(variable, chunks[c].box);
      const GridBox r = cb.intersect(obox);
      if (r.empty()) continue;
      ++read_stats_.chunks;
      const SeriesChunkEntry& e = head->entries[size_t{v} * C + c];
      const uint64_t slab = e.slab_bytes(head->steps);
      for (size_t i = 0; i < steps.size(); ++i) {
        if (where[i].first != w) continue;
        const uint32_t k = where[i].second;
        for (int64_t z = r.lo[2]; z < r.hi[2]; ++z) {
          const uint64_t p = static_cast<uint64_t>(z - cb.lo[2]);
          Slab s;
          s.offset = e.offset + (uint64_t{k} * e.planes + p) * slab;
          s.bytes = slab;
          s.checksum = e.checksums[uint64_t{k} * e.planes + p];
          s.box = cb;
          s.box.lo[2] = z;
          s.box.hi[2] = z + 1;
          s.region = r;
          s.region.lo[2] = z;
          s.region.hi[2] = z + 1;
          s.out = out.bytes.data() + i * out_step;
          slabs.push_back(s);
        }
      }
    }
    std::sort(slabs.begin(), slabs.end(), [](const Slab& a, const Slab& b) { return a.offset < b.offset; });
    uint64_t total = 0;
    for (const Slab& s : slabs) total += s.bytes;
    scratch.resize(total);
    // File order into scratch; neighbours in the file are one request.
    File f(join_path(join_path(ds_->path, name_), m.windows[w].file), File::Mode::kRead);
    ++read_stats_.windows;
    uint64_t at = 0;
    for (size_t i = 0; i < slabs.size();) {
      size_t j = i + 1;
      uint64_t run = slabs[i].bytes;
      while (j < slabs.size() && slabs[j].offset == slabs[j - 1].offset + slabs[j - 1].bytes) run += slabs[j++].bytes;
      f.pread_all(scratch.data() + at, run, slabs[i].offset);
      ++read_stats_.requests;
      read_stats_.bytes_read += run;
      at += run;
      i = j;
    }
    at = 0;
    for (const Slab& s : slabs) {
      const uint8_t* p = scratch.data() + at;
      if (checksum64(p, s.bytes) != s.checksum)
        fail(ErrorCode::kFormat, f.path(), ": checksum mismatch in variable '", var, "' at offset ", s.offset, " (",
             s.bytes, " bytes): the file is damaged");
      copy_region(p, s.box, s.out, obox, s.region, sample);
      at += s.bytes;
    }
  }
  read_stats_.bytes_returned = out_step * steps.size();
  read_stats_.seconds = wall_seconds() - t0;
  return out;
}

}  // namespace lodex
