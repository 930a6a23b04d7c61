// Series reads (pipelines/series/series_group.hpp): any hyperslab (steps × z × y × x) of one variable.
// Per window holding some of the steps: its head (checked once, then kept: committed windows
// never change), then of every chunk the box meets only the blocks holding rows the box needs
// and those blocks' checksums, each in file order with ranges closer than the merge gap merged
// into one request; every block is checked against its checksum before its rows are copied out.
#include <algorithm>
#include <cstring>

#include "core/checksum.hpp"
#include "format/series_file.hpp"
#include "layout/series_read_plan.hpp"
#include "pipelines/agreed_read.hpp"
#include "pipelines/series/series_group.hpp"
#include "pipelines/box_copy.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/phase_clock.hpp"
#include "pipelines/series/series_common.hpp"

namespace lodex {

struct SeriesReadPlan {
  SeriesDecomposition dec;
  std::unique_ptr<SarPlan> sar;
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

// Sorted file ranges [lo, hi) read into `buf`, ranges at most `merge` bytes apart as one request
// (the gap read too); at(offset) is where a byte of a range landed.
class MergedRead {
 public:
  MergedRead(const File& f, const std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t merge,
             std::vector<uint8_t>& buf)
      : buf_(buf) {
    const std::vector<std::pair<uint64_t, uint64_t>> merged = merge_ranges(ranges, merge);
    for (const auto& [lo, hi] : merged) bytes += hi - lo;
    buf.resize(bytes);
    uint64_t at = 0;
    for (const auto& [lo, hi] : merged) {
      f.pread_all(buf.data() + at, hi - lo, lo);
      starts_.push_back({lo, at});
      at += hi - lo;
    }
    requests = merged.size();
  }
  const uint8_t* at(uint64_t offset) const {
    const auto it = std::prev(std::upper_bound(starts_.begin(), starts_.end(), offset,
                                               [](uint64_t o, const Start& s) { return o < s.file; }));
    return buf_.data() + it->buf + (offset - it->file);
  }
  uint64_t requests = 0, bytes = 0;

