#include "pipelines/same_arguments.hpp"

#include <vector>

#include "core/checksum.hpp"
#include "core/error.hpp"

namespace lodex {

namespace {
// Every call reduces the same number of words, so that ranks in two different calls still take
// part in one matching reduction (and learn that the calls differ).
constexpr size_t kSlots = 16;   // the call, then at most 15 arguments
}  // namespace

void require_same_arguments(const Comm& comm, std::string_view call, std::initializer_list<Argument> args) {
  if (args.size() >= kSlots)
    fail(ErrorCode::kInternal, "a collective call compares at most ", kSlots - 1, " arguments");
  if (!comm.is_mpi() || comm.size() == 1) return;
  // Per slot its checksum v and ~v: after a MIN reduction, v is the same everywhere exactly when
  // min(v) == ~min(~v) (that is, min(v) == max(v)).
  std::vector<uint64_t> both(2 * kSlots, 0);
  const auto put = [&](size_t slot, std::string_view text) {
    const uint64_t v = checksum64(text.data(), text.size());
    both[2 * slot] = v;
    both[2 * slot + 1] = ~v;
  };
  put(0, cat(call, '/', args.size()));
  size_t slot = 1;
  for (const Argument& a : args) put(slot++, a.value);
  for (; slot < kSlots; ++slot) put(slot, "");
  comm.allreduce_u64(both, MPI_MIN);
  const auto differs = [&](size_t slot) { return both[2 * slot] != ~both[2 * slot + 1]; };
  if (differs(0))
    fail(ErrorCode::kInvalidArgument, "the ranks are in different collective calls (this rank in a ", call,
         "); every rank must make the same calls in the same order");
  std::string differ;
  slot = 1;
  for (const Argument& a : args)
    if (differs(slot++)) differ += cat(differ.empty() ? "" : ", ", a.name);
  if (!differ.empty())
    fail(ErrorCode::kInvalidArgument, "the ranks of a collective ", call, " passed different ", differ,
         "; every rank must pass the same");
}

std::string argument_text(const std::vector<int64_t>& v) {
  std::string out;
  for (int64_t x : v) out += cat(x, ',');
  return out;
}

std::string argument_text(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) out += cat(x.size(), ':', x);   // lengths keep ("a,b") apart from ("a", "b")
  return out;
}

}  // namespace lodex
