// The skeleton every collective write follows (the particle write, the grid write, the series
// flush and the index build):
//
//   check     this rank's arguments and data, locally, no communication
//   agree     one allgather: every rank's verdict on its input and the record it contributes
//             (box, count, ...); an error on any rank is raised on every rank here
//   plan      a pure function of the agreed records (layout/), the same on every rank
//   exchange  data moves to the ranks that write it
//   write     their files
//   gather    every rank's outcome (status, what it wrote, phase times) to rank 0
//   commit    rank 0, only when every rank succeeded: metadata and manifest
//   verdict   rank 0's answer (status, summary, phase statistics) broadcast to every rank
//
// A language binding whose conversion of the arguments failed passes that error in as the
// operation's `input_error`: the rank still takes part in `agree`, and every rank raises it, so no
// operation needs a separate "abort" entry point.
//
// A failure after `agree` does not leave the collective: the rank records it (fail_locally), goes
// on through the remaining steps with nothing to contribute, and the verdict raises it on every
// rank. Collective steps in between (exchanges) must therefore not depend on a failed rank's data.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "mpi/comm.hpp"
#include "pipelines/dataset.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

// Wall time of named phases on this rank: lap(p) adds the time since the previous lap to p.
class PhaseTimes {
 public:
  explicit PhaseTimes(std::vector<std::string> names);
  void lap(size_t phase);
  void add(size_t phase, double seconds) { seconds_[phase] += seconds; }
  // Moves time measured inside one lap to the phase it belongs to.
  void move(size_t from, size_t to, double seconds);
  // The next lap counts from now (time spent outside the operation is nobody's phase).
  void restart();
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<double>& seconds() const { return seconds_; }

 private:
  std::vector<std::string> names_;
  std::vector<double> seconds_;
  double last_;
};

// One rank's outcome as rank 0 sees it.
struct RankOutcome {
  ErrorCode code = ErrorCode::kOk;
  std::string message;
  std::vector<uint8_t> payload;   // what the operation reports (file records, counts, ...)
};

// What every rank learns at the end of a successful operation.
struct Verdict {
  std::vector<uint8_t> summary;       // rank 0's commit summary
  std::vector<PhaseTiming> phases;    // per phase: min, mean and max over ranks
  std::vector<PhaseTiming> threads;   // helper-thread busy times, same statistics
  double total_s = 0;                 // the slowest rank's sum of phases
};

class CollectiveOp {
 public:
  CollectiveOp(const Comm& comm, std::vector<std::string> phases);

  // check + agree: runs `check` unless `input_error` is set, then one allgather of every rank's
  // status and Record. On any failure every rank throws the lowest failing rank's error ("rank r:
  // ..." when there are several ranks).
  template <typename Record>
  std::vector<Record> agree(const std::optional<Error>& input_error, const std::function<Record()>& check);

  // A failure on this rank after agree: kept for the verdict (the first one wins).
  void fail_locally(const Error& error);
  // Runs fn; an Error or bad_alloc it throws becomes this rank's failure.
  void run_locally(const std::function<void()>& fn);
  bool failed() const { return code_ != ErrorCode::kOk; }
  Error failure() const { return Error(code_, message_); }   // when failed()

  PhaseTimes& times() { return times_; }
  // Busy seconds of a helper thread of this rank (reported as its own statistic).
  void add_thread_time(const std::string& name, double seconds);

  // gather + commit + verdict. Every rank's payload and status go to rank 0; if all succeeded,
  // `commit` runs there (its error fails the operation) and returns the summary every rank gets.
  // On failure rank 0 runs `cleanup` before the verdict goes out, and every rank throws. The
  // time from the call to the verdict goes to the last phase.
  Verdict finish(std::vector<uint8_t> payload,
                 const std::function<std::vector<uint8_t>(std::span<const RankOutcome>)>& commit,
                 const std::function<void()>& cleanup);

 private:
  std::optional<Error> run_check(const std::optional<Error>& input_error, const std::function<void()>& check);
  void agree_bytes(const std::optional<Error>& error, const void* record, size_t bytes, void* all);

  const Comm& comm_;
  PhaseTimes times_;
  std::vector<std::string> thread_names_;
  std::vector<double> thread_seconds_;
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

template <typename Record>
std::vector<Record> CollectiveOp::agree(const std::optional<Error>& input_error, const std::function<Record()>& check) {
  static_assert(std::is_trivially_copyable_v<Record>, "agreed records travel as bytes");
  Record mine{};
  const std::optional<Error> error = run_check(input_error, [&] { mine = check(); });
  std::vector<Record> all(comm_.size());
  agree_bytes(error, &mine, sizeof mine, all.data());
  return all;
}

}  // namespace lodex