 private:
  struct Start {
    uint64_t file, buf;
  };
  const std::vector<uint8_t>& buf_;
  std::vector<Start> starts_;
};

}  // namespace

const SeriesReadPlan& SeriesGroup::read_plan() const {
  if (read_plan_) return *read_plan_;
  const SeriesMeta& m = meta();
  auto p = std::make_shared<SeriesReadPlan>();
  std::vector<GridBox> boxes;   // one per cell, x fastest: the decomposition the windows were written with
  for (size_t z = 0; z + 1 < m.cuts[2].size(); ++z)
    for (size_t y = 0; y + 1 < m.cuts[1].size(); ++y)
      for (size_t x = 0; x + 1 < m.cuts[0].size(); ++x)
        boxes.push_back(
            {{m.cuts[0][x], m.cuts[1][y], m.cuts[2][z]}, {m.cuts[0][x + 1], m.cuts[1][y + 1], m.cuts[2][z + 1]}});
  p->dec = decompose_series(m.dims, boxes);
  p->sar = std::make_unique<SarPlan>(p->dec, m.d_sar);
  read_plan_ = std::move(p);
  return *read_plan_;
}

namespace {

// A window file's header against the manifest's record and the series' plan (`want`: the plan's
// head of any window of as many steps; the first step is the record's).
void check_window_header(const SeriesWindowHead& h, const SeriesWindowHead& want, const SeriesWindowRecord& rec,
                         const std::string& name, const std::string& path) {
  if (h.series != want.series || h.first_step != static_cast<uint64_t>(rec.steps.front()) || h.steps != want.steps ||
      h.variables != want.variables || h.chunks != want.chunks || h.file_bytes != rec.bytes)
    fail(ErrorCode::kFormat, path, ": the window file does not match the manifest (series '", h.series,
         "', first step ", h.first_step, ", ", h.steps, " steps, ", h.variables, " variables, ", h.chunks, " chunks, ",
         h.file_bytes, " bytes; the manifest says '", name, "', ", rec.steps.front(), ", ", rec.steps.size(), ", ",
         want.variables, ", ", want.chunks, ", ", rec.bytes, ")");
  if (h.block_bytes != want.block_bytes || h.total_planes != want.total_planes || h.total_blocks != want.total_blocks ||
      h.data_offset != want.data_offset || h.file_bytes != want.file_bytes)
    fail(ErrorCode::kFormat, path,
         ": the window's block size, planes, blocks or size are not what the series' plan gives");
}

// Variable v's chunk-table entries against the plan's: any damage to them shows as a difference.
void check_window_entries(const std::vector<SeriesChunkEntry>& got, const SeriesWindowHead& want, uint32_t v,
                          const std::string& var, const std::string& path) {
  for (uint32_t c = 0; c < want.chunks; ++c) {
    const SeriesChunkEntry& e = got[c];
    const SeriesChunkEntry& p = want.entries[size_t{v} * want.chunks + c];
    if (e.offset != p.offset || e.bytes != p.bytes || e.planes != p.planes)
      fail(ErrorCode::kFormat, path, ": the chunk table puts chunk ", c, " of variable '", var, "' at ", e.offset, " (",
           e.bytes, " bytes, ", e.planes, " planes) where the series' plan has ", p.offset, " (", p.bytes, " bytes, ",
           p.planes, " planes): the file is damaged");
  }
}

}  // namespace

const SeriesWindowHead& SeriesGroup::window_head(size_t window, uint32_t v, const File& f, const std::string& path,
                                                 uint64_t gap) const {
  const SeriesMeta& m = meta();
  const SeriesWindowRecord& rec = m.windows[window];
  const auto known = heads_.find(rec.file);
  if (known != heads_.end() && known->second.checked[v]) return *known->second.head;
  const bool first = known == heads_.end();
  const std::shared_ptr<const SeriesWindowHead> want =
      first ? planned_head(static_cast<uint32_t>(rec.steps.size())) : known->second.head;
  const uint64_t size = f.size();
  if (size != want->file_bytes) {   // the header says why when it can; the sizes otherwise
    std::vector<uint8_t> buf(std::min<uint64_t>(size, kSeriesHeaderBytes));
    f.pread_all(buf.data(), buf.size(), 0);
    check_window_header(decode_series_header(buf.data(), buf.size(), size, path), *want, rec, name_, path);
    fail(ErrorCode::kFormat, path, ": the window file has ", size, " bytes where the series' plan gives ",
         want->file_bytes, " (truncated or extended)");
  }
  // The header (a window's first read) and v's entries, in one request when they are close.
  std::vector<uint8_t> buf;
  const MergedRead got(f, series_head_ranges(*want, v, first), gap, buf);
  if (first)
    check_window_header(decode_series_header(got.at(0), kSeriesHeaderBytes, size, path), *want, rec, name_, path);
  const auto [lo, hi] = series_head_ranges(*want, v, false).front();
  check_window_entries(decode_series_entries(got.at(lo), hi - lo, *want, v, path), *want, v, m.variables[v].name, path);
  read_stats_.head_requests += got.requests;
  read_stats_.requests += got.requests;
  read_stats_.head_bytes += got.bytes;
  read_stats_.bytes_read += got.bytes;
  CheckedHead& h = heads_[rec.file];
  if (first) h = {want, std::vector<bool>(want->variables, false)};
  h.checked[v] = true;
  return *h.head;
}

std::shared_ptr<const SeriesWindowHead> SeriesGroup::planned_head(uint32_t steps) const {
  std::shared_ptr<const SeriesWindowHead>& h = planned_heads_[steps];
  if (!h)
    h = std::make_shared<const SeriesWindowHead>(
        planned_window_head(name_, meta().variables, *read_plan().sar, 0, steps));
  return h;
}

uint64_t SeriesGroup::default_merge_gap() const {
  const StarSettings& st = meta().settings;
  return static_cast<uint64_t>(std::clamp(st.bw_io * st.ts, 0.0, static_cast<double>(kMaxMergeGap)));
}

uint64_t SeriesReadPart::bytes() const { return shape[0] * shape[1] * shape[2] * shape[3] * dtype_size(dtype); }

uint32_t SeriesGroup::variable_index(const std::string& var) const {
  const SeriesMeta& m = meta();
  for (uint32_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].name == var) return v;
  std::string names;
  for (const auto& x : m.variables) names += (names.empty() ? "" : ", ") + x.name;
  fail(ErrorCode::kNotFound, "series '", name_, "' has no variable '", var, "' (variables: ", names, ")");
}

