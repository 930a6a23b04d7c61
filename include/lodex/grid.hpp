// lodex C++ API: grid variables (IDX datasets, readable by OpenVisus) and any IDX dataset on
// disk.
//
// Grid is a non-owning handle that its Dataset releases when it closes; IdxDataset owns its C
// handle. Reads of known size: read_part() says this rank's box, shape and bytes, read<T>() and
// read_into() fill a buffer of that size. Collective calls must be made by every rank of the
// communicator named (or of the dataset's), with the same scalar arguments.
#pragma once

#include <lodex.h>
#include <lodex/error.hpp>
#include <lodex/particles.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lodex {

// A box of a grid or series, in samples: lo inclusive, hi exclusive (x, y, z).
struct GridBox {
  std::array<int64_t, 3> lo{0, 0, 0};
  std::array<int64_t, 3> hi{0, 0, 0};
};

// A grid variable's definition (defaults of lodex_grid_def_init).
struct GridDef {
  std::array<uint64_t, 3> dims{1, 1, 1};  // samples along x, y, z (1 beyond ndims)
  int32_t ndims = 3;                      // 1..3
  std::vector<FieldDef> fields;           // at least one
  std::string bitmask;                    // "": derived from the ranks' layout at the first write
  int32_t bits_per_block = 0;             // 0: 15, or the whole index if shorter
  uint64_t blocks_per_file = 256;
  std::string aggregation = "localized";  // or "uniform"
  uint32_t partitions = 1;                // a power of two
  std::string index_space = "global";     // "global": one IDX dataset; "local": one per partition
  bool zip = false;                       // zlib blocks
};

// Shape and layout of a grid or IDX dataset (dims, ndims, max_resolution (-1 before the first
// write), bits_per_block, partitions, local_index_space, num_fields).
using GridInfo = lodex_grid_info;
// What a grid read cost this rank (files_opened, blocks_read, bytes_read, bytes_returned).
using GridStats = lodex_grid_stats;

// One rank's part of a grid read: its box (empty when it gets nothing), the shape of its samples
// at the resolution (x, y, z counts), the field's type, and the bytes of the result.
struct GridPart {
  GridBox box;
  std::array<uint64_t, 3> shape{0, 0, 0};
  DType dtype{};
  uint32_t components = 0;
  int32_t resolution = 0;
  uint64_t bytes = 0;
};

namespace detail {
// A GridBox as the C API's int64_t[6], and an optional one as a pointer (NULL: the whole grid).
class GridBoxArg {
 public:
  explicit GridBoxArg(const std::optional<GridBox>& box) : set_(box.has_value()) {
    if (set_) values_ = {box->lo[0], box->lo[1], box->lo[2], box->hi[0], box->hi[1], box->hi[2]};
  }
  GridBoxArg(const GridBoxArg&) = delete;
  GridBoxArg& operator=(const GridBoxArg&) = delete;
  const int64_t* get() const { return set_ ? values_.data() : nullptr; }

 private:
  bool set_;
  std::array<int64_t, 6> values_{};
};
inline GridBox grid_box_from_c(const int64_t b[6]) { return GridBox{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}}; }

inline GridPart from_c(const lodex_grid_part& p) {
  return GridPart{grid_box_from_c(p.box),
                  {p.shape[0], p.shape[1], p.shape[2]},
                  static_cast<DType>(p.dtype),
                  p.components,
                  p.resolution,
                  p.bytes};
}
inline const char* name_or_null(const std::string& s) { return s.empty() ? nullptr : s.c_str(); }
inline int resolution_or_full(const std::optional<int>& r) { return r.value_or(-1); }

// The C calls a grid read makes, over a grid variable (lodex_grid) or any IDX dataset (lodex_idx),
// so that Grid and IdxDataset share one implementation of their reads.
struct GridSource {
  const lodex_grid* handle;
  int info(lodex_grid_info* out) const { return lodex_grid_info_get(handle, out); }
  int field(std::size_t i, lodex_field_def* out) const { return lodex_grid_field(handle, i, out); }
  int part(const char* f, int64_t step, const int64_t* box, int res, MPI_Comm comm, lodex_grid_part* out) const {
    return lodex_grid_read_part(handle, f, step, box, res, comm, out);
  }
  int read(const char* f, int64_t step, const int64_t* box, int res, MPI_Comm comm, void* buffer, uint64_t bytes,
           lodex_grid_stats* stats) const {
    return lodex_grid_read(handle, f, step, box, res, comm, buffer, bytes, stats);
  }
};
struct IdxSource {
  const lodex_idx* handle;
  int info(lodex_grid_info* out) const { return lodex_idx_info_get(handle, out); }
  int field(std::size_t i, lodex_field_def* out) const { return lodex_idx_field(handle, i, out); }
  int part(const char* f, int64_t time, const int64_t* box, int res, MPI_Comm comm, lodex_grid_part* out) const {
    return lodex_idx_read_part(handle, f, time, box, res, comm, out);
  }
  int read(const char* f, int64_t time, const int64_t* box, int res, MPI_Comm comm, void* buffer, uint64_t bytes,
           lodex_grid_stats* stats) const {
    return lodex_idx_read(handle, f, time, box, res, comm, buffer, bytes, stats);
  }
};

