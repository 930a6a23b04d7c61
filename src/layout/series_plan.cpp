#include "layout/series_plan.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "layout/hilbert.hpp"

namespace lodex {

namespace {

constexpr uint32_t kMaxTar = 1024;   // a window longer than this keeps steps from readers too long

}  // namespace

int SeriesDecomposition::decomposed_axes() const {
  int n = 0;
  for (int a = 0; a < 3; ++a) n += cells(a) > 1;
  return n;
}

GridBox SeriesDecomposition::cell_box(const std::array<uint32_t, 3>& c) const {
  GridBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = cuts[a][c[a]];
    b.hi[a] = cuts[a][c[a] + 1];
  }
  return b;
}

SeriesDecomposition decompose_series(const std::array<int64_t, 3>& dims, const std::vector<GridBox>& boxes) {
  SeriesDecomposition d;
  d.dims = dims;
  for (int a = 0; a < 3; ++a)
    if (dims[a] < 1)
      fail(ErrorCode::kInvalidArgument, "series dimensions must be at least 1, got ", dims[a], " on axis ", a);
  if (boxes.empty()) fail(ErrorCode::kInvalidArgument, "a series needs at least one rank's box");
  const GridBox grid{{0, 0, 0}, dims};
  for (size_t r = 0; r < boxes.size(); ++r) {
    const GridBox& b = boxes[r];
    if (b.empty()) fail(ErrorCode::kInvalidArgument, "rank ", r, "'s box ", box_text(b), " is empty");
    if (b.intersect(grid) != b)
      fail(ErrorCode::kInvalidArgument, "rank ", r, "'s box ", box_text(b), " leaves the grid ", box_text(grid));
  }
  for (int a = 0; a < 3; ++a) {
    std::vector<int64_t>& c = d.cuts[a];
    for (const GridBox& b : boxes) {
      c.push_back(b.lo[a]);
      c.push_back(b.hi[a]);
    }
    c.push_back(0);
    c.push_back(dims[a]);
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  d.cell.resize(boxes.size());
  const size_t cells = size_t{d.cells(0)} * d.cells(1) * d.cells(2);
  if (cells != boxes.size()) {
    // Either boxes overlap or leave gaps, or they are not one cell each: name a culprit.
    for (size_t r = 0; r < boxes.size(); ++r)
      for (size_t q = r + 1; q < boxes.size(); ++q)
        if (!boxes[r].intersect(boxes[q]).empty())
          fail(ErrorCode::kInvalidArgument, "the boxes of ranks ", r, " and ", q, " overlap: ", box_text(boxes[r]),
               " and ", box_text(boxes[q]));
  }
  d.rank_at.assign(cells, UINT32_MAX);
  for (size_t r = 0; r < boxes.size(); ++r) {
    std::array<uint32_t, 3> c{};
    for (int a = 0; a < 3; ++a) {
      const auto& cut = d.cuts[a];
      const auto lo = std::lower_bound(cut.begin(), cut.end(), boxes[r].lo[a]);
      c[a] = static_cast<uint32_t>(lo - cut.begin());
      if (*(lo + 1) != boxes[r].hi[a])
        fail(ErrorCode::kInvalidArgument,
             "the ranks' boxes do not form a grid of boxes (a 2-D or 3-D domain "
             "decomposition): rank ",
             r, "'s box ", box_text(boxes[r]), " spans the edges of other ranks' boxes on axis ", a);
    }
    const size_t at = c[0] + size_t{d.cells(0)} * (c[1] + size_t{d.cells(1)} * c[2]);
    if (d.rank_at[at] != UINT32_MAX)
      fail(ErrorCode::kInvalidArgument, "the boxes of ranks ", d.rank_at[at], " and ", r, " overlap: both are ",
           box_text(boxes[r]));
    d.rank_at[at] = static_cast<uint32_t>(r);
    d.cell[r] = c;
  }
  for (size_t at = 0; at < cells; ++at)
    if (d.rank_at[at] == UINT32_MAX) {
      const std::array<uint32_t, 3> c{static_cast<uint32_t>(at % d.cells(0)),
                                      static_cast<uint32_t>(at / d.cells(0) % d.cells(1)),
                                      static_cast<uint32_t>(at / d.cells(0) / d.cells(1))};
      fail(ErrorCode::kInvalidArgument, "no rank's box covers ", box_text(d.cell_box(c)), " of the grid");
    }
  return d;
}

uint32_t max_sar_levels(const SeriesDecomposition& d) {
  uint32_t levels = 0;
  for (int a = 0; a < 3; ++a) levels = std::max<uint32_t>(levels, static_cast<uint32_t>(bits_for(d.cells(a))));
  return levels;
}

StarChoice coordinate_star(uint64_t step_bytes, uint64_t var_step_bytes, int decomposed_axes, uint32_t max_d_sar,
                           const StarSettings& s) {
  if (!(s.bw_io > 0) || !(s.cc >= 0) || !(s.ts >= 0) || !std::isfinite(s.bw_io * (s.cc + s.ts)))
    fail(ErrorCode::kInvalidArgument, "bandwidth must be positive and the cost units non-negative (bw_io ", s.bw_io,
         ", cc ", s.cc, ", ts ", s.ts, ")");
  if (step_bytes == 0 || var_step_bytes == 0) fail(ErrorCode::kInvalidArgument, "a series needs variables with data");
  StarChoice out;
  const uint64_t by_memory = s.memory_budget / step_bytes;
  if (by_memory == 0)
    fail(ErrorCode::kInvalidArgument, "the memory budget of ", s.memory_budget, " bytes is too small for one step (",
         step_bytes, " bytes on the largest rank)");
  out.opt_size = static_cast<uint64_t>(s.bw_io * (s.cc + s.ts));
  const double fan = std::ldexp(1.0, decomposed_axes);
  if (s.d_sar >= 0 && static_cast<uint32_t>(s.d_sar) > max_d_sar)
    fail(ErrorCode::kInvalidArgument, "d_sar ", s.d_sar, " is more than the ", max_d_sar,
         " levels of spatial aggregation this decomposition allows");
  if (s.max_window_steps < 1 || !(s.max_window_seconds > 0))
    fail(ErrorCode::kInvalidArgument, "max_window_steps must be at least 1 and max_window_seconds positive (got ",
         s.max_window_steps, " and ", s.max_window_seconds, ")");
  if (s.d_tar >= 1 && static_cast<uint32_t>(s.d_tar) > s.max_window_steps)
    fail(ErrorCode::kInvalidArgument, "d_tar ", s.d_tar, " is more than max_window_steps ", s.max_window_steps,
         " (the steps a crash may lose): raise max_window_steps too");
  if (s.d_tar >= 1 && static_cast<uint64_t>(s.d_tar) > by_memory)
    fail(ErrorCode::kInvalidArgument, "d_tar ", s.d_tar, " steps of ", step_bytes,
         " bytes exceed the memory budget of ", s.memory_budget, " bytes");
  out.d_sar = s.d_sar >= 0 ? static_cast<uint32_t>(s.d_sar) : std::min<uint32_t>(1, max_d_sar);
  const uint64_t tar_cap = std::min<uint64_t>({by_memory, kMaxTar, s.max_window_steps});
  auto spatial = [&](uint32_t levels) { return std::pow(fan, levels) * static_cast<double>(var_step_bytes); };
  if (s.d_tar >= 1) {
    out.d_tar = static_cast<uint32_t>(s.d_tar);
    out.reason = "d_tar forced";
  } else {
    const double want = std::ceil(static_cast<double>(out.opt_size) / spatial(out.d_sar));
    out.d_tar = static_cast<uint32_t>(std::clamp<double>(want, 1, static_cast<double>(tar_cap)));
    out.reason = cat("d_tar: the steps that make a chunk OptSize = BW_io x (CC + Ts) = ", out.opt_size, " bytes");
    if (want > static_cast<double>(tar_cap))
      out.reason += tar_cap == by_memory            ? cat(", capped by the memory budget at ", tar_cap)
                    : tar_cap == s.max_window_steps ? cat(", capped by max_window_steps at ", tar_cap)
                                                    : cat(", capped at ", kMaxTar, " steps");
  }
  if (s.d_sar < 0) {
    const double rest = static_cast<double>(out.opt_size) / (out.d_tar * static_cast<double>(var_step_bytes));
    if (fan > 1 && rest > fan) {   // eq. 4: more levels make up what time could not
      const auto levels = static_cast<uint32_t>(std::floor(std::log(rest) / std::log(fan) + 1e-9));
      out.d_sar = std::min(max_d_sar, std::max(out.d_sar, levels));
    }
    out.reason += cat("; d_sar ", out.d_sar, max_d_sar == 0 ? " (one rank per group: nothing to merge)" : "");
  } else {
    out.reason += "; d_sar forced";
  }
  out.chunk_bytes = static_cast<uint64_t>(out.d_tar * spatial(out.d_sar));
  out.buffer_bytes = out.d_tar * step_bytes;
  return out;
}

SarPlan::SarPlan(const SeriesDecomposition& d, uint32_t d_sar) : d_(d), d_sar_(d_sar) {
  if (d_sar > max_sar_levels(d) && d_sar > 0)
    fail(ErrorCode::kInvalidArgument, "d_sar ", d_sar, " is more than the ", max_sar_levels(d),
         " levels this decomposition allows");
  int bits = 0;
  for (int a = 0; a < 3; ++a) {
    cut_[a] = d.cells(a) > 1;
    n_ += cut_[a];
    blocks_[a] = cut_[a] ? (d.cells(a) + (1u << d_sar) - 1) >> d_sar : 1;
    bits = std::max(bits, bits_for(blocks_[a]));
  }
  const size_t nblocks = size_t{blocks_[0]} * blocks_[1] * blocks_[2];
  for (size_t i = 0; i < nblocks; ++i) {
    SeriesChunk c;
    c.block = {static_cast<uint32_t>(i % blocks_[0]), static_cast<uint32_t>(i / blocks_[0] % blocks_[1]),
               static_cast<uint32_t>(i / blocks_[0] / blocks_[1])};
    std::array<uint32_t, 3> packed{0, 0, 0};
    int k = 0;
    for (int a = 0; a < 3; ++a) {
      c.first_cell[a] = cut_[a] ? c.block[a] << d_sar : 0;
      c.end_cell[a] = cut_[a] ? std::min(c.first_cell[a] + (1u << d_sar), d.cells(a)) : d.cells(a);
      c.box.lo[a] = d.cuts[a][c.first_cell[a]];
      c.box.hi[a] = d.cuts[a][c.end_cell[a]];
      if (cut_[a]) packed[k++] = c.block[a];
    }
    c.hilbert = n_ ? hilbert_index(packed, n_, std::max(bits, 1)) : 0;
    chunks_.push_back(c);
  }
  std::sort(chunks_.begin(), chunks_.end(),
            [](const SeriesChunk& a, const SeriesChunk& b) { return a.hilbert < b.hilbert; });
  chunk_of_block_.assign(nblocks, 0);
  for (uint32_t i = 0; i < chunks_.size(); ++i) {
    const auto& b = chunks_[i].block;
    chunk_of_block_[b[0] + size_t{blocks_[0]} * (b[1] + size_t{blocks_[1]} * b[2])] = i;
  }
}

uint32_t SarPlan::chunk_of_rank(uint32_t rank) const {
  const auto& c = d_.cell.at(rank);
  std::array<uint32_t, 3> b{};
  for (int a = 0; a < 3; ++a) b[a] = cut_[a] ? c[a] >> d_sar_ : 0;
  return chunk_of_block_[b[0] + size_t{blocks_[0]} * (b[1] + size_t{blocks_[1]} * b[2])];
}

std::array<uint32_t, 3> SarPlan::group_first(uint32_t level, const std::array<uint32_t, 3>& cell) const {
  std::array<uint32_t, 3> f{};
  for (int a = 0; a < 3; ++a) f[a] = cut_[a] && level < 32 ? (cell[a] >> level) << level : 0;
  return f;
}

std::array<uint32_t, 3> SarPlan::group_end(uint32_t level, const std::array<uint32_t, 3>& first) const {
  std::array<uint32_t, 3> e{};
  for (int a = 0; a < 3; ++a)
    e[a] = cut_[a] && level < 32 ? std::min<uint64_t>(first[a] + (uint64_t{1} << level), d_.cells(a)) : d_.cells(a);
  return e;
}

GridBox SarPlan::group_box(uint32_t level, uint32_t rank) const {
  const auto first = group_first(level, d_.cell.at(rank));
  const auto end = group_end(level, first);
  GridBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = d_.cuts[a][first[a]];
    b.hi[a] = d_.cuts[a][end[a]];
  }
  return b;
}

