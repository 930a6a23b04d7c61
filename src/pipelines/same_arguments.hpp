// The arguments of a collective call that every rank must pass alike (a read's step and box, a
// query's text, an open's path and mode). Ranks that disagree would otherwise each answer their
// own question with collectives that happen to match, and return a mixed answer or wait forever.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mpi/comm.hpp"

namespace lodex {

struct Argument {
  const char* name;    // as the message names it: "step", "box", "query text"
  std::string value;   // a canonical text of this rank's value
};

// Collective over comm (nothing when serial): one allreduce of a checksum per argument. When any
// argument differs between ranks, every rank throws the same InvalidArgument naming `call` and
// each differing argument.
void require_same_arguments(const Comm& comm, std::string_view call, std::initializer_list<Argument> args);

// Canonical texts of argument values.
std::string argument_text(const std::vector<int64_t>& v);
std::string argument_text(const std::vector<std::string>& v);
template <typename T, typename Text>
std::string argument_text(const std::optional<T>& v, Text&& text) {
  return v ? "=" + text(*v) : std::string("none");
}

}  // namespace lodex
