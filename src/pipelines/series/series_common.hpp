// Names shared by series writes and reads (internal to the pipelines layer).
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "format/series_file.hpp"
#include "layout/series_plan.hpp"

namespace lodex {

inline std::string cuts_text(const std::array<std::vector<int64_t>, 3>& cuts) {
  std::string s;
  for (int a = 0; a < 3; ++a) {
    s += cat(a ? ", " : "", "xyz"[a], " cut at");
    for (int64_t c : cuts[a]) s += cat(" ", c);
  }
  return s;
}

// The window file of the window starting at `first_step`.
inline std::string window_file_name(int64_t first_step) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "w-%012lld.lsw", static_cast<long long>(first_step));
  return buf;
}

}  // namespace lodex
