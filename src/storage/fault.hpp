// A test hook for fault injection: the n-th file operation of a kind fails as the operating
// system would make it fail (an errno such as EIO or ENOSPC), or transfers only part of its
// bytes (a short read or write, which the callers must continue), or the process is killed
// (SIGKILL) just before it, to test what a crash at that point leaves, or a foreign exception
// (std::runtime_error, as a bug in a library lodex calls would throw) is thrown there. Every file operation of lodex
// goes through storage/file.cpp, which asks fault_point before each one; unarmed, that is one
// relaxed counter increment. Armed by arm_fault (tests through the Python module) or, for
// processes started by mpiexec, by the environment variable
//   LODEX_FAULT=<op>:<n>:<errno name, "short", "kill" or "foreign">[:<rank>]   e.g. LODEX_FAULT=write:12:ENOSPC:1
// (<rank>: only the process whose PMI_RANK is that). Not a user feature: docs/reliability.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace lodex {

enum class FaultOp : int { kOpen, kRead, kWrite, kSync, kTruncate, kRename, kMkdir, kRemove, kCount };
inline constexpr size_t kFaultOps = static_cast<size_t>(FaultOp::kCount);

const char* fault_op_name(FaultOp op);

struct Fault {
  FaultOp op = FaultOp::kWrite;
  uint64_t nth = 1;       // 1-based, counted from arming
  int error = 0;          // errno to fail with; 0 with short_transfer
  bool short_transfer = false;
  bool kill = false;      // SIGKILL this process before the operation
  bool foreign = false;   // throw a std::runtime_error (not a lodex::Error) before the operation
};

// Arms one fault (once it fired, operations proceed) and restarts the counts.
void arm_fault(const Fault& fault);
// Disarms and restarts the counts.
void disarm_fault();
// Operations of each kind since the last arm or disarm.
std::array<uint64_t, kFaultOps> fault_counts();
// Parses "<op>:<n>:<errno name|short|kill|foreign>"; InvalidArgument naming what is wrong.
Fault parse_fault(const std::string& spec);

// Called before each operation: the errno to fail it with, or 0. `shorten` (reads and writes):
// set when the transfer is to move fewer bytes than asked.
int fault_point(FaultOp op, bool* shorten = nullptr);

}  // namespace lodex
