// lodex C++ API: series (STAR: spatial and temporal aggregation of many small 2-D and 3-D
// variables of a regular grid, written every step).
//
// Series is a non-owning handle that its Dataset releases when it closes. Reads of known size:
// read_part() says this rank's steps, box, shape and bytes, read<T>() and read_into() fill a
// buffer of that size. Collective calls must be made by every rank of the communicator named
// (or of the dataset's), with the same scalar arguments.
#pragma once

#include <lodex.h>
#include <lodex/error.hpp>
#include <lodex/grid.hpp>
#include <lodex/particles.hpp>
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace lodex {

// A series variable: 3-D (z, y, x) or 2-D (y, x), one component.
struct SeriesVar {
  std::string name;
  DType dtype{};
  int32_t ndim = 3;
};

// A series' definition (defaults of lodex_series_def_init).
struct SeriesDef {
  std::array<int64_t, 3> dims{1, 1, 1};  // x, y, z
  std::vector<SeriesVar> variables;
  uint64_t memory_budget = uint64_t{256} << 20;  // bytes a rank may buffer
  int32_t d_tar = 0;                             // steps per window (>= 1); 0: chosen by the cost model
  int32_t d_sar = -1;                            // spatial aggregation levels (>= 0); -1: chosen
  double bw_io = 500e6;                          // file system costs of the cost model: B/s,
  double cc = 1e-3;                              // s,
  double ts = 5e-3;                              // s
};

// Dims, variables' count, and d_tar, d_sar (0 until the first write fixes them).
using SeriesInfo = lodex_series_info;
// What the series' last read cost this rank (windows, chunks, requests, bytes_read, ...).
using SeriesStats = lodex_series_stats;

// One rank's part of a series read: its steps, its box, shape (steps, z, y, x) with z = 1 for
// 2-D variables, the type and the bytes.
struct SeriesPart {
  std::vector<int64_t> steps;
  GridBox box;
  std::array<uint64_t, 4> shape{0, 0, 0, 0};
  DType dtype{};
  uint64_t bytes = 0;
};

// A series of a dataset: a non-owning handle, valid until its Dataset closes (copies are the
// same series). Obtain it from Dataset::series or Dataset::define_series. In the reads, steps
// empty means every flushed step and box none the whole grid; with a communicator of n > 1
// ranks each rank gets a share of the steps when there are at least n, else of the slowest
// spatial axis.
class Series {
 public:
  Series() noexcept = default;
  explicit Series(lodex_series* series) noexcept : s_(series) {}

  // Local.
  SeriesInfo info() const {
    SeriesInfo i{};
    detail::check(lodex_series_info_get(s_, &i));
    return i;
  }
  std::vector<SeriesVar> variables() const {
    std::vector<SeriesVar> out;
    const std::size_t n = info().num_variables;
    for (std::size_t i = 0; i < n; ++i) {
      lodex_series_var v{};
      detail::check(lodex_series_variable(s_, i, &v));
      out.push_back(SeriesVar{detail::string_or_empty(v.name), static_cast<DType>(v.dtype), v.ndim});
    }
    return out;
  }
  // Local. Flushed steps (readable by anyone), ascending.
  std::vector<int64_t> steps() const { return detail::steps_of(s_, lodex_series_steps); }

  // Collective over the dataset's communicator (append mode). Every rank passes the same step
  // (increasing), its box (the same at every step) and every variable over it: rows = the
  // box's samples ((y, x) for 2-D variables), components 1. The write that completes d_tar
  // steps writes them as one window file.
  void write(int64_t step, const GridBox& box, Span<const FieldData> vars) {
    const std::vector<lodex_field_data> c = detail::to_c(vars);
    const detail::GridBoxArg b(box);
    detail::check(lodex_series_write(s_, step, b.get(), c.data(), c.size()));
  }
  void write(int64_t step, const GridBox& box, std::initializer_list<FieldData> vars) {
    write(step, box, Span<const FieldData>(vars.begin(), vars.size()));
  }
  // An asynchronous write (lodex_series_write_async): collective like write; the step is copied
  // into the window buffers in the call; a window it completes is aggregated there and written on
  // a helper thread, and commits at the series' next collective call (the next write, flush,
  // truncate, Pending::wait, the dataset's close); its error is thrown there on every rank.
  Pending write_async(int64_t step, const GridBox& box, Span<const FieldData> vars) {
    const std::vector<lodex_field_data> c = detail::to_c(vars);
    const detail::GridBoxArg b(box);
    lodex_pending* out = nullptr;
    detail::check(lodex_series_write_async(s_, step, b.get(), c.data(), c.size(), 0u, &out));
    return Pending(out);
  }
  Pending write_async(int64_t step, const GridBox& box, std::initializer_list<FieldData> vars) {
    return write_async(step, box, Span<const FieldData>(vars.begin(), vars.size()));
  }
  // Collective. Writes the buffered steps now (Dataset::close does it too).
  void flush() { detail::check(lodex_series_flush(s_)); }
  // Collective (append mode): removes every flushed step after `after` (-1: every step) and drops
  // the buffered ones after it. Windows go whole: an `after` splitting one throws
  // LODEX_ERR_INVALID_ARGUMENT naming the steps a truncate may keep. Returns the steps removed.
  uint64_t truncate(int64_t after) {
    uint64_t removed = 0;
    detail::check(lodex_series_truncate(s_, after, &removed));
    return removed;
  }
  // Local. The last write's cost, reduced over ranks.
  WriteProfile profile() const { return detail::profile_of(s_, lodex_series_profile); }

  // Local: what read() with the same arguments returns on this rank.
  SeriesPart read_part(const std::string& var, const std::vector<int64_t>& steps = {},
                       const std::optional<GridBox>& box = std::nullopt, MPI_Comm comm = MPI_COMM_NULL) const {
    const detail::GridBoxArg b(box);
    const int64_t* s = steps.empty() ? nullptr : steps.data();
    lodex_series_part p{};
    detail::check(lodex_series_read_part(s_, var.c_str(), s, steps.size(), b.get(), comm, &p, nullptr, 0));
    SeriesPart out{std::vector<int64_t>(p.num_steps),
                   detail::grid_box_from_c(p.box),
                   {p.shape[0], p.shape[1], p.shape[2], p.shape[3]},
                   static_cast<DType>(p.dtype),
                   p.bytes};
    detail::check(lodex_series_read_part(s_, var.c_str(), s, steps.size(), b.get(), comm, &p, out.steps.data(),
                                         out.steps.size()));
    return out;
  }
  // comm == MPI_COMM_NULL: local; else collective. This rank's part, C order (steps, z, y, x),
  // of T (which must be the variable's type). merge_gap: bytes between needed ranges read as
  // one request; -1: the series' default (bw_io x ts).
  template <class T>
  std::vector<T> read(const std::string& var, const std::vector<int64_t>& steps = {},
                      const std::optional<GridBox>& box = std::nullopt, int64_t merge_gap = -1,
                      MPI_Comm comm = MPI_COMM_NULL) const {
    const SeriesPart part = read_part(var, steps, box, comm);
    detail::check_dtype<T>(part.dtype, "series variable '" + var + "'");
    std::vector<T> out(static_cast<std::size_t>(part.bytes / sizeof(T)));
    read_into(out.data(), part.bytes, var, steps, box, merge_gap, comm);
    return out;
  }
  // As read, into buffer (at least read_part(...).bytes).
  void read_into(void* buffer, uint64_t bytes, const std::string& var, const std::vector<int64_t>& steps = {},
                 const std::optional<GridBox>& box = std::nullopt, int64_t merge_gap = -1,
                 MPI_Comm comm = MPI_COMM_NULL) const {
    const detail::GridBoxArg b(box);
    detail::check(lodex_series_read(s_, var.c_str(), steps.empty() ? nullptr : steps.data(), steps.size(), b.get(),
                                    merge_gap, comm, buffer, bytes));
  }
  // Local. The series' last read on this rank.
  SeriesStats read_stats() const {
    SeriesStats s{};
    detail::check(lodex_series_read_stats(s_, &s));
    return s;
  }

  lodex_series* raw() const noexcept { return s_; }

 private:
  lodex_series* s_ = nullptr;
};

}  // namespace lodex
