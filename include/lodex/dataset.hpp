// lodex C++ API: datasets, the directories one simulation run writes (particle groups, grid
// variables, series).
//
// Dataset owns its C handle; the ParticleGroup, Grid and Series handles it gives out are
// borrowed from it and become invalid when it closes (Columns, Refinement and QueryResult stay
// valid). Collective calls must be made by every rank of the dataset's communicator, with the
// same scalar arguments; MPI_COMM_NULL makes a dataset serial (no MPI call; MPI need not be
// initialised).
#pragma once

#include <lodex.h>
#include <lodex/error.hpp>
#include <lodex/grid.hpp>
#include <lodex/particles.hpp>
#include <lodex/series.hpp>
#include <mpi.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lodex {

enum class Mode : int { kRead = LODEX_MODE_READ, kAppend = LODEX_MODE_APPEND };
enum class Kind : int { kParticles = LODEX_KIND_PARTICLES, kGrid = LODEX_KIND_GRID, kSeries = LODEX_KIND_SERIES };

// Flags of create and open (or them together).
inline constexpr unsigned kFsync = LODEX_FSYNC;               // fsync every data file before a step commits
inline constexpr unsigned kExchangeShm =
    LODEX_EXCHANGE_SHM;  // one writer per file, same-node senders copying into its shared window
inline constexpr unsigned kAllowOutside =
    LODEX_ALLOW_OUTSIDE;  // reads may open files outside the dataset (links, IDX templates)
inline constexpr unsigned kExchangeP2p =
    LODEX_EXCHANGE_P2P;  // one writer per file, point-to-point messages (the paper's)
// Neither exchange flag: a partition's ranks on one node write its file together (the default).

// An open dataset: owns the C handle. Move-only; a moved-from or closed Dataset holds nothing
// and its calls throw Error(LODEX_ERR_INVALID_ARGUMENT). close() is collective: call it on every
// rank. The destructor closes a dataset still open but swallows any error, and on one rank
// alone (an exception that only it threw) it would wait for the others: close explicitly.
class Dataset {
 public:
  Dataset() noexcept = default;
  explicit Dataset(lodex_dataset* owned) noexcept : ds_(owned) {}
  Dataset(Dataset&& other) noexcept : ds_(std::exchange(other.ds_, nullptr)) {}
  // Closes this dataset first (collectively, errors swallowed), then takes other's.
  Dataset& operator=(Dataset&& other) noexcept {
    if (this != &other) {
      close_quietly();
      ds_ = std::exchange(other.ds_, nullptr);
    }
    return *this;
  }
  Dataset(const Dataset&) = delete;
  Dataset& operator=(const Dataset&) = delete;
  ~Dataset() { close_quietly(); }

  // Collective over comm. Creates the dataset directory (its parent must exist; an existing
  // dataset is LODEX_ERR_ALREADY_EXISTS), open to append.
  static Dataset create(const std::string& path, MPI_Comm comm = MPI_COMM_NULL, unsigned flags = 0) {
    lodex_dataset* ds = nullptr;
    detail::check(lodex_dataset_create(path.c_str(), comm, flags, &ds));
    return Dataset(ds);
  }
  // Collective over comm. Opens an existing dataset to read (comm may be MPI_COMM_NULL) or to
  // append steps, groups and indexes.
  static Dataset open(const std::string& path, Mode mode = Mode::kRead, MPI_Comm comm = MPI_COMM_NULL,
                      unsigned flags = 0) {
    lodex_dataset* ds = nullptr;
    detail::check(lodex_dataset_open(path.c_str(), static_cast<int>(mode), comm, flags, &ds));
    return Dataset(ds);
  }

  // Collective over the dataset's communicator; idempotent. Writes the series' buffered steps,
  // then releases the dataset and its group handles whatever happens; throws if that last
  // flush failed.
  void close() {
    if (ds_ != nullptr) detail::check(lodex_dataset_close(std::exchange(ds_, nullptr)));
  }
  bool is_open() const noexcept { return ds_ != nullptr; }
  // Collective (append mode): truncate(after) of every particle group, grid and series at once
  // (one atomic manifest replace), to restart from the checkpoint of step `after` (-1: remove
  // every step). Returns the steps removed over all groups.
  uint64_t truncate(int64_t after) {
    uint64_t removed = 0;
    detail::check(lodex_dataset_truncate(ds_, after, &removed));
    return removed;
  }
  explicit operator bool() const noexcept { return is_open(); }

