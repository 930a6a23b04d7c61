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

// The head the plan gives a window of `steps` steps from `first_step`: every chunk's place,
// bytes, planes and blocks, and where the data starts. The writer writes it; the reader checks
// a window file's head against it.
inline SeriesWindowHead planned_window_head(const std::string& series, const std::vector<SeriesVariable>& vars,
                                            const SarPlan& sar, int64_t first_step, uint32_t steps) {
  SeriesWindowHead h;
  h.series = series.substr(0, 31);
  h.first_step = static_cast<uint64_t>(first_step);
  h.steps = steps;
  h.variables = static_cast<uint32_t>(vars.size());
  h.chunks = static_cast<uint32_t>(sar.chunks().size());
  const std::vector<uint32_t> planes = chunk_planes(vars, sar);
  const WindowLayout sizes = window_layout(vars, sar, steps, 0);
  h.entries.resize(planes.size());
  for (uint32_t v = 0; v < h.variables; ++v)
    for (uint32_t c = 0; c < h.chunks; ++c) {
      SeriesChunkEntry& e = h.entries[size_t{v} * h.chunks + c];
      e.bytes = sizes.bytes[v][c];
      e.planes = planes[size_t{v} * h.chunks + c];
      h.total_planes += e.planes;
    }
  number_series_blocks(h);
  h.data_offset = series_data_offset(h.variables, h.chunks, h.total_blocks);
  for (uint32_t v = 0; v < h.variables; ++v)
    for (uint32_t c = 0; c < h.chunks; ++c) h.entries[size_t{v} * h.chunks + c].offset = sizes.offset[v][c] + h.data_offset;
  h.file_bytes = sizes.end + h.data_offset;
  return h;
}

}  // namespace lodex
