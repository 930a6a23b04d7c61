// State shared by a Dataset and its groups (internal to the pipelines layer).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <string>

#include "format/manifest.hpp"
#include "pipelines/dataset.hpp"
#include "mpi/comm.hpp"
#include "pipelines/pending_budget.hpp"
#include "storage/confinement.hpp"
#include "storage/file.hpp"
#include "storage/writer_lock.hpp"

namespace lodex {

struct DatasetState {
  std::string path;
  Comm comm;
  bool writable = false;
  bool closed = false;
  DatasetOptions options;
  Confinement confinement;   // where reads may open files: under `path` unless options allow more
  Manifest manifest;

  PendingBudget pending;   // the asynchronous steps in flight over the groups
  // Asynchronous grid steps and series windows aggregate on their helper thread, over a
  // communicator of their group's own ("helper-mpi"): MPI gives MPI_THREAD_MULTIPLE (or the
  // dataset is serial) and LODEX_ASYNC_PATH does not ask for the fallback. Otherwise the caller's
  // thread aggregates them before the call returns ("caller-aggregates"). The same on every rank.
  bool helper_mpi = false;
  const char* async_path() const { return helper_mpi ? "helper-mpi" : "caller-aggregates"; }

  std::unique_ptr<WriterLock> lock;   // rank 0 of a writer (create, append): one writer at a time

  std::string manifest_path() const { return join_path(path, kManifestName); }
  // Rank 0 only: writes the in-memory manifest atomically (fsync'd when options.fsync), as a
  // compare-and-swap: if manifest.json is no longer the text this writer last read or wrote
  // (another writer committed), AlreadyExists naming the conflict and nothing is written.
  void write_manifest() const;
  mutable std::string manifest_text;   // its last text; the buffer is kept (no fresh pages per commit)
  // checksum64 of manifest.json as this writer last read or wrote it; nullopt: there was none.
  mutable std::optional<uint64_t> manifest_seen;
  void require_open() const;
  void require_writable() const;
};

// Before an asynchronous write of `bytes` on this rank, when options.max_pending_bytes is set
// (collective then: one allreduce): completes the oldest pending steps of any group until `bytes`
// more fit within the budget on every rank. False when the step alone exceeds it on some rank: the
// caller then writes it synchronously. Without a budget: true, no MPI call.
bool make_room(DatasetState& st, uint64_t bytes);

// Collective (create and open for append): sets st.helper_mpi. The environment variable
// LODEX_ASYNC_PATH=caller-aggregates forces the fallback (tests of that path); helper-mpi or unset:
// the helper's path wherever MPI allows it. Another value is an InvalidArgument on every rank.
void choose_async_path(DatasetState& st);

// Atomic replace; durable (fsync file + directory) or only atomic against concurrent readers.
void replace_file(const std::string& path, std::span<const uint8_t> bytes, bool durable);
inline std::span<const uint8_t> bytes_of(const std::string& text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

std::string step_directory_name(const std::string& group, int64_t step);

// Removes the entries of `dir` named <prefix><digits><suffix> whose number is above `after`: the
// files or folders of steps a truncate removed, and leftovers of writes that never committed.
void remove_steps_after(const std::string& dir, std::string_view prefix, std::string_view suffix, int64_t after);

// Collective: removes the steps after `after` of the groups `names` (pipelines/truncate.cpp);
// the callers first complete what they have in flight.
Truncation truncate_groups(DatasetState& st, const std::vector<std::string>& names, int64_t after,
                           const std::optional<Error>& input_error);

// A particle group of the manifest (internal error if it vanished), and one of its committed
// steps (NotFound listing the steps otherwise).
const ParticleGroupMeta& group_meta(const DatasetState& st, const std::string& name);
const StepRecord& step_record(const ParticleGroupMeta& g, int64_t step);
// InvalidArgument when `box` reaches past the group's domain on a periodic axis: `what` (a value
// query, a refinement, a spatial split) takes a box inside it; only a read returns the images.
void refuse_periodic_images(const Box& box, const ParticleGroupMeta& g, const char* what);

// A step's spatial metadata, checked against the manifest's checksum and counts.
struct LoadedMetadata {
  SpatialMetadata meta;
  uint64_t bytes = 0;
  std::string step_dir;
  Confinement confinement;   // the dataset's: where the step's files may be opened
};
LoadedMetadata load_metadata(const DatasetState& ds, const std::string& name, int64_t step);

}  // namespace lodex
