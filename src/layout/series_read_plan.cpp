#include "layout/series_read_plan.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace lodex {

namespace {

// n * i / size without overflow.
int64_t share_start(int64_t n, int i, int size) { return static_cast<int64_t>(static_cast<__int128>(n) * i / size); }

}  // namespace

SeriesReadShare split_series_read(const std::vector<int64_t>& steps, const GridBox& box, int ndim, int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size)
    fail(ErrorCode::kInvalidArgument, "rank ", rank, " of ", size, " ranks: expected 0 <= rank < size");
  const int64_t n = static_cast<int64_t>(steps.size());
  if (n >= size)
    return {std::vector<int64_t>(steps.begin() + share_start(n, rank, size),
                                 steps.begin() + share_start(n, rank + 1, size)),
            box};
  const int slowest = ndim == 3 ? 2 : 1;
  int axis = slowest;
  while (axis > 0 && box.hi[axis] - box.lo[axis] < size) --axis;
  if (box.hi[axis] - box.lo[axis] < size)   // no axis has a sample for every rank: the longest
    for (int a = slowest; a >= 0; --a)
      if (box.hi[a] - box.lo[a] > box.hi[axis] - box.lo[axis]) axis = a;
  const int64_t extent = box.hi[axis] - box.lo[axis];
  SeriesReadShare out{steps, box};
  out.box.lo[axis] = box.lo[axis] + share_start(extent, rank, size);
  out.box.hi[axis] = box.lo[axis] + share_start(extent, rank + 1, size);
  return out;
}

namespace {

// The blocks of one chunk holding `spans` (sorted [first block, last block] of its rows),
// adjacent or overlapping spans joined.
void join_spans(std::vector<std::pair<uint64_t, uint64_t>>& spans, const SeriesChunkPlace& e, uint64_t B,
                std::vector<SeriesBlockRun>& out) {
  std::sort(spans.begin(), spans.end());
  for (size_t i = 0; i < spans.size();) {
    uint64_t lo = spans[i].first, hi = spans[i].second;
    for (++i; i < spans.size() && spans[i].first <= hi + 1; ++i) hi = std::max(hi, spans[i].second);
    const uint64_t from = lo * B, to = std::min((hi + 1) * B, e.bytes);
    out.push_back({e.offset + from, to - from, e.first_block + lo, hi - lo + 1});
  }
}

}  // namespace

SeriesWindowRead plan_window_read(const SeriesVariable& variable, const std::vector<SeriesChunk>& chunks,
                                  const std::vector<SeriesChunkPlace>& places,
                                  const std::vector<std::pair<uint64_t, uint64_t>>& steps, const GridBox& obox,
                                  uint64_t block_bytes) {
  if (places.size() != chunks.size() || block_bytes == 0)
    fail(ErrorCode::kInternal, "plan_window_read: ", places.size(), " chunk places for ", chunks.size(),
         " chunks, block size ", block_bytes);
  SeriesWindowRead w;
  const uint64_t sample = variable.sample_bytes(), B = block_bytes;
  const uint64_t onx = obox.hi[0] - obox.lo[0], ony = obox.hi[1] - obox.lo[1];
  const uint64_t out_step = obox.volume() * sample;
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (size_t c = 0; c < chunks.size(); ++c) {
    const GridBox cb = var_box(variable, chunks[c].box);
    const GridBox r = cb.intersect(obox);
    if (r.empty()) continue;
    ++w.chunks;
    const SeriesChunkPlace& e = places[c];
    const uint64_t nx = cb.hi[0] - cb.lo[0], ny = cb.hi[1] - cb.lo[1];
    const uint64_t row = static_cast<uint64_t>(r.hi[0] - r.lo[0]) * sample;
    spans.clear();
    for (const auto& [i, k] : steps)
      for (int64_t z = r.lo[2]; z < r.hi[2]; ++z)
        for (int64_t y = r.lo[1]; y < r.hi[1]; ++y) {
          const uint64_t rel =
              (((k * e.planes + (z - cb.lo[2])) * ny + (y - cb.lo[1])) * nx + (r.lo[0] - cb.lo[0])) * sample;
          const uint64_t to =
              i * out_step + (((z - obox.lo[2]) * ony + (y - obox.lo[1])) * onx + (r.lo[0] - obox.lo[0])) * sample;
          w.rows.push_back({e.offset + rel, row, to});
          spans.emplace_back(rel / B, (rel + row - 1) / B);
        }
    join_spans(spans, e, B, w.blocks);
  }
  std::sort(w.blocks.begin(), w.blocks.end(),
            [](const SeriesBlockRun& a, const SeriesBlockRun& b) { return a.offset < b.offset; });
  return w;
}

std::vector<std::pair<uint64_t, uint64_t>> SeriesWindowRead::data_ranges() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  out.reserve(blocks.size());
  for (const SeriesBlockRun& b : blocks) out.emplace_back(b.offset, b.offset + b.bytes);
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> SeriesWindowRead::checksum_ranges(uint64_t block_table_offset) const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  out.reserve(blocks.size());
  for (const SeriesBlockRun& b : blocks)
    out.emplace_back(block_table_offset + 8 * b.first, block_table_offset + 8 * (b.first + b.count));
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> merge_ranges(const std::vector<std::pair<uint64_t, uint64_t>>& ranges,
                                                        uint64_t gap, uint64_t max_bytes) {
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto& [lo, hi] : ranges) {
    if (!merged.empty() && lo <= merged.back().second + gap) merged.back().second = std::max(merged.back().second, hi);
    else merged.emplace_back(lo, hi);
  }
  if (max_bytes == 0) return merged;
  std::vector<std::pair<uint64_t, uint64_t>> cut;
  for (const auto& [lo, hi] : merged)
    for (uint64_t at = lo; at < hi; at += max_bytes) cut.emplace_back(at, std::min(hi, at + max_bytes));
  return cut;
}

}  // namespace lodex