template <class Source>
GridInfo info(Source s) {
  GridInfo i{};
  check(s.info(&i));
  return i;
}
template <class Source>
std::vector<FieldDef> fields(Source s) {
  std::vector<FieldDef> out;
  const std::size_t n = info(s).num_fields;
  for (std::size_t i = 0; i < n; ++i) {
    lodex_field_def f{};
    check(s.field(i, &f));
    out.push_back(from_c(f));
  }
  return out;
}
template <class Source>
GridPart read_part(Source s, const std::string& field, int64_t step, const std::optional<GridBox>& box,
                   std::optional<int> resolution, MPI_Comm comm) {
  const GridBoxArg b(box);
  lodex_grid_part p{};
  check(s.part(name_or_null(field), step, b.get(), resolution_or_full(resolution), comm, &p));
  return from_c(p);
}
template <class Source>
void read_into(Source s, void* buffer, uint64_t bytes, const std::string& field, int64_t step,
               const std::optional<GridBox>& box, std::optional<int> resolution, MPI_Comm comm, GridStats* stats) {
  const GridBoxArg b(box);
  check(s.read(name_or_null(field), step, b.get(), resolution_or_full(resolution), comm, buffer, bytes, stats));
}
// This rank's part as a vector of T (checked against the field's type), (z, y, x, components);
// part (may be NULL) receives its box and shape.
template <class T, class Source>
std::vector<T> read_vector(Source s, const std::string& field, int64_t step, const std::optional<GridBox>& box,
                           std::optional<int> resolution, MPI_Comm comm, GridStats* stats, GridPart* part = nullptr) {
  const GridPart p = read_part(s, field, step, box, resolution, comm);
  check_dtype<T>(p.dtype, field.empty() ? std::string("the grid's first field") : "field '" + field + "'");
  std::vector<T> out(static_cast<std::size_t>(p.bytes / sizeof(T)));
  read_into(s, out.data(), p.bytes, field, step, box, resolution, comm, stats);
  if (part != nullptr) *part = p;
  return out;
}
}  // namespace detail

// Progressive reads of one box of a grid (or IDX dataset): resolutions start..max_resolution,
// coarse to fine, each next() reading one resolution whole (all together read about twice what
// the finest alone does). Local (no communicator). Borrows the grid's handle: use it while the
// Dataset (or IdxDataset) is open.
template <class Source>
class BasicGridRefinement {
 public:
  // start: none for the levels of the first block but at least three below full,
  // max(0, min(bits_per_block, max_resolution - 3)), as in Python: the first array is coarse.
  BasicGridRefinement(Source source, std::string field, int64_t step, std::optional<GridBox> box,
                      std::optional<int> start)
      : source_(source), field_(std::move(field)), step_(step), box_(std::move(box)) {
    const GridInfo i = detail::info(source_);
    max_ = i.max_resolution;
    next_ = start.value_or(std::max(0, std::min(i.bits_per_block, max_ - 3)));
    if (next_ < 0 || next_ > max_) {
      detail::invalid_argument("start must be a resolution in 0.." + std::to_string(max_) + ", got " +
                               std::to_string(next_));
    }
  }

  int max_resolution() const noexcept { return max_; }
  // The resolution next() reads (max_resolution() + 1 when done).
  int next_resolution() const noexcept { return next_; }
  bool done() const noexcept { return next_ > max_; }
  // The box, shape and type of the last array next() returned.
  const GridPart& part() const noexcept { return part_; }

