// Reads collective over an MPI communicator where every rank reads its own part of one request
// (grid and series reads): no traffic but the agreement on the outcome, so that an error on one
// rank (a damaged file, a bad argument) is raised on every rank instead of leaving the others to
// carry on with a partial answer.
#pragma once

#include <mpi.h>

#include "core/error.hpp"
#include "mpi/comm.hpp"

namespace lodex {

// read(rank, size): serially as rank 0 of 1 when comm is MPI_COMM_NULL (no MPI call at all);
// else on every rank of comm, an error on any rank raised on every rank (Comm::agree).
template <typename Read>
auto agreed_read(MPI_Comm comm, Read&& read) -> decltype(read(0, 1)) {
  if (comm == MPI_COMM_NULL) return read(0, 1);
  const Comm c(comm);
  decltype(read(0, 1)) out;
  c.agree([&] { out = read(c.rank(), c.size()); });
  return out;
}

// For a rank whose read arguments could not even be converted (a language binding's checks
// failed): takes part in agreed_read's collectives so that every rank raises `error`.
[[noreturn]] inline void abort_agreed_read(const Error& error, MPI_Comm comm) {
  // Code kOk would read as success to the other ranks.
  const Error e = error.code() == ErrorCode::kOk ? Error(ErrorCode::kInternal, error.what()) : error;
  if (comm == MPI_COMM_NULL) throw e;
  const Comm c(comm);
  c.agree([&] { throw e; });
  throw e;   // not reached: agree raises
}

}  // namespace lodex
