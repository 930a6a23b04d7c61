#include "layout/series_read_plan.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace lodex {

namespace {

// n * i / size without overflow.
int64_t share_start(int64_t n, int i, int size) {
  return static_cast<int64_t>(static_cast<__int128>(n) * i / size);
}

}  // namespace

SeriesReadShare split_series_read(const std::vector<int64_t>& steps, const GridBox& box, int ndim, int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size)
    fail(ErrorCode::kInvalidArgument, "rank ", rank, " of ", size, " ranks: expected 0 <= rank < size");
  const int64_t n = static_cast<int64_t>(steps.size());
  if (n >= size)
    return {std::vector<int64_t>(steps.begin() + share_start(n, rank, size), steps.begin() + share_start(n, rank + 1, size)),
            box};
  int axis = ndim == 3 ? 2 : 1;
  while (axis > 0 && box.hi[axis] - box.lo[axis] < size) --axis;
  const int64_t extent = box.hi[axis] - box.lo[axis];
  SeriesReadShare out{steps, box};
  out.box.lo[axis] = box.lo[axis] + share_start(extent, rank, size);
  out.box.hi[axis] = box.lo[axis] + share_start(extent, rank + 1, size);
  return out;
}

namespace {

// The rows of chunk `cb` a read of `box` takes, and the chunk's blocks holding them ([first, last]
// block indices relative to the chunk, merged when adjacent or overlapping).
void plan_chunk(const WindowChunk& c, const GridBox& box, uint64_t sample, const std::vector<std::pair<uint64_t, uint64_t>>& steps,
                uint64_t B, WindowReadPlan& plan) {
  const GridBox& cb = c.box;
  const GridBox r = cb.intersect(box);
  const uint64_t nx = cb.hi[0] - cb.lo[0], ny = cb.hi[1] - cb.lo[1];
  const uint64_t onx = box.hi[0] - box.lo[0], ony = box.hi[1] - box.lo[1];
  const uint64_t out_step = box.volume() * sample;
  const uint64_t row = static_cast<uint64_t>(r.hi[0] - r.lo[0]) * sample;
  std::vector<std::pair<uint64_t, uint64_t>> spans;   // blocks [first, last] of each row
  for (const auto& [i, k] : steps)
    for (int64_t z = r.lo[2]; z < r.hi[2]; ++z)
      for (int64_t y = r.lo[1]; y < r.hi[1]; ++y) {
        const uint64_t rel = (((k * c.planes + (z - cb.lo[2])) * ny + (y - cb.lo[1])) * nx + (r.lo[0] - cb.lo[0])) * sample;
        const uint64_t out = i * out_step + (((z - box.lo[2]) * ony + (y - box.lo[1])) * onx + (r.lo[0] - box.lo[0])) * sample;
        plan.rows.push_back({c.offset + rel, row, out});
        spans.emplace_back(rel / B, (rel + row - 1) / B);
      }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 0; i < spans.size();) {
    uint64_t lo = spans[i].first, hi = spans[i].second;
    for (++i; i < spans.size() && spans[i].first <= hi + 1; ++i) hi = std::max(hi, spans[i].second);
    const uint64_t from = lo * B, to = std::min((hi + 1) * B, c.bytes);
    plan.blocks.push_back({c.offset + from, to - from, c.first_block + lo, hi - lo + 1});
  }
}

}  // namespace

WindowReadPlan plan_window_read(const std::vector<WindowChunk>& chunks, const GridBox& box, uint64_t sample_bytes,
                                const std::vector<std::pair<uint64_t, uint64_t>>& steps, uint64_t block_bytes) {
  if (block_bytes == 0 || sample_bytes == 0) fail(ErrorCode::kInternal, "a window read plan needs block and sample sizes");
  WindowReadPlan plan;
  for (const WindowChunk& c : chunks) {
    if (c.box.intersect(box).empty()) continue;
    ++plan.chunks;
    plan_chunk(c, box, sample_bytes, steps, block_bytes, plan);
  }
  std::sort(plan.blocks.begin(), plan.blocks.end(),
            [](const WindowBlocks& a, const WindowBlocks& b) { return a.offset < b.offset; });
  return plan;
}

}  // namespace lodex