  // The box at the next resolution, (z, y, x, components) of T (the field's type); then moves
  // on. Throws Error(LODEX_ERR_INVALID_ARGUMENT) when done.
  template <class T>
  std::vector<T> next(GridStats* stats = nullptr) {
    if (done()) detail::invalid_argument("the refinement is done (resolution " + std::to_string(max_) + " was read)");
    std::vector<T> out = detail::read_vector<T>(source_, field_, step_, box_, next_, MPI_COMM_NULL, stats, &part_);
    ++next_;
    return out;
  }

 private:
  Source source_;
  std::string field_;
  int64_t step_;
  std::optional<GridBox> box_;
  int max_ = -1;
  int next_ = 0;
  GridPart part_;
};
using GridRefinement = BasicGridRefinement<detail::GridSource>;
using IdxRefinement = BasicGridRefinement<detail::IdxSource>;

// A grid variable of a dataset: a non-owning handle, valid until its Dataset closes (copies are
// the same grid). Obtain it from Dataset::grid or Dataset::define_grid. In the reads, field ""
// is the first field, box none the whole grid, resolution none full resolution (0..max: the
// strided samples of IDX levels 0..r, as OpenVisus's read(max_resolution=r)).
class Grid {
 public:
  Grid() noexcept = default;
  explicit Grid(lodex_grid* grid) noexcept : g_(grid) {}

  // Local.
  GridInfo info() const { return detail::info(source()); }
  std::vector<FieldDef> fields() const { return detail::fields(source()); }
  std::vector<int64_t> steps() const { return detail::steps_of(g_, lodex_grid_steps); }
  // Local. The .idx path OpenVisus opens (global index space).
  std::string idx_path() const {
    const char* path = nullptr;
    detail::check(lodex_grid_idx_path(g_, &path));
    return detail::string_or_empty(path);
  }

  // Collective over the dataset's communicator (append mode). Every rank passes the same step
  // and its box (empty when it holds nothing); each field's rows = the box's samples, row-major
  // (z, y, x, components). The boxes must tile the grid.
  void write(int64_t step, const GridBox& box, Span<const FieldData> fields) {
    const std::vector<lodex_field_data> c = detail::to_c(fields);
    const detail::GridBoxArg b(box);
    detail::check(lodex_grid_write(g_, step, b.get(), c.data(), c.size()));
  }
  void write(int64_t step, const GridBox& box, std::initializer_list<FieldData> fields) {
    write(step, box, Span<const FieldData>(fields.begin(), fields.size()));
  }
  // An asynchronous write (lodex_grid_write_async): collective like write; the arrays are not read
  // after it returns (the exchanges run in the call); the block files are written on a helper
  // thread and the step commits at the grid's next collective call (the next write,
  // Pending::wait, truncate, the dataset's close); its error is thrown there on every rank.
  Pending write_async(int64_t step, const GridBox& box, Span<const FieldData> fields) {
    const std::vector<lodex_field_data> c = detail::to_c(fields);
    const detail::GridBoxArg b(box);
    lodex_pending* out = nullptr;
    detail::check(lodex_grid_write_async(g_, step, b.get(), c.data(), c.size(), 0u, &out));
    return Pending(out);
  }
  Pending write_async(int64_t step, const GridBox& box, std::initializer_list<FieldData> fields) {
    return write_async(step, box, Span<const FieldData>(fields.begin(), fields.size()));
  }
  // Local. The last write's cost, reduced over ranks.
  WriteProfile profile() const { return detail::profile_of(g_, lodex_grid_profile); }
  // Collective (append mode): removes every committed step after `after` (-1: every step), as
  // ParticleGroup::truncate; the .idx time range then ends at the last step kept.
  uint64_t truncate(int64_t after) {
    uint64_t removed = 0;
    detail::check(lodex_grid_truncate(g_, after, &removed));
    return removed;
  }

