#include "format/truncation.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace lodex {

namespace {

// Records 0..keep-1 of ascending `steps` are <= after.
template <typename Record>
size_t kept_records(const std::vector<Record>& steps, int64_t after) {
  return static_cast<size_t>(
      std::upper_bound(steps.begin(), steps.end(), after, [](int64_t a, const Record& r) { return a < r.step; }) -
      steps.begin());
}

template <typename Record>
GroupTruncation truncate_steps(const std::string& name, const char* kind, const std::vector<Record>& steps,
                               int64_t after) {
  GroupTruncation g{name, kind, {}, kept_records(steps, after)};
  for (size_t i = g.keep; i < steps.size(); ++i) g.removed.push_back(steps[i].step);
  return g;
}

std::string steps_text(const std::vector<int64_t>& steps) {
  if (steps.size() > 4) return cat(steps.front(), "..", steps.back(), ", ", steps.size(), " steps");
  std::string s;
  for (int64_t t : steps) s += cat(s.empty() ? "" : ", ", t);
  return s;
}

// A series keeps whole windows: the window holding steps on both sides of `after` is refused.
GroupTruncation truncate_series(const SeriesMeta& s, int64_t after) {
  GroupTruncation g{s.name, "series", {}, 0};
  for (const SeriesWindowRecord& w : s.windows) {
    if (w.steps.back() <= after) {
      ++g.keep;
      continue;
    }
    if (w.steps.front() <= after) {
      const int64_t before = g.keep == 0 ? kTruncateAll : s.windows[g.keep - 1].steps.back();
      fail(ErrorCode::kInvalidArgument, "series '", s.name, "': after=", after, " splits window ", w.file, " (steps ",
           steps_text(w.steps), "), and a window file is written whole; truncate after ", before,
           " (removing the window) or after ", w.steps.back(),
           " (keeping it): a series is truncated at -1 or at the last step of a window");
    }
    g.removed.insert(g.removed.end(), w.steps.begin(), w.steps.end());
  }
  return g;
}

}  // namespace

size_t Truncation::removed_steps() const {
  size_t n = 0;
  for (const auto& g : groups) n += g.removed.size();
  return n;
}

Truncation plan_truncation(const Manifest& m, const std::vector<std::string>& names, int64_t after) {
  if (after < kTruncateAll)
    fail(ErrorCode::kInvalidArgument, "after=", after, " is negative; give a step to keep the steps up to it, or -1 ",
         "to remove every step");
  Truncation t;
  t.after = after;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    if (std::find(names.begin(), names.begin() + static_cast<long>(i), name) != names.begin() + static_cast<long>(i))
      fail(ErrorCode::kInvalidArgument, "group '", name, "' is named twice in one truncate");
    if (const ParticleGroupMeta* p = m.find_particles(name))
      t.groups.push_back(truncate_steps(name, "particle group", p->steps, after));
    else if (const GridMeta* g = m.find_grid(name)) t.groups.push_back(truncate_steps(name, "grid", g->steps, after));
    else if (const SeriesMeta* s = m.find_series(name)) t.groups.push_back(truncate_series(*s, after));
    else fail(ErrorCode::kNotFound, "no group '", name, "' to truncate");
  }
  return t;
}

void apply_truncation(Manifest& m, const Truncation& t) {
  for (const GroupTruncation& g : t.groups) {
    if (ParticleGroupMeta* p = m.find_particles(g.name)) {
      p->steps.resize(std::min(p->steps.size(), g.keep));
    } else if (GridMeta* grid = m.find_grid(g.name)) {
      grid->steps.resize(std::min(grid->steps.size(), g.keep));
    } else if (SeriesMeta* s = m.find_series(g.name)) {
      s->windows.resize(std::min(s->windows.size(), g.keep));
    } else {
      fail(ErrorCode::kInternal, "group '", g.name, "' of a truncate plan is not in the manifest");
    }
  }
}

}  // namespace lodex