  // Collective (append mode), every rank the same: the bytes of asynchronous steps in flight on
  // each rank over every group (LODEX_PENDING_UNBOUNDED: no bound; lodex_dataset_set_pending_budget).
  void set_pending_budget(std::uint64_t max_pending_bytes) {
    detail::check(lodex_dataset_set_pending_budget(ds_, max_pending_bytes));
  }
  // Local: the bytes this rank passed to asynchronous steps still in flight.
  std::uint64_t pending_bytes() const {
    std::uint64_t bytes = 0;
    detail::check(lodex_dataset_pending_bytes(ds_, &bytes));
    return bytes;
  }
  // Local.
  std::string path() const {
    const char* p = nullptr;
    detail::check(lodex_dataset_path(ds_, &p));
    return detail::string_or_empty(p);
  }
  // Local. The names of the groups of one kind, ascending.
  std::vector<std::string> names(Kind kind) const {
    std::size_t n = 0;
    detail::check(lodex_dataset_count(ds_, static_cast<int>(kind), &n));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) {
      const char* name = nullptr;
      detail::check(lodex_dataset_name(ds_, static_cast<int>(kind), i, &name));
      out.push_back(detail::string_or_empty(name));
    }
    return out;
  }

  // Local. An existing particle group (LODEX_ERR_NOT_FOUND if none).
  ParticleGroup particles(const std::string& name) const {
    lodex_particles* g = nullptr;
    detail::check(lodex_particles_open(ds_, name.c_str(), &g));
    return ParticleGroup(g);
  }
  // Collective (append mode). Defines a particle group, or checks that an existing one matches.
  // One field must be "position" (3 components of kF4 or kF8); domain: the box the particles
  // lie in (its maximum inclusive), with its periodic axes, or Domain::Automatic().
  ParticleGroup define_particles(const std::string& name, const std::vector<FieldDef>& fields, const Domain& domain,
                                 const Partition& partition = {}, const LodParams& lod = {}) {
    const std::vector<lodex_field_def> f = detail::to_c(fields);
    const Box& b = domain.box;
    lodex_domain d{{b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]},
                   {domain.periodic[0], domain.periodic[1], domain.periodic[2]},
                   domain.automatic};
    const lodex_partition p{static_cast<int32_t>(partition.mode),
                            {partition.dims[0], partition.dims[1], partition.dims[2]},
                            partition.particles_per_file};
    const lodex_lod_params l{lod.scale, lod.level0_max, lod.brick_target, lod.seed};
    lodex_particles* g = nullptr;
    detail::check(lodex_particles_define_domain(ds_, name.c_str(), f.data(), f.size(), &d, &p, &l, &g));
    return ParticleGroup(g);
  }

  // Local. An existing grid variable.
  Grid grid(const std::string& name) const {
    lodex_grid* g = nullptr;
    detail::check(lodex_grid_open(ds_, name.c_str(), &g));
    return Grid(g);
  }
  // Collective (append mode). Defines a grid variable, or checks that an existing one matches.
  Grid define_grid(const std::string& name, const GridDef& def) {
    const std::vector<lodex_field_def> f = detail::to_c(def.fields);
    lodex_grid_def c{};
    detail::check(lodex_grid_def_init(&c));
    for (int a = 0; a < 3; ++a) c.dims[a] = def.dims[a];
    c.ndims = def.ndims;
    c.fields = f.data();
    c.num_fields = f.size();
    c.bitmask = detail::name_or_null(def.bitmask);
    c.bits_per_block = def.bits_per_block;
    c.blocks_per_file = def.blocks_per_file;
    c.aggregation = detail::name_or_null(def.aggregation);
    c.partitions = def.partitions;
    c.index_space = detail::name_or_null(def.index_space);
    c.zip = def.zip ? 1 : 0;
    lodex_grid* g = nullptr;
    detail::check(lodex_grid_define(ds_, name.c_str(), &c, &g));
    return Grid(g);
  }

  // Local. An existing series.
  Series series(const std::string& name) const {
    lodex_series* s = nullptr;
    detail::check(lodex_series_open(ds_, name.c_str(), &s));
    return Series(s);
  }
  // Collective (append mode). Defines a series, or checks that an existing one matches.
  Series define_series(const std::string& name, const SeriesDef& def) {
    std::vector<lodex_series_var> vars;
    for (const SeriesVar& v : def.variables) vars.push_back({v.name.c_str(), static_cast<int32_t>(v.dtype), v.ndim});
    lodex_series_def c{};
    detail::check(lodex_series_def_init(&c));
    for (int a = 0; a < 3; ++a) c.dims[a] = def.dims[a];
    c.variables = vars.data();
    c.num_variables = vars.size();
    c.memory_budget = def.memory_budget;
    c.d_tar = def.d_tar;
    c.d_sar = def.d_sar;
    c.bw_io = def.bw_io;
    c.cc = def.cc;
    c.ts = def.ts;
    lodex_series* s = nullptr;
    detail::check(lodex_series_define(ds_, name.c_str(), &c, &s));
    return Series(s);
  }

  lodex_dataset* raw() const noexcept { return ds_; }

 private:
  void close_quietly() noexcept {
    if (ds_ != nullptr) lodex_dataset_close(std::exchange(ds_, nullptr));
  }

  lodex_dataset* ds_ = nullptr;
};

}  // namespace lodex
