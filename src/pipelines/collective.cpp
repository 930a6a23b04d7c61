#include "pipelines/collective.hpp"

#include <algorithm>
#include <cmath>
#include <new>

#include "core/bytes.hpp"

namespace lodex {

PhaseTimes::PhaseTimes(std::vector<std::string> names)
    : names_(std::move(names)), seconds_(names_.size(), 0.0), last_(wall_seconds()) {}

void PhaseTimes::lap(size_t phase) {
  const double t = wall_seconds();
  seconds_[phase] += t - last_;
  last_ = t;
}

void PhaseTimes::restart() { last_ = wall_seconds(); }

void PhaseTimes::move(size_t from, size_t to, double seconds) {
  seconds_[from] -= seconds;
  seconds_[to] += seconds;
}

CollectiveOp::CollectiveOp(const Comm& comm, std::vector<std::string> phases)
    : comm_(comm), times_(std::move(phases)) {}

std::optional<Error> CollectiveOp::run_check(const std::optional<Error>& input_error,
                                             const std::function<void()>& check) {
  if (input_error) {
    // Code kOk would read as success to the other ranks.
    if (input_error->code() == ErrorCode::kOk) return Error(ErrorCode::kInternal, input_error->what());
    return input_error;
  }
  try {
    check();
  } catch (...) {
    return current_error();
  }
  return std::nullopt;
}

void CollectiveOp::agree_bytes(const std::optional<Error>& error, const void* record, size_t bytes, void* all) {
  const size_t slot = sizeof(int32_t) + bytes;
  std::vector<uint8_t> mine(slot), gathered(slot * comm_.size());
  const int32_t status = error ? static_cast<int32_t>(error->code()) : 0;
  std::memcpy(mine.data(), &status, sizeof status);
  std::memcpy(mine.data() + sizeof status, record, bytes);
  comm_.allgather(mine.data(), slot, gathered.data());
  for (int r = 0; r < comm_.size(); ++r) {
    int32_t code = 0;
    std::memcpy(&code, gathered.data() + r * slot, sizeof code);
    if (code == 0) continue;
    std::string message = r == comm_.rank() ? error->what() : "";
    comm_.bcast_string(message, r);
    throw Error(static_cast<ErrorCode>(code), comm_.size() > 1 ? cat("rank ", r, ": ", message) : message);
  }
  for (int r = 0; r < comm_.size(); ++r)
    std::memcpy(static_cast<uint8_t*>(all) + r * bytes, gathered.data() + r * slot + sizeof(int32_t), bytes);
}

void CollectiveOp::fail_locally(const Error& error) {
  if (failed()) return;
  code_ = error.code() == ErrorCode::kOk ? ErrorCode::kInternal : error.code();
  message_ = error.what();
}

void CollectiveOp::run_locally(const std::function<void()>& fn) {
  try {
    fn();
  } catch (...) {
    fail_locally(current_error());
  }
}

void CollectiveOp::add_thread_time(const std::string& name, double seconds) {
  const auto it = std::find(thread_names_.begin(), thread_names_.end(), name);
  if (it != thread_names_.end()) {
    thread_seconds_[static_cast<size_t>(it - thread_names_.begin())] += seconds;
    return;
  }
  thread_names_.push_back(name);
  thread_seconds_.push_back(seconds);
}

namespace {

// What a rank sends rank 0: status, message, payload, phase and helper-thread seconds.
std::vector<uint8_t> encode_outcome(ErrorCode code, const std::string& message, const std::vector<uint8_t>& payload,
                                    const std::vector<double>& phases, const std::vector<std::string>& thread_names,
                                    const std::vector<double>& thread_seconds) {
  ByteWriter w;
  w.put<int32_t>(static_cast<int32_t>(code));
  w.put<uint64_t>(message.size());
  w.put_bytes(message.data(), message.size());
  w.put<uint64_t>(payload.size());
  w.put_bytes(payload.data(), payload.size());
  for (double s : phases) w.put<double>(s);
  w.put<uint32_t>(static_cast<uint32_t>(thread_names.size()));
  for (size_t i = 0; i < thread_names.size(); ++i) {
    w.put<uint32_t>(static_cast<uint32_t>(thread_names[i].size()));
    w.put_bytes(thread_names[i].data(), thread_names[i].size());
    w.put<double>(thread_seconds[i]);
  }
  return std::move(w.bytes());
}

std::string get_text(ByteReader& r, uint64_t n, const char* what) {
  if (n > r.remaining()) r.corrupt(cat(what, " longer than the message"));
  std::string s(reinterpret_cast<const char*>(r.data() + r.position()), n);
  r.skip(n, what);
  return s;
}

struct Gathered {
  RankOutcome outcome;
  std::vector<double> phases;
  std::vector<std::pair<std::string, double>> threads;
};

Gathered decode_outcome(ByteReader& r, size_t num_phases) {
  Gathered g;
  g.outcome.code = static_cast<ErrorCode>(r.get<int32_t>("status"));
  g.outcome.message = get_text(r, r.get<uint64_t>("message length"), "message");
  const std::string payload = get_text(r, r.get<uint64_t>("payload length"), "payload");
  g.outcome.payload.assign(payload.begin(), payload.end());
  g.phases.resize(num_phases);
  for (double& s : g.phases) s = r.get<double>("phase time");
  const uint32_t threads = r.get<uint32_t>("thread count");
  for (uint32_t i = 0; i < threads; ++i) {
    std::string name = get_text(r, r.get<uint32_t>("thread name length"), "thread name");
    g.threads.emplace_back(std::move(name), r.get<double>("thread time"));
  }
  return g;
}

// min / mean / max over ranks of each named figure (figures a rank lacks count as absent).
std::vector<PhaseTiming> statistics(const std::vector<std::string>& names,
                                    const std::vector<std::vector<double>>& per_rank) {
  std::vector<PhaseTiming> out;
  for (size_t p = 0; p < names.size(); ++p) {
    PhaseTiming t{names[p], INFINITY, 0, 0};
    size_t n = 0;
    for (const auto& v : per_rank) {
      if (p >= v.size() || std::isnan(v[p])) continue;
      t.min_s = std::min(t.min_s, v[p]);
      t.max_s = std::max(t.max_s, v[p]);
      t.mean_s += v[p];
      ++n;
    }
    t.mean_s = n ? t.mean_s / static_cast<double>(n) : 0;
    if (!n) t.min_s = 0;
    out.push_back(t);
  }
  return out;
}

void put_timings(ByteWriter& w, const std::vector<PhaseTiming>& ts) {
  w.put<uint32_t>(static_cast<uint32_t>(ts.size()));
  for (const auto& t : ts) {
    w.put<uint32_t>(static_cast<uint32_t>(t.name.size()));
    w.put_bytes(t.name.data(), t.name.size());
    w.put<double>(t.min_s);
    w.put<double>(t.mean_s);
    w.put<double>(t.max_s);
  }
}

std::vector<PhaseTiming> get_timings(ByteReader& r) {
  std::vector<PhaseTiming> ts(r.get<uint32_t>("timing count"));
  for (auto& t : ts) {
    t.name = get_text(r, r.get<uint32_t>("timing name length"), "timing name");
    t.min_s = r.get<double>("min");
    t.mean_s = r.get<double>("mean");
    t.max_s = r.get<double>("max");
  }
  return ts;
}

}  // namespace

Verdict CollectiveOp::finish(std::vector<uint8_t> payload,
                             const std::function<std::vector<uint8_t>(std::span<const RankOutcome>)>& commit,
                             const std::function<void()>& cleanup) {
  const size_t commit_phase = times_.names().size() - 1;
  times_.lap(commit_phase);
  const std::vector<uint8_t> gathered =
      comm_.gatherv(encode_outcome(code_, message_, payload, times_.seconds(), thread_names_, thread_seconds_), 0);
  std::string answer;   // rank 0's verdict
  if (comm_.rank() == 0) {
    int32_t status = 0;
    std::string message, summary;
    std::vector<Gathered> all;
    try {
      ByteReader r(gathered.data(), gathered.size(), "gathered outcomes");
      for (int q = 0; q < comm_.size(); ++q) all.push_back(decode_outcome(r, times_.names().size()));
      for (int q = 0; q < comm_.size() && status == 0; ++q)
        if (all[q].outcome.code != ErrorCode::kOk) {
          status = static_cast<int32_t>(all[q].outcome.code);
          message = comm_.size() > 1 ? cat("rank ", q, ": ", all[q].outcome.message) : all[q].outcome.message;
        }
      if (status == 0) {
        std::vector<RankOutcome> outcomes;
        for (auto& g : all) outcomes.push_back(std::move(g.outcome));
        const std::vector<uint8_t> s = commit(outcomes);
        summary.assign(s.begin(), s.end());
      }
    } catch (...) {
      const Error e = current_error();
      status = static_cast<int32_t>(e.code());
      message = comm_.size() > 1 ? cat("rank 0: ", e.what()) : e.what();
    }
    if (status != 0 && cleanup) {
      try {
        cleanup();
      } catch (...) {   // the operation's error matters more than a failed cleanup
      }
    }
    times_.lap(commit_phase);
    // Rank 0's own figures include the commit.
    if (!all.empty()) all[0].phases = times_.seconds();
    std::vector<std::vector<double>> phases;
    std::vector<std::string> thread_names;
    for (const auto& g : all)
      for (const auto& [name, s] : g.threads)
        if (std::find(thread_names.begin(), thread_names.end(), name) == thread_names.end())
          thread_names.push_back(name);
    std::vector<std::vector<double>> threads(all.size(), std::vector<double>(thread_names.size(), NAN));
    double total_max = 0;
    for (size_t q = 0; q < all.size(); ++q) {
      phases.push_back(all[q].phases);
      double total = 0;
      for (double s : all[q].phases) total += s;
      total_max = std::max(total_max, total);
      for (const auto& [name, s] : all[q].threads)
        threads[q]
               [static_cast<size_t>(std::find(thread_names.begin(), thread_names.end(), name) - thread_names.begin())] =
                   s;
    }
    ByteWriter w;
    w.put<int32_t>(status);
    w.put<uint64_t>(message.size());
    w.put_bytes(message.data(), message.size());
    w.put<uint64_t>(summary.size());
    w.put_bytes(summary.data(), summary.size());
    w.put<double>(total_max);
    put_timings(w, statistics(times_.names(), phases));
    put_timings(w, statistics(thread_names, threads));
    answer.assign(w.bytes().begin(), w.bytes().end());
  }
  comm_.bcast_string(answer, 0);

  ByteReader r(reinterpret_cast<const uint8_t*>(answer.data()), answer.size(), "verdict from rank 0");
  const int32_t status = r.get<int32_t>("status");
  const std::string message = get_text(r, r.get<uint64_t>("message length"), "message");
  if (status != 0) throw Error(static_cast<ErrorCode>(status), message);
  Verdict v;
  const std::string summary = get_text(r, r.get<uint64_t>("summary length"), "summary");
  v.summary.assign(summary.begin(), summary.end());
  v.total_s = r.get<double>("total");
  v.phases = get_timings(r);
  v.threads = get_timings(r);
  return v;
}

}  // namespace lodex