uint32_t SarPlan::aggregator(uint32_t v, uint32_t level, uint32_t rank) const {
  if (level > d_sar_) fail(ErrorCode::kInternal, "aggregation level ", level, " of ", d_sar_);
  std::array<uint32_t, 3> first = group_first(level, d_.cell.at(rank));
  for (uint32_t l = level; l > 0; --l) {
    // The sub-groups of this level-l group, x fastest; pick one round robin.
    const auto end = group_end(l, first);
    std::array<uint32_t, 3> count{};
    for (int a = 0; a < 3; ++a) count[a] = cut_[a] ? (end[a] - first[a] + (1u << (l - 1)) - 1) >> (l - 1) : 1;
    const uint64_t subgroups = uint64_t{count[0]} * count[1] * count[2];
    // floor(v / (2^n)^(l-1)): past 32 bits of shift every v gives 0.
    const uint64_t shift = uint64_t{static_cast<uint32_t>(n_)} * (l - 1);
    const uint64_t k = (shift >= 32 ? 0 : v >> shift) % subgroups;
    const std::array<uint32_t, 3> pick{static_cast<uint32_t>(k % count[0]),
                                       static_cast<uint32_t>(k / count[0] % count[1]),
                                       static_cast<uint32_t>(k / count[0] / count[1])};
    for (int a = 0; a < 3; ++a)
      if (cut_[a]) first[a] += pick[a] << (l - 1);
  }
  return d_.rank_at[first[0] + size_t{d_.cells(0)} * (first[1] + size_t{d_.cells(1)} * first[2])];
}

