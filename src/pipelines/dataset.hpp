// The engine's C++ interface: datasets of particle groups (pipelines/particles/particle_group.hpp),
// grids and series written collectively by MPI ranks and read by any number of processes. Internal: the Python bindings and the C API (src/capi) build
// on it; users see include/lodex.h and include/lodex/*.hpp. Everything that fails throws
// lodex::Error (core/error.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "format/manifest.hpp"
#include "format/truncation.hpp"
#include "pipelines/group_types.hpp"
#include "pipelines/particles/particle_group.hpp"

namespace lodex {

class GridGroup;
struct GridSpec;
class SeriesGroup;
struct SeriesSpec;
struct DatasetState;

enum class OpenMode { kRead, kAppend };

class Dataset {
 public:
  // Collective. comm == MPI_COMM_NULL means serial (no MPI calls at all).
  static std::shared_ptr<Dataset> create(const std::string& path, MPI_Comm comm, DatasetOptions options = {});
  static std::shared_ptr<Dataset> open(const std::string& path, OpenMode mode, MPI_Comm comm,
                                       DatasetOptions options = {});

  // An existing group, for reading or appending.
  ParticleGroup& particles(const std::string& name);
  // Creates the group (collective) or, if it exists, checks that the definition matches.
  // `input_error` (here, in grid and in series): a language binding could not build this rank's
  // definition; the rank still takes part, and every rank raises that error.
  ParticleGroup& particles(const std::string& name, const Schema& schema, const ParticleDomain& domain,
                           const PartitionSpec& partition, const LodParams& lod,
                           const std::optional<Error>& input_error = std::nullopt);
  std::vector<std::string> particle_group_names() const;
  // Grid variables (pipelines/grids/grid_group.hpp): an existing one, or a new one defined collectively (an
  // existing one must match the definition).
  GridGroup& grid(const std::string& name);
  GridGroup& grid(const std::string& name, const GridSpec& spec,
                  const std::optional<Error>& input_error = std::nullopt);
  std::vector<std::string> grid_names() const;
  // Series (pipelines/series/series_group.hpp): an existing one, or a new one defined collectively (an existing
  // one must match the definition).
  SeriesGroup& series(const std::string& name);
  SeriesGroup& series(const std::string& name, const SeriesSpec& spec,
                      const std::optional<Error>& input_error = std::nullopt);
  std::vector<std::string> series_names() const;
  // Collective (append mode): truncate(after) of every group of every kind at once (one manifest
  // replace); a series whose window holds steps on both sides of `after` refuses it for all.
  Truncation truncate(int64_t after, const std::optional<Error>& input_error = std::nullopt);
  const Manifest& manifest() const;
  const std::string& path() const;
  bool writable() const;
  int rank() const;
  int size() const;
  // Local: the bytes this rank passed to the asynchronous steps still in flight, over every group
  // (DatasetOptions::max_pending_bytes bounds them when set).
  uint64_t pending_bytes() const;
  // Collective (write modes), every rank the same value: DatasetOptions::max_pending_bytes from
  // now on (none: no bound over the groups). A lower budget applies at the next asynchronous
  // write, which completes steps in flight until it fits.
  void set_max_pending_bytes(std::optional<uint64_t> bytes);
  // Collective in write modes: flushes the series' buffered steps first. Idempotent.
  void close();
  ~Dataset();
  Dataset(const Dataset&) = delete;
  Dataset& operator=(const Dataset&) = delete;

 private:
  Dataset() = default;
  // Collective: commits every group's pending asynchronous step (particles, grids, series).
  void complete_pending();
  // NotFound for `name` as a `kind`, listing every name of every kind and the closest one.
  [[noreturn]] void fail_not_found(const char* kind, const std::string& name) const;
  std::shared_ptr<DatasetState> state_;
  std::vector<std::unique_ptr<ParticleGroup>> groups_;
  std::vector<std::unique_ptr<GridGroup>> grids_;
  std::vector<std::unique_ptr<SeriesGroup>> series_;
};

std::string version();

}   // namespace lodex
