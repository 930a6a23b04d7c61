// C API: datasets (lodex.h, "Datasets").
#include "capi/handles.hpp"

using namespace lodex;
using namespace lodex::capi;

namespace {

DatasetOptions options_of(unsigned flags) {
  if (flags & ~unsigned{LODEX_FSYNC | LODEX_EXCHANGE_SHM | LODEX_ALLOW_OUTSIDE | LODEX_EXCHANGE_P2P})
    fail(ErrorCode::kInvalidArgument, "flags ", flags,
         " has bits other than LODEX_FSYNC, LODEX_EXCHANGE_SHM, LODEX_ALLOW_OUTSIDE and LODEX_EXCHANGE_P2P");
  if ((flags & LODEX_EXCHANGE_SHM) && (flags & LODEX_EXCHANGE_P2P))
    fail(ErrorCode::kInvalidArgument, "flags ", flags,
         " ask for two exchanges: LODEX_EXCHANGE_SHM and LODEX_EXCHANGE_P2P");
  DatasetOptions o;
  o.fsync = flags & LODEX_FSYNC;
  o.allow_outside = flags & LODEX_ALLOW_OUTSIDE;
  o.exchange = (flags & LODEX_EXCHANGE_SHM)   ? ExchangeMethod::kSharedMemory
               : (flags & LODEX_EXCHANGE_P2P) ? ExchangeMethod::kPointToPoint
                                              : ExchangeMethod::kNode;
  return o;
}

lodex_dataset* new_handle(std::shared_ptr<Dataset> ds) {
  auto h = std::make_unique<lodex_dataset>();
  h->ds = std::move(ds);
  lodex_dataset* token = register_handle(h.get(), Kind::kDataset);
  h.release();   // the registry's now: lodex_dataset_close deletes it
  return token;
}

// Create and open are collective inside the engine, which agrees on a bad path itself; the
// C-level checks below go into the same agreement by handing the engine an empty path.
int create_or_open(const char* path, std::optional<OpenMode> mode, MPI_Comm comm, unsigned flags, lodex_dataset** out) {
  return guarded([&] {
    InputCheck check;
    DatasetOptions options;
    check.attempt([&] { options = options_of(flags); });
    check.require(out != nullptr, "out is NULL");
    check.require(path != nullptr, "path is NULL");
    agree_inputs(check, comm);
    auto ds = mode ? Dataset::open(path, *mode, comm, options) : Dataset::create(path, comm, options);
    *out = new_handle(std::move(ds));
  });
}

void release_groups(lodex_dataset* h) {
  for (auto& [_, g] : h->particles) unregister_handle(g->token);
  for (auto& [_, g] : h->grids) unregister_handle(g->token);
  for (auto& [_, g] : h->series) unregister_handle(g->token);
}

std::vector<std::string> names_of(const Dataset& ds, int kind) {
  switch (kind) {
    case LODEX_KIND_PARTICLES: return ds.particle_group_names();
    case LODEX_KIND_GRID: return ds.grid_names();
    case LODEX_KIND_SERIES: return ds.series_names();
  }
  fail(ErrorCode::kInvalidArgument, "kind ", kind,
       " is not LODEX_KIND_PARTICLES (1), LODEX_KIND_GRID (2) or LODEX_KIND_SERIES (3)");
}

}  // namespace

extern "C" {

int lodex_dataset_create(const char* path, MPI_Comm comm, unsigned flags, lodex_dataset** out) {
  return create_or_open(path, std::nullopt, comm, flags, out);
}

int lodex_dataset_create_f(const char* path, MPI_Fint comm, unsigned flags, lodex_dataset** out) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) { return lodex_dataset_create(path, c_comm, flags, out); });
}

int lodex_dataset_open(const char* path, int mode, MPI_Comm comm, unsigned flags, lodex_dataset** out) {
  if (mode != LODEX_MODE_READ && mode != LODEX_MODE_APPEND) {
    // Still collective: the other ranks may have passed a valid mode.
    return guarded([&] {
      InputCheck check;
      check.require(false, cat("mode ", mode, " is not LODEX_MODE_READ (0) or LODEX_MODE_APPEND (1)"));
      agree_inputs(check, comm);
    });
  }
  return create_or_open(path, mode == LODEX_MODE_APPEND ? OpenMode::kAppend : OpenMode::kRead, comm, flags, out);
}

int lodex_dataset_open_f(const char* path, int mode, MPI_Fint comm, unsigned flags, lodex_dataset** out) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) { return lodex_dataset_open(path, mode, c_comm, flags, out); });
}

int lodex_dataset_close(lodex_dataset* ds) {
  return guarded([&] {
    std::unique_ptr<lodex_dataset> owned(release_handle(ds, Kind::kDataset, "ds"));
    release_groups(owned.get());
    owned->ds->close();
  });
}

int lodex_dataset_set_pending_budget(lodex_dataset* ds, uint64_t max_pending_bytes) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    ds->ds->set_max_pending_bytes(
        max_pending_bytes == LODEX_PENDING_UNBOUNDED ? std::nullopt : std::optional<uint64_t>(max_pending_bytes));
  });
}

int lodex_dataset_pending_bytes(const lodex_dataset* ds, uint64_t* bytes) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    if (!bytes) fail(ErrorCode::kInvalidArgument, "bytes is NULL");
    *bytes = ds->ds->pending_bytes();
  });
}

int lodex_dataset_path(const lodex_dataset* ds, const char** path) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    if (!path) fail(ErrorCode::kInvalidArgument, "path is NULL");
    *path = ds->ds->path().c_str();
  });
}

int lodex_dataset_count(const lodex_dataset* ds, int kind, size_t* count) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    if (!count) fail(ErrorCode::kInvalidArgument, "count is NULL");
    *count = names_of(*ds->ds, kind).size();
  });
}

int lodex_dataset_name(const lodex_dataset* ds, int kind, size_t index, const char** name) {
  return guarded([&] {
    auto* h = const_cast<lodex_dataset*>(live(ds, Kind::kDataset, "ds"));
    if (!name) fail(ErrorCode::kInvalidArgument, "name is NULL");
    std::vector<std::string> all = names_of(*h->ds, kind);
    if (index >= all.size())
      fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", all.size(), " names of that kind");
    *name = h->name_pool.insert(all[index]).first->c_str();
  });
}

}  // extern "C"
