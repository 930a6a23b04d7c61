#include "storage/confinement.hpp"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

#include "core/error.hpp"

namespace lodex {

namespace {

// Where an open descriptor really is ("" where /proc is not mounted).
std::string resolved_fd(int fd) {
  char buf[PATH_MAX];
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace

Confinement::Confinement(const std::string& root, bool allow_outside) : allow_outside_(allow_outside) {
  root_ = real_path(root);
  // Not there (yet): the lexical absolute path; opens below it fail as missing files do.
  if (root_.empty()) root_ = std::filesystem::absolute(root).lexically_normal().string();
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

void Confinement::require_inside(const std::string& path, const std::string& real) const {
  if (allows_outside() || real.empty()) return;
  const bool inside = real == root_ || (real.size() > root_.size() && real.compare(0, root_.size(), root_) == 0 &&
                                        (root_.back() == '/' || real[root_.size()] == '/'));
  if (!inside)
    fail(ErrorCode::kFormat, "'", path, "' leads to '", real, "', outside '", root_,
         "'; lodex opens files outside a dataset only when the caller allows it (allow_outside)");
}

File Confinement::open(const std::string& path) const {
  require_inside(path, allows_outside() ? std::string() : real_path(path));
  File f(path, File::Mode::kRead);
  if (!allows_outside()) require_inside(path, resolved_fd(f.descriptor()));
  return f;
}

std::vector<uint8_t> Confinement::read_whole(const std::string& path, uint64_t max_bytes) const {
  const File f = open(path);
  return read_whole_file(f, max_bytes);
}

}  // namespace lodex
