// Reads collective over an MPI communicator where every rank reads its own part of one request
// (grid and series reads): no traffic but the agreement on the outcome, so that an error on one
// rank (a damaged file, a bad argument) is raised on every rank instead of leaving the others to
// carry on with a partial answer.
#pragma once

#include <mpi.h>

#include <initializer_list>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "mpi/comm.hpp"
#include "pipelines/same_arguments.hpp"

namespace lodex {

// read(rank, size): serially as rank 0 of 1 when comm is MPI_COMM_NULL (no MPI call at all);
// else on every rank of comm, an error on any rank raised on every rank (Comm::agree).
// `input_error`: a language binding could not convert this rank's arguments; the rank does not
// read, and every rank raises that error. `same`: the request's arguments, which every rank must
// pass alike (require_same_arguments, naming `call`).
template <typename Read>
auto agreed_read(MPI_Comm comm, const std::optional<Error>& input_error, std::string_view call,
                 std::initializer_list<Argument> same, Read&& read) -> decltype(read(0, 1)) {
  const Comm c = comm == MPI_COMM_NULL ? Comm() : Comm(comm);
  decltype(read(0, 1)) out;
  if (c.size() > 1) {
    c.agree(input_error, [] {});
    require_same_arguments(c, call, same);
  }
  c.agree(input_error, [&] { out = read(c.rank(), c.size()); });
  return out;
}

}  // namespace lodex