std::vector<uint32_t> SarPlan::senders(uint32_t v, uint32_t level, uint32_t rank) const {
  if (level == 0 || level > d_sar_) fail(ErrorCode::kInternal, "senders at level ", level, " of ", d_sar_);
  const auto first = group_first(level, d_.cell.at(rank));
  const auto end = group_end(level, first);
  std::vector<uint32_t> out;
  const uint32_t step = 1u << (level - 1);
  for (uint32_t z = first[2]; z < end[2]; z += cut_[2] ? step : end[2])
    for (uint32_t y = first[1]; y < end[1]; y += cut_[1] ? step : end[1])
      for (uint32_t x = first[0]; x < end[0]; x += cut_[0] ? step : end[0])
        out.push_back(aggregator(v, level - 1, d_.rank_at[x + size_t{d_.cells(0)} * (y + size_t{d_.cells(1)} * z)]));
  std::sort(out.begin(), out.end());
  return out;
}

uint64_t chunk_bytes(const SeriesVariable& v, const GridBox& box, uint64_t steps) {
  const uint64_t area = static_cast<uint64_t>(box.hi[0] - box.lo[0]) * static_cast<uint64_t>(box.hi[1] - box.lo[1]);
  const uint64_t depth = v.ndim == 3 ? static_cast<uint64_t>(box.hi[2] - box.lo[2]) : 1;
  return steps * area * depth * v.sample_bytes();
}

