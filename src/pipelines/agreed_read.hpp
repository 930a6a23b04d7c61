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

// plan(rank, size) then read(part): serially as rank 0 of 1 when comm is MPI_COMM_NULL (no MPI
// call at all); else on every rank of comm, an error on any rank raised on every rank
// (Comm::agree), first the plan's (the arguments checked), then that the ranks asked the same
// (`same`, require_same_arguments naming `call`), then the read's.
// `input_error`: a language binding could not convert this rank's arguments; the rank does not
// read, and every rank raises that error.
template <typename Plan, typename Read>
auto agreed_read(MPI_Comm comm, const std::optional<Error>& input_error, std::string_view call,
                 std::initializer_list<Argument> same, Plan&& plan, Read&& read) {
  const Comm c = comm == MPI_COMM_NULL ? Comm() : Comm(comm);
  decltype(plan(0, 1)) part;
  c.agree(input_error, [&] { part = plan(c.rank(), c.size()); });
  require_same_arguments(c, call, same);
  decltype(read(part)) out;
  c.agree([&] { out = read(part); });
  return out;
}

}  // namespace lodex