std::vector<std::pair<size_t, uint32_t>> SeriesGroup::locate_steps(const std::vector<int64_t>& steps) const {
  const SeriesMeta& m = meta();
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
      fail(ErrorCode::kNotFound, "step ", s, " of series '", name_, "' is buffered and not yet flushed (",
           buffered.size(),
           " steps are): it becomes readable when its window is written, at the write that fills "
           "the window, at flush() or at close()");
    fail(ErrorCode::kNotFound, "series '", name_, "' has no step ", s, " (steps: ", steps_text(this->steps()), ")");
  }
  return where;
}

SeriesReadPart SeriesGroup::read_part(const std::string& var, const std::vector<int64_t>& steps,
                                      const std::optional<GridBox>& box, int rank, int size) const {
  ds_->require_open();
  const SeriesMeta& m = meta();
  // The box first, on the variable's axes when there is one (as the Python layer checked it).
  const SeriesVariable* known = m.find_variable(var);
  GridBox obox = box ? *box : GridBox{{0, 0, 0}, m.dims};
  if (known && known->ndim == 2) obox.lo[2] = 0, obox.hi[2] = m.dims[2];   // z does not apply
  for (int a = 0; a < 3; ++a)
    if (obox.lo[a] < 0 || obox.hi[a] > m.dims[a] || obox.lo[a] >= obox.hi[a])
      fail(ErrorCode::kInvalidArgument, "box ", box_text(obox), " is empty or outside the ", m.dims[0], " x ",
           m.dims[1], " x ", m.dims[2], " grid of series '", name_, "'");
  const std::vector<int64_t> asked = steps.empty() ? this->steps() : steps;
  if (asked.empty()) fail(ErrorCode::kInvalidArgument, "series '", name_, "' has no flushed steps yet");
  const SeriesVariable& variable = m.variables[variable_index(var)];
  {
    std::vector<int64_t> sorted = asked;
    std::sort(sorted.begin(), sorted.end());
    if (auto it = std::adjacent_find(sorted.begin(), sorted.end()); it != sorted.end())
      fail(ErrorCode::kInvalidArgument, "step ", *it, " is asked for twice");
  }
  locate_steps(asked);
  const SeriesReadShare share = split_series_read(asked, var_box(variable, obox), variable.ndim, rank, size);
  SeriesReadPart p;
  p.steps = share.steps;
  p.box = share.box;
  p.dtype = variable.dtype;
  p.shape[0] = p.steps.size();
  for (int a = 0; a < 3; ++a) p.shape[3 - a] = static_cast<uint64_t>(std::max<int64_t>(0, p.box.hi[a] - p.box.lo[a]));
  return p;
}

SeriesArray SeriesGroup::read(const std::string& var, const std::vector<int64_t>& steps,
                              const std::optional<GridBox>& box, std::optional<uint64_t> merge_gap) const {
  return read(var, steps, box, merge_gap, MPI_COMM_NULL);
}

SeriesArray SeriesGroup::read(const std::string& var, const std::vector<int64_t>& steps,
                              const std::optional<GridBox>& box, std::optional<uint64_t> merge_gap, MPI_Comm comm,
                              const std::optional<Error>& input_error) const {
  const auto gap_text = [](uint64_t g) { return std::to_string(g); };
  return agreed_read(
      comm, input_error, "series read",
      {{"series", name_},
       {"variable", var},
       {"steps", argument_text(steps)},
       {"box", argument_text(box, box_text)},
       {"merge gap", argument_text(merge_gap, gap_text)}},
      [&](int rank, int size) { return read_part(var, steps, box, rank, size); },
      [&](const SeriesReadPart& part) {
        const double t0 = wall_seconds();
        read_stats_ = {};
        SeriesArray out = read_part_data(part, variable_index(var), merge_gap);
        if (!out.bytes.empty()) read_stats_.seconds = wall_seconds() - t0;
        return out;
      });
}

