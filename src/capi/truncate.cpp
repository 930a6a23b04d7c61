// C API: truncates, to restart from a checkpoint (lodex.h, "Restarts"): every step after `after`
// of a group, or of every group of a dataset, removed collectively (pipelines/truncate.cpp).
#include "capi/handles.hpp"

using namespace lodex;
using namespace lodex::capi;

namespace {

void report(const Truncation& t, uint64_t* removed) {
  if (removed) *removed = t.removed_steps();
}

}  // namespace

int lodex_particles_truncate(lodex_particles* g, int64_t after, uint64_t* removed) {
  return guarded([&] { report(live(g, Kind::kParticles, "group")->group->truncate(after), removed); });
}

int lodex_grid_truncate(lodex_grid* g, int64_t after, uint64_t* removed) {
  return guarded([&] { report(live(g, Kind::kGrid, "grid")->group->truncate(after), removed); });
}

int lodex_series_truncate(lodex_series* s, int64_t after, uint64_t* removed) {
  return guarded([&] { report(live(s, Kind::kSeries, "series")->group->truncate(after), removed); });
}

int lodex_dataset_truncate(lodex_dataset* ds, int64_t after, uint64_t* removed) {
  return guarded([&] { report(live(ds, Kind::kDataset, "ds")->ds->truncate(after), removed); });
}