  // Local (comm only names this rank's share): what read() with the same arguments returns
  // here; the whole box when comm is MPI_COMM_NULL or of one rank, else an equal share of the
  // resolution's lattice planes along the slowest axis.
  GridPart read_part(const std::string& field, int64_t step, const std::optional<GridBox>& box = std::nullopt,
                     std::optional<int> resolution = std::nullopt, MPI_Comm comm = MPI_COMM_NULL) const {
    return detail::read_part(source(), field, step, box, resolution, comm);
  }
  // comm == MPI_COMM_NULL: local; else collective. This rank's part, (z, y, x, components) of T
  // (which must be the field's type).
  template <class T>
  std::vector<T> read(const std::string& field, int64_t step, const std::optional<GridBox>& box = std::nullopt,
                      std::optional<int> resolution = std::nullopt, MPI_Comm comm = MPI_COMM_NULL,
                      GridStats* stats = nullptr) const {
    return detail::read_vector<T>(source(), field, step, box, resolution, comm, stats);
  }
  // As read, into buffer (at least read_part(...).bytes).
  void read_into(void* buffer, uint64_t bytes, const std::string& field, int64_t step,
                 const std::optional<GridBox>& box = std::nullopt, std::optional<int> resolution = std::nullopt,
                 MPI_Comm comm = MPI_COMM_NULL, GridStats* stats = nullptr) const {
    detail::read_into(source(), buffer, bytes, field, step, box, resolution, comm, stats);
  }
  // Local. The box at resolutions start..max_resolution, coarse to fine.
  GridRefinement refine(const std::string& field, int64_t step, const std::optional<GridBox>& box = std::nullopt,
                        std::optional<int> start = std::nullopt) const {
    return GridRefinement(source(), field, step, box, start);
  }

  lodex_grid* raw() const noexcept { return g_; }

 private:
  detail::GridSource source() const noexcept { return detail::GridSource{g_}; }

  lodex_grid* g_ = nullptr;
};

// Any IDX dataset on disk (written by lodex, OpenVisus or PIDX), for reads: owns its C handle
// (lodex_idx_close on destruction). Move-only. Reads take the IDX time step where grids take
// a step; otherwise as Grid.
class IdxDataset {
 public:
  IdxDataset() noexcept = default;
  explicit IdxDataset(lodex_idx* owned) noexcept : d_(owned) {}
  IdxDataset(IdxDataset&& other) noexcept : d_(std::exchange(other.d_, nullptr)) {}
  IdxDataset& operator=(IdxDataset&& other) noexcept {
    if (this != &other) {
      if (d_ != nullptr) lodex_idx_close(d_);
      d_ = std::exchange(other.d_, nullptr);
    }
    return *this;
  }
  IdxDataset(const IdxDataset&) = delete;
  IdxDataset& operator=(const IdxDataset&) = delete;
  ~IdxDataset() {
    if (d_ != nullptr) lodex_idx_close(d_);
  }

  // Local. Opens and validates the .idx header. flags: kAllowOutside lets reads open block files
  // outside the .idx file's directory tree.
  static IdxDataset open(const std::string& idx_path, unsigned flags = 0) {
    lodex_idx* d = nullptr;
    detail::check(lodex_idx_open_flags(idx_path.c_str(), flags, &d));
    return IdxDataset(d);
  }
  // Local; idempotent.
  void close() {
    if (d_ != nullptr) detail::check(lodex_idx_close(std::exchange(d_, nullptr)));
  }
  bool is_open() const noexcept { return d_ != nullptr; }

  GridInfo info() const { return detail::info(source()); }
  std::vector<FieldDef> fields() const { return detail::fields(source()); }
  GridPart read_part(const std::string& field, int64_t time, const std::optional<GridBox>& box = std::nullopt,
                     std::optional<int> resolution = std::nullopt, MPI_Comm comm = MPI_COMM_NULL) const {
    return detail::read_part(source(), field, time, box, resolution, comm);
  }
  template <class T>
  std::vector<T> read(const std::string& field, int64_t time, const std::optional<GridBox>& box = std::nullopt,
                      std::optional<int> resolution = std::nullopt, MPI_Comm comm = MPI_COMM_NULL,
                      GridStats* stats = nullptr) const {
    return detail::read_vector<T>(source(), field, time, box, resolution, comm, stats);
  }
  void read_into(void* buffer, uint64_t bytes, const std::string& field, int64_t time,
                 const std::optional<GridBox>& box = std::nullopt, std::optional<int> resolution = std::nullopt,
                 MPI_Comm comm = MPI_COMM_NULL, GridStats* stats = nullptr) const {
    detail::read_into(source(), buffer, bytes, field, time, box, resolution, comm, stats);
  }
  // Local; valid while this IdxDataset is open.
  IdxRefinement refine(const std::string& field, int64_t time, const std::optional<GridBox>& box = std::nullopt,
                       std::optional<int> start = std::nullopt) const {
    return IdxRefinement(source(), field, time, box, start);
  }

  lodex_idx* raw() const noexcept { return d_; }

 private:
  detail::IdxSource source() const noexcept { return detail::IdxSource{d_}; }

  lodex_idx* d_ = nullptr;
};

}  // namespace lodex
