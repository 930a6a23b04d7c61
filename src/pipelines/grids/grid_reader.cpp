// Grid reads (pipelines/grids/grid_group.hpp): a committed step of a grid variable, by one process or
// by the ranks of a communicator, each reading its slab (layout/grid_read_plan.hpp). The global
// index space is read through the step's IDX dataset; the local one gathers from each partition's
// dataset the lattice points it holds.
#include <bit>
#include <cstring>

#include "pipelines/agreed_read.hpp"
#include "pipelines/grids/grid_group.hpp"

namespace lodex {

namespace {

// The answer of a part without samples: the part's dtype, components and shape, no bytes.
GridArray empty_array(const GridReadPart& part) {
  GridArray a;
  a.dtype = part.dtype;
  a.components = part.components;
  a.shape = part.shape;
  a.bytes.allocate(0);
  return a;
}

// Every take-th sample of a partition's answer `from`, to its place in the grid's answer `to`.
void place(const GridArray& from, const GridPartRead& p, GridArray& to) {
  const size_t sb = dtype_size(to.dtype) * to.components;
  for (int a = 0; a < 3; ++a)
    if (p.at[a] + p.count[a] > to.shape[a] || from.shape[a] != p.samples[a])
      fail(ErrorCode::kInternal, "partition ", p.part, "'s samples do not fit the grid's answer on axis ", "xyz"[a]);
  for (uint64_t z = 0; z < p.count[2]; ++z)
    for (uint64_t y = 0; y < p.count[1]; ++y) {
      const uint8_t* src = from.bytes.data() + (z * p.take[2] * from.shape[1] + y * p.take[1]) * from.shape[0] * sb;
      uint8_t* dst = to.bytes.data() + (((p.at[2] + z) * to.shape[1] + p.at[1] + y) * to.shape[0] + p.at[0]) * sb;
      if (p.take[0] == 1) {
        std::memcpy(dst, src, p.count[0] * sb);
        continue;
      }
      for (uint64_t x = 0; x < p.count[0]; ++x) std::memcpy(dst + x * sb, src + x * p.take[0] * sb, sb);
    }
}

}  // namespace

GridReadSpace GridGroup::read_space() const {
  const GridMeta& g = meta();
  GridReadSpace s;
  for (int a = 0; a < 3; ++a) s.box.hi[a] = static_cast<int64_t>(g.dims[a]);
  s.ndims = g.ndims;
  s.bitmask = g.bitmask;
  s.fields = g.fields;
  s.what = cat("grid '", name_, "'");
  return s;
}

GridReadPart GridGroup::read_part(const std::string& field, int64_t step, const std::optional<GridBox>& box,
                                  std::optional<int> resolution, int rank, int size) const {
  require_step(step);
  return plan_grid_read(read_space(), field, box, resolution, rank, size);
}

GridArray GridGroup::read(const std::string& field, int64_t step, const std::optional<GridBox>& box,
                          std::optional<int> resolution, MPI_Comm comm, IdxReadStats* stats,
                          const std::optional<Error>& input_error) const {
  const auto res_text = [](int r) { return std::to_string(r); };
  return agreed_read(
      comm, input_error, "grid read",
      {{"grid", name_},
       {"field", field},
       {"step", std::to_string(step)},
       {"box", argument_text(box, box_text)},
       {"resolution", argument_text(resolution, res_text)}},
      [&](int rank, int size) { return read_part(field, step, box, resolution, rank, size); },
      [&](const GridReadPart& part) {
        IdxReadStats st;
        GridArray out;
        if (part.box.empty())   // nothing to open
          out = empty_array(part);
        else if (meta().split_into_parts()) out = read_parts(part, field, step, st);
        else out = open_step(step).read(field, step, part.box, part.resolution, MPI_COMM_NULL, &st);
        if (stats) *stats = st;
        return out;
      });
}

GridArray GridGroup::read_parts(const GridReadPart& part, const std::string& field, int64_t step,
                                IdxReadStats& stats) const {
  const GridMeta& g = meta();
  require_read_within_limit(part.shape, dtype_size(part.dtype) * part.components, cat("grid '", name_, "'"));
  const std::vector<std::pair<GridPartDataset, IdxDataset>> parts = open_parts(step);
  std::vector<GridPartSpace> spaces;
  for (const auto& [p, d] : parts) spaces.push_back({p.box, d.header().bits});
  GridArray out = empty_array(part);
  out.bytes.allocate(part.bytes());
  // The partitions cover the grid, so every sample is overwritten; zeros keep a damaged grid
  // from returning stale memory.
  std::memset(out.bytes.data(), 0, out.bytes.size());
  const int k = std::countr_zero(g.partitions);
  for (const GridPartRead& p : plan_part_reads(g.bitmask, k, spaces, part.box, part.resolution)) {
    IdxReadStats s;
    const GridArray a = parts[p.part].second.read(field, step, p.box, p.resolution, MPI_COMM_NULL, &s);
    stats.files_opened += s.files_opened;
    stats.blocks_read += s.blocks_read;
    stats.bytes_read += s.bytes_read;
    place(a, p, out);
  }
  stats.bytes_returned = out.bytes.size();
  return out;
}

}  // namespace lodex
