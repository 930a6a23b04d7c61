// Shared helpers of the nanobind glue.
#pragma once

#include <mpi.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <nanobind/ndarray.h>

#include <string>
#include <tuple>
#include <vector>

#include "mpi/comm.hpp"
#include "pipelines/dataset.hpp"

namespace lodex::py {

namespace nb = nanobind;

// None -> MPI_COMM_NULL (serial); an mpi4py communicator -> its MPI_Comm; else TypeError.
MPI_Comm to_comm(nb::handle obj);
void bind_particles(nb::module_& m);
void bind_planner(nb::module_& m);
void bind_previews(nb::module_& m);   // plan_series, plan_grid: pure previews
void bind_grids(nb::module_& m);
void bind_dataset_grids(nb::class_<Dataset>& cls);   // Dataset.grid, define_grid, grid_names
void bind_series(nb::module_& m);
void bind_dataset_series(nb::class_<Dataset>& cls);  // Dataset.series, define_series, series_names
using Array = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;
// A caller's field array (C order, native byte order, on the CPU); InvalidArgument naming `field` otherwise.
Array as_array(nb::handle obj, const std::string& field);
// The lodex dtype of a numpy array (InvalidArgument naming `field` for others).
DType dtype_of(const Array& a, const std::string& field);
// The numpy dtype of a lodex dtype.
nb::dlpack::dtype dlpack_of(DType t);

// A rank's argument error from the Python layer, (code, message), as the engine takes it.
inline std::optional<lodex::Error> python_input_error(const std::optional<std::pair<int, std::string>>& e) {
  if (!e) return std::nullopt;
  return lodex::Error(static_cast<lodex::ErrorCode>(e->first), e->second);
}

// What a truncate removed, for Python: (group, kind, steps) per group truncated.
using TruncatedSteps = std::vector<std::tuple<std::string, std::string, std::vector<int64_t>>>;
inline TruncatedSteps truncated_steps(const Truncation& t) {
  TruncatedSteps out;
  for (const GroupTruncation& g : t.groups) out.emplace_back(g.name, g.kind, g.removed);
  return out;
}

// Binds `truncate(after, error=None)` of a group or dataset type T (T::truncate(after, input_error)).
template <typename T, typename Class>
void bind_truncate(Class& cls) {
  cls.def(
      "truncate",
      [](T& target, int64_t after, const std::optional<std::pair<int, std::string>>& error) {
        const std::optional<lodex::Error> input_error = python_input_error(error);
        Truncation t;
        {
          nb::gil_scoped_release release;
          t = target.truncate(after, input_error);
        }
        return truncated_steps(t);
      },
      nb::arg("after"), nb::arg("error").none() = nb::none());
}

}  // namespace lodex::py