WindowLayout window_layout(const std::vector<SeriesVariable>& vars, const SarPlan& sar, uint64_t steps,
                           uint64_t start) {
  WindowLayout w;
  uint64_t at = start;
  for (const SeriesVariable& v : vars) {
    w.offset.emplace_back();
    w.bytes.emplace_back();
    for (const SeriesChunk& c : sar.chunks()) {
      const uint64_t b = chunk_bytes(v, c.box, steps);
      w.offset.back().push_back(at);
      w.bytes.back().push_back(b);
      at += b;
    }
  }
  w.end = at;
  return w;
}

GridBox var_box(const SeriesVariable& v, GridBox box) {
  if (v.ndim == 2) {
    box.lo[2] = 0;
    box.hi[2] = 1;
  }
  return box;
}

uint32_t var_planes(const SeriesVariable& v, const GridBox& box) {
  return v.ndim == 2 ? 1u : static_cast<uint32_t>(box.hi[2] - box.lo[2]);
}

std::vector<uint32_t> chunk_planes(const std::vector<SeriesVariable>& vars, const SarPlan& sar) {
  std::vector<uint32_t> out;
  out.reserve(vars.size() * sar.chunks().size());
  for (const auto& v : vars)
    for (const auto& c : sar.chunks()) out.push_back(var_planes(v, c.box));
  return out;
}

SeriesStepBytes series_step_bytes(const std::vector<SeriesVariable>& vars, const std::vector<GridBox>& boxes) {
  SeriesStepBytes out;
  uint64_t total = 0;
  for (const GridBox& b : boxes) {
    uint64_t bytes = 0;
    for (const auto& v : vars) bytes += chunk_bytes(v, b, 1);
    out.largest_rank = std::max(out.largest_rank, bytes);
    total += bytes;
  }
  const uint64_t n = static_cast<uint64_t>(vars.size()) * boxes.size();
  out.average_variable = std::max<uint64_t>(1, n ? total / n : 0);
  return out;
}

SeriesDecomposition decompose_series_write(const std::array<int64_t, 3>& dims, const std::vector<SeriesVariable>& vars,
                                           const std::vector<GridBox>& boxes) {
  SeriesDecomposition dec = decompose_series(dims, boxes);
  const bool has_2d = std::any_of(vars.begin(), vars.end(), [](const SeriesVariable& v) { return v.ndim == 2; });
  if (has_2d && dec.cells(2) > 1)
    fail(ErrorCode::kUnsupported, "the series has 2-D variables but the ranks' boxes cut the z axis into ",
         dec.cells(2), " layers; 2-D variables need a decomposition of x and y only");
  return dec;
}

StarChoice choose_star(const std::vector<SeriesVariable>& vars, const std::vector<GridBox>& boxes,
                       const SeriesDecomposition& dec, const StarSettings& settings) {
  const SeriesStepBytes sizes = series_step_bytes(vars, boxes);
  return coordinate_star(sizes.largest_rank, sizes.average_variable, dec.decomposed_axes(), max_sar_levels(dec),
                         settings);
}

}  // namespace lodex
