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
#include "requests.hpp"

namespace lodex::py {

namespace nb = nanobind;

// None -> MPI_COMM_NULL (serial); an mpi4py communicator -> its MPI_Comm; else TypeError.
MPI_Comm to_comm(nb::handle obj);
void bind_particles(nb::module_& m);
// ParticleGroup.open_buffers and the numpy views of a step's buffers (buffers.cpp).
void bind_buffers(nb::module_& m, nb::class_<ParticleGroup>& group);
void bind_planner(nb::module_& m);
void bind_previews(nb::module_& m);   // plan_series, plan_grid: pure previews
void bind_grids(nb::module_& m);
void bind_dataset_grids(nb::class_<Dataset>& cls);   // Dataset.grid, define_grid, grid_names
void bind_series(nb::module_& m);
// The calls of a group's asynchronous steps, the same on particles, grids and series:
// wait_pending, wait_step, step_written, pending_done, pending_step.
template <class Group>
void def_pending_calls(nb::class_<Group>& cls) {
  cls.def("wait_pending",
          [](Group& g) {
            nb::gil_scoped_release release;
            g.wait_pending();
          })
      .def(
          "wait_step",
          [](Group& g, int64_t step) {
            nb::gil_scoped_release release;
            g.wait_step(step);
          },
          nb::arg("step"))
      .def("step_written", &Group::step_written, nb::arg("step"))
      .def_prop_ro("pending_done", &Group::pending_done)
      .def_prop_ro("pending_step", &Group::pending_step);
}
void bind_dataset_series(nb::class_<Dataset>& cls);  // Dataset.series, define_series, series_names
using Array = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;
// A caller's field array (C order, native byte order, on the CPU); InvalidArgument naming `field` otherwise.
Array as_array(nb::handle obj, const std::string& field);
// The lodex dtype of a numpy array (InvalidArgument naming `field` for others).
DType dtype_of(const Array& a, const std::string& field);
// A view of a caller's field array (name, dtype, data; rows and components left for the caller
// to set from the array's shape, arrays.back()); `arrays` keeps the array alive.
FieldView array_view(const std::string& name, nb::handle obj, std::vector<Array>& arrays);
// The numpy dtype of a lodex dtype.
nb::dlpack::dtype dlpack_of(DType t);

// What a truncate removed, for Python: (group, kind, steps) per group truncated.
using TruncatedSteps = std::vector<std::tuple<std::string, std::string, std::vector<int64_t>>>;
inline TruncatedSteps truncated_steps(const Truncation& t) {
  TruncatedSteps out;
  for (const GroupTruncation& g : t.groups) out.emplace_back(g.name, g.kind, g.removed);
  return out;
}

// Binds `truncate(request: Truncate)` of a group or dataset type T (T::truncate(after, input_error)).
template <typename T, typename Class>
void bind_truncate(Class& cls) {
  cls.def(
      "truncate",
      [](T& target, const Truncate& r) {
        Truncation t;
        {
          nb::gil_scoped_release release;
          t = target.truncate(r.after, r.error);   // a joined error: raised on every rank
        }
        return truncated_steps(t);
      },
      nb::arg("request"));
}

}  // namespace lodex::py
