// The request objects of the extension's collective calls.
//
// A collective call takes one request, made by keyword in Python:
//   g.write(_lodex.ParticleWrite(step=3, fields=[("position", arr)], wait=False))
// Each request has join(error): a rank whose arguments failed before the call (Python's checks)
// makes the same call with `Request().join(error)`. The collective then raises that error on
// every rank instead of running, so no rank is left waiting for this one; a joined request's
// other fields are not looked at. Requests are plain values: the calls convert and check them
// (bindings of particles.cpp, grids.cpp, series.cpp, module.cpp), requests.cpp binds them.
#pragma once

#include <nanobind/nanobind.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace lodex::py {

namespace nb = nanobind;

using Point3 = std::array<double, 3>;
using PointBox = std::pair<Point3, Point3>;             // (lo, hi) of a particle box
using Index3 = std::array<int64_t, 3>;
using IndexBox = std::array<Index3, 2>;                   // (lo, hi) of a grid or series box
using FieldDef = std::tuple<std::string, std::string, uint32_t>;   // (name, dtype, components)

// What every request carries: the error its rank joins the collective with (join), if any.
struct Request {
  std::optional<lodex::Error> error;
};

struct ParticleDefinition : Request {
  std::string name;
  std::vector<FieldDef> fields;
  Point3 lo{0, 0, 0}, hi{1, 1, 1};
  std::string mode = "factor";
  std::array<uint32_t, 3> dims{1, 1, 1};
  uint64_t particles_per_file = 0;
  uint32_t scale = 2;
  uint64_t level0_max = 1;
  uint64_t brick_target = 0;
  uint64_t seed = 0;
  std::array<bool, 3> periodic{false, false, false};
  bool auto_domain = false;
};

struct GridDefinition : Request {
  std::string name;
  std::array<uint64_t, 3> dims{1, 1, 1};
  int ndims = 3;
  std::vector<FieldDef> fields;
  std::string bitmask;
  int bits_per_block = 0;
  uint64_t blocks_per_file = 0;
  std::string aggregation;
  uint32_t partitions = 0;
  std::string index_space;
  bool zip = false;
};

struct SeriesDefinition : Request {
  std::string name;
  Index3 dims{1, 1, 1};
  std::vector<std::tuple<std::string, std::string, int>> variables;   // (name, dtype, ndim)
  uint64_t memory_budget = 0;
  int d_tar = -1;
  int d_sar = -1;
  double bw_io = 1.0, cc = 1.0, ts = 1.0;
  uint32_t max_window_steps = 0;
  double max_window_seconds = 0.0;
};

// A particle step: fields (name, array (n,) or (n, components)).
struct ParticleWrite : Request {
  int64_t step = 0;
  std::vector<std::pair<std::string, nb::object>> fields;
  std::optional<PointBox> patch;
  bool wait = true;
  bool copy = true;
};

// A step opened for zero-copy input (ParticleGroup.buffers): this rank's count and patch.
struct ParticleBuffers : Request {
  int64_t step = 0;
  uint64_t count = 0;
  std::optional<PointBox> patch;
  std::string positions = "interleaved";   // or "components"
};

// The commit of a step's buffers (wait=False: asynchronous, as write(..., wait=False)).
struct BuffersCommit : Request {
  bool wait = true;
};

// A grid step's block: fields (name, array, components).
struct GridWrite : Request {
  int64_t step = 0;
  Index3 lo{0, 0, 0}, hi{0, 0, 0};
  std::vector<std::tuple<std::string, nb::object, uint32_t>> fields;
  bool wait = true;
};

// A series step's block: data (variable, array).
struct SeriesWrite : Request {
  int64_t step = 0;
  Index3 lo{0, 0, 0}, hi{0, 0, 0};
  std::vector<std::pair<std::string, nb::object>> data;
  bool wait = true;
};

// A particle read (ParticleGroup.read; refine takes it without level and fraction).
struct ParticleRead : Request {
  int64_t step = 0;
  std::optional<PointBox> box;
  std::vector<std::string> fields;
  std::optional<uint32_t> level;
  std::optional<double> fraction;
  uint64_t readers = 1, P = 1;
  double S = 2.0;
  std::string split = "spatial";
  nb::object comm = nb::none();
};

struct ParticleQuery : Request {
  int64_t step = 0;
  std::string text;
  std::optional<PointBox> box;
  std::optional<uint32_t> level;
  uint64_t readers = 1, P = 1;
  double S = 2.0;
  std::vector<std::string> fields;
  bool rows = true;
  bool use_index = true;
  nb::object comm = nb::none();
};

struct IndexBuild : Request {
  std::vector<std::string> fields;
  std::string binning = "precision";
  uint32_t param = 3;
  std::vector<int64_t> steps;
};

// A grid read (GridGroup.read, and IdxDataset.read where step is the IDX time).
struct GridRead : Request {
  std::string field;
  int64_t step = 0;
  std::optional<IndexBox> box;
  std::optional<int> resolution;
  nb::object comm = nb::none();
};

struct SeriesRead : Request {
  std::string variable;
  std::vector<int64_t> steps;
  std::optional<IndexBox> box;
  std::optional<uint64_t> merge_gap;
  nb::object comm = nb::none();
};

// truncate(Truncate(after=N)) of a group or the dataset: steps after N go (-1: every step).
struct Truncate : Request {
  int64_t after = -1;
};

void bind_requests(nb::module_& m);
// A Python exception as the engine's error: the code of its lodex class (the classes Python
// registered with _set_error_classes), internal for an exception not lodex's; its str() as message.
lodex::Error error_of(nb::handle exception);

}  // namespace lodex::py
