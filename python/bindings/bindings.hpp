// Shared helpers of the nanobind glue.
#pragma once

#include <mpi.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <string>

#include "lodex/lodex.hpp"

namespace lodex::py {

namespace nb = nanobind;

// None -> MPI_COMM_NULL (serial); an mpi4py communicator -> its MPI_Comm; else TypeError.
MPI_Comm to_comm(nb::handle obj);
void bind_particles(nb::module_& m);
void bind_planner(nb::module_& m);
void bind_grids(nb::module_& m);
// The numpy dtype of a lodex dtype.
nb::dlpack::dtype dlpack_of(DType t);

}  // namespace lodex::py
