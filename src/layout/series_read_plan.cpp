#include "layout/series_read_plan.hpp"

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

}  // namespace lodex
