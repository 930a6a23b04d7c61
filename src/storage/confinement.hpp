// Which files a reader may open (docs/reliability.md, "Paths"): by default only files whose real
// location, every symbolic link resolved, lies under one root directory (a dataset's, or for a
// foreign IDX dataset the .idx file's directory). Links and templates that stay under the root
// are followed; one that leads out is a FormatError naming the path, where it leads and the root,
// raised before the file is opened. The caller may allow leaving the root for data laid out so on
// purpose (step folders linked to another file system, IDX blocks in a shared directory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/file.hpp"

namespace lodex {

class Confinement {
 public:
  Confinement() = default;   // unconfined: any path may be opened
  // Resolves `root` now (a root not there yet is taken as its absolute path); allow_outside = true
  // opens any path.
  Confinement(const std::string& root, bool allow_outside);

  const std::string& root() const { return root_; }
  bool allows_outside() const { return root_.empty() || allow_outside_; }
  // Opens `path` for reading: resolved and checked before the open, checked again on the open
  // descriptor (a link swapped in between is caught too). Errors as File's, plus FormatError.
  File open(const std::string& path) const;
  // open() and read it all; more than max_bytes is a FormatError.
  std::vector<uint8_t> read_whole(const std::string& path, uint64_t max_bytes) const;

 private:
  void require_inside(const std::string& path, const std::string& real) const;
  std::string root_;   // canonical; empty: unconfined
  bool allow_outside_ = true;
};

}  // namespace lodex
