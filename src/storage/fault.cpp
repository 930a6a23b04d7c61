#include "storage/fault.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

#include "core/error.hpp"

namespace lodex {

namespace {

constexpr std::array<const char*, kFaultOps> kNames{"open",     "read",   "write", "sync",
                                                    "truncate", "rename", "mkdir", "remove"};

struct ErrnoName {
  const char* name;
  int value;
};
constexpr ErrnoName kErrnos[] = {{"EIO", EIO},       {"ENOSPC", ENOSPC}, {"EDQUOT", EDQUOT}, {"EACCES", EACCES},
                                 {"EROFS", EROFS},   {"EMFILE", EMFILE}, {"ENOMEM", ENOMEM}, {"EFBIG", EFBIG},
                                 {"ESTALE", ESTALE}, {"EINTR", EINTR}};

struct State {
  std::array<std::atomic<uint64_t>, kFaultOps> counts{};
  std::atomic<bool> armed{false};
  Fault fault;
  std::mutex lock;
};

State& state() {
  static State* s = [] {
    auto* st = new State();   // never destroyed: file operations may run during static destruction
    if (const char* env = std::getenv("LODEX_FAULT"); env && *env) {
      std::string spec(env);
      const size_t colons = static_cast<size_t>(std::count(spec.begin(), spec.end(), ':'));
      bool mine = true;
      if (colons == 3) {
        const std::string rank = spec.substr(spec.rfind(':') + 1);
        const char* me = std::getenv("PMI_RANK");
        mine = me && rank == me;
        spec.resize(spec.rfind(':'));
      }
      if (mine) {
        st->fault = parse_fault(spec);
        st->armed = true;
      }
    }
    return st;
  }();
  return *s;
}

}  // namespace

const char* fault_op_name(FaultOp op) { return kNames.at(static_cast<size_t>(op)); }

Fault parse_fault(const std::string& spec) {
  const size_t a = spec.find(':'), b = a == std::string::npos ? a : spec.find(':', a + 1);
  if (b == std::string::npos)
    fail(ErrorCode::kInvalidArgument, "fault '", spec, "': expected <op>:<n>:<errno name, short, kill or foreign>");
  Fault f;
  const std::string op = spec.substr(0, a), nth = spec.substr(a + 1, b - a - 1), what = spec.substr(b + 1);
  size_t i = 0;
  while (i < kFaultOps && op != kNames[i]) ++i;
  if (i == kFaultOps) fail(ErrorCode::kInvalidArgument, "fault '", spec, "': unknown operation '", op, "'");
  f.op = static_cast<FaultOp>(i);
  char* end = nullptr;
  f.nth = std::strtoull(nth.c_str(), &end, 10);
  if (nth.empty() || *end || f.nth == 0) fail(ErrorCode::kInvalidArgument, "fault '", spec, "': n must be 1 or more");
  if (what == "kill") {
    f.kill = true;
    return f;
  }
  if (what == "foreign") {
    f.foreign = true;
    return f;
  }
  if (what == "short") {
    if (f.op != FaultOp::kRead && f.op != FaultOp::kWrite)
      fail(ErrorCode::kInvalidArgument, "fault '", spec, "': only reads and writes can be short");
    f.short_transfer = true;
    return f;
  }
  for (const ErrnoName& e : kErrnos)
    if (what == e.name) {
      f.error = e.value;
      return f;
    }
  fail(ErrorCode::kInvalidArgument, "fault '", spec, "': unknown error '", what, "'");
}

void arm_fault(const Fault& fault) {
  State& s = state();
  const std::lock_guard<std::mutex> g(s.lock);
  for (auto& c : s.counts) c = 0;
  s.fault = fault;
  s.armed = true;
}

void disarm_fault() {
  State& s = state();
  const std::lock_guard<std::mutex> g(s.lock);
  s.armed = false;
  for (auto& c : s.counts) c = 0;
}

std::array<uint64_t, kFaultOps> fault_counts() {
  std::array<uint64_t, kFaultOps> out{};
  State& s = state();
  for (size_t i = 0; i < kFaultOps; ++i) out[i] = s.counts[i].load(std::memory_order_relaxed);
  return out;
}

int fault_point(FaultOp op, bool* shorten) {
  State& s = state();
  const uint64_t n = s.counts[static_cast<size_t>(op)].fetch_add(1, std::memory_order_relaxed) + 1;
  if (!s.armed.load(std::memory_order_relaxed)) return 0;
  const std::lock_guard<std::mutex> g(s.lock);
  if (!s.armed || s.fault.op != op || s.fault.nth != n) return 0;
  s.armed = false;   // one fault
  if (s.fault.kill) ::kill(::getpid(), SIGKILL);
  if (s.fault.foreign) throw std::runtime_error(cat("injected foreign exception before ", fault_op_name(op), " ", n));
  if (s.fault.short_transfer) {
    if (shorten) *shorten = true;
    return 0;
  }
  return s.fault.error;
}

}  // namespace lodex
