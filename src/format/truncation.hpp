// Which committed steps a truncate removes (restarts from a checkpoint): every step after `after`
// of the named groups. Pure: a manifest in, a plan out; the pipeline (pipelines/truncate.cpp)
// commits the plan's manifest and then removes the steps' files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/manifest.hpp"

namespace lodex {

// `after` of a truncate that removes every step.
inline constexpr int64_t kTruncateAll = -1;

struct GroupTruncation {
  std::string name;
  const char* kind = "";           // "particle group", "grid" or "series" (Manifest::kind_of)
  std::vector<int64_t> removed;    // the steps removed, ascending
  size_t keep = 0;                 // records kept: steps, or windows of a series
};

struct Truncation {
  int64_t after = kTruncateAll;
  std::vector<GroupTruncation> groups;   // in the order named
  size_t removed_steps() const;
};

// The plan for `names` (each once) of `m`: steps <= after stay, the rest go; a step value that is
// not committed works the same. InvalidArgument for after < -1 or a name given twice; NotFound for
// a name the manifest does not hold; InvalidArgument for a series whose window holds steps on both
// sides of `after` (a window file is written whole: the error names the window and the nearest
// steps a truncate may keep).
Truncation plan_truncation(const Manifest& m, const std::vector<std::string>& names, int64_t after);

// Drops the records the plan removes, in place: kept records (and their cached encodings) stay
// where they are.
void apply_truncation(Manifest& m, const Truncation& t);

}  // namespace lodex