// One window's part of a read (plan_window_read's plan): its blocks read with their checksums,
// needed ranges at most `gap` apart as one request, every block verified, then the rows copied
// into `out`.
void SeriesGroup::read_window(const File& f, const std::string& path, const SeriesWindowHead& head,
                              const SeriesVariable& variable, const SeriesWindowRead& plan, uint64_t gap, uint8_t* out,
                              std::vector<uint8_t>& data, std::vector<uint8_t>& sums) const {
  const uint64_t B = head.block_bytes;
  const uint64_t table = head.block_table_offset();
  const MergedRead data_read(f, plan.data_ranges(), gap, data);
  const MergedRead sum_read(f, plan.checksum_ranges(table), gap, sums);
  read_stats_.requests += data_read.requests + sum_read.requests;
  read_stats_.bytes_read += data_read.bytes + sum_read.bytes;
  read_stats_.checksum_requests += sum_read.requests;
  read_stats_.checksum_bytes += sum_read.bytes;
  for (const SeriesBlockRun& b : plan.blocks) {
    const uint8_t* p = data_read.at(b.offset);
    const uint8_t* q = sum_read.at(table + 8 * b.first);
    for (uint64_t i = 0, at = 0; i < b.count; ++i, at += B) {
      const uint64_t n = std::min(B, b.bytes - at);
      uint64_t expect;
      std::memcpy(&expect, q + 8 * i, 8);   // little-endian, as ByteWriter wrote it
      if (checksum64(p + at, n) != expect)
        fail(ErrorCode::kFormat, path, ": checksum mismatch in variable '", variable.name, "' at offset ",
             b.offset + at, " (", n, " bytes): the file is damaged");
    }
    read_stats_.blocks += b.count;
  }
  for (const SeriesRowCopy& r : plan.rows) std::memcpy(out + r.out, data_read.at(r.offset), r.bytes);
}

SeriesArray SeriesGroup::read_part_data(const SeriesReadPart& part, uint32_t v,
                                        std::optional<uint64_t> merge_gap) const {
  const SeriesMeta& m = meta();
  const SeriesVariable& variable = m.variables[v];
  const std::vector<int64_t>& steps = part.steps;
  const GridBox& obox = part.box;   // on the variable's axes
  SeriesArray out;
  out.dtype = variable.dtype;
  out.shape = part.shape;
  out.bytes.allocate(part.bytes());
  if (out.bytes.empty()) return out;   // this rank's part is empty: nothing read, stats zero
  const std::vector<std::pair<size_t, uint32_t>> where = locate_steps(steps);
  const uint64_t sample = variable.sample_bytes();
  const uint64_t out_step = obox.volume() * sample;
  const SeriesReadPlan& plan = read_plan();
  const auto& chunks = plan.sar->chunks();

  std::vector<size_t> windows;
  for (const auto& [w, k] : where) windows.push_back(w);
  std::sort(windows.begin(), windows.end());
  windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
  const uint64_t gap = merge_gap ? *merge_gap : default_merge_gap();
  read_stats_.merge_gap = gap;
  std::vector<uint8_t> data, sums;
  for (size_t w : windows) {
    const std::string path = join_path(join_path(ds_->path, name_), m.windows[w].file);
    if (!path_exists(path))
      fail(ErrorCode::kFormat, "window file '", path, "' of series '", name_, "' (steps ",
           steps_text(m.windows[w].steps), ") is listed in the manifest but missing");
    const File f = ds_->confinement.open(path);
    ++read_stats_.windows;
    const SeriesWindowHead& head = window_head(w, v, f, path, gap);
    // The rows this window gives and the blocks holding them (layout/series_read_plan).
    std::vector<std::pair<uint64_t, uint64_t>> in_window;   // (answer step, step inside the window)
    for (size_t i = 0; i < steps.size(); ++i)
      if (where[i].first == w) in_window.emplace_back(i, where[i].second);
    const SeriesWindowRead plan_w =
        plan_window_read(variable, chunks, chunk_places(head, v), in_window, obox, head.block_bytes);
    read_stats_.chunks += plan_w.chunks;
    read_window(f, path, head, variable, plan_w, gap, out.bytes.data(), data, sums);
  }
  read_stats_.bytes_returned = out_step * steps.size();
  return out;
}

}  // namespace lodex
