// IDX grids: lodex.open_idx (reads of any IDX dataset) and the grid variables of a dataset.
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "pipelines/grids/grid_group.hpp"
#include "pipelines/grids/idx_dataset.hpp"

namespace lodex::py {

namespace {

using BoxArg = std::array<std::array<int64_t, 3>, 2>;

std::optional<GridBox> grid_box(const std::optional<BoxArg>& box) {
  if (!box) return std::nullopt;
  return GridBox{(*box)[0], (*box)[1]};
}

// Views of a grid block's arrays (name, array, components); `arrays` keeps them alive.
std::vector<FieldView> grid_views(const std::vector<std::tuple<std::string, nb::object, uint32_t>>& fields,
                                  std::vector<Array>& arrays) {
  std::vector<FieldView> views;
  for (const auto& [name, obj, comps] : fields) {
    FieldView v = array_view(name, obj, arrays);
    v.components = comps;
    v.rows = comps ? arrays.back().size() / comps : 0;
    views.push_back(v);
  }
  return views;
}

// A grid read, `read(comm, &stats)`, as (numpy array, stats dict, (lo, hi) of this rank's part):
// numpy (z, y, x[, c]) for 3-D grids, (y, x[, c]) for 2-D, (x[, c]) for 1-D. `part(rank, size)`
// gives the part just read (validated by the read, so it cannot fail).
template <typename Read, typename Part>
nb::tuple grid_read(int ndims, MPI_Comm comm, Read&& read, Part&& part) {
  IdxReadStats stats;
  GridArray a;
  GridReadPart p;
  {
    nb::gil_scoped_release release;
    a = read(comm, &stats);
    const auto [rank, size] = rank_and_size(comm);
    p = part(rank, size);
  }
  size_t shape[4];
  size_t nd = 0;
  for (int ax = ndims - 1; ax >= 0; --ax) shape[nd++] = a.shape[ax];
  if (a.components > 1) shape[nd++] = a.components;
  const DType t = a.dtype;
  uint8_t* data = a.bytes.release();
  nb::capsule owner(data, [](void* q) noexcept { std::free(q); });
  nb::dict s;
  s["files_opened"] = stats.files_opened;
  s["blocks_read"] = stats.blocks_read;
  s["bytes_read"] = stats.bytes_read;
  s["bytes_returned"] = stats.bytes_returned;
  return nb::make_tuple(nb::ndarray<nb::numpy>(data, nd, shape, owner, nullptr, dlpack_of(t)), s,
                        nb::make_tuple(p.box.lo, p.box.hi));
}

}  // namespace

void bind_grids(nb::module_& m) {
  // The lattice reads use (layout/grid_read_plan.hpp), for tests' oracles.
  m.def("lattice_stride", &lattice_stride, nb::arg("bitmask"), nb::arg("resolution"), nb::arg("axis"));
  nb::class_<IdxDataset>(m, "IdxDataset")
      .def_prop_ro("path", &IdxDataset::path)
      .def_prop_ro("max_resolution", &IdxDataset::max_resolution)
      .def_prop_ro("bitmask", [](const IdxDataset& d) { return d.header().bits; })
      .def_prop_ro("bits_per_block", [](const IdxDataset& d) { return d.header().bits_per_block; })
      .def_prop_ro("blocks_per_file", [](const IdxDataset& d) { return d.header().blocks_per_file; })
      .def_prop_ro("ndims", [](const IdxDataset& d) { return d.header().ndims; })
      .def_prop_ro("box",
                   [](const IdxDataset& d) {
                     return std::array<std::array<int64_t, 3>, 2>{d.header().box_min, d.header().box_max};
                   })
      .def_prop_ro("time",
                   [](const IdxDataset& d) -> std::optional<std::array<std::string, 3>> {
                     if (!d.header().time) return std::nullopt;
                     return std::array<std::string, 3>{d.header().time->first, d.header().time->last,
                                                       d.header().time->pattern};
                   })
      .def_prop_ro("fields",
                   [](const IdxDataset& d) {
                     std::vector<std::tuple<std::string, std::string, uint32_t>> out;
                     for (const auto& f : d.header().fields)
                       out.emplace_back(f.name, dtype_name(f.dtype), f.components);
                     return out;
                   })
      .def(
          "read",
          [](const IdxDataset& d, const GridRead& r) {
            const std::optional<GridBox> b = grid_box(r.box);
            return grid_read(
                d.header().ndims, to_comm(r.comm),
                [&](MPI_Comm c, IdxReadStats* s) {   // a joined error: raised on every rank
                  return d.read(r.field, r.step, b, r.resolution, c, s, r.error);
                },
                [&](int rank, int size) { return d.read_part(r.field, r.step, b, r.resolution, rank, size); });
          },
          nb::arg("request"));
  m.def("open_idx", nb::overload_cast<const std::string&, bool>(&IdxDataset::open), nb::arg("path"),
        nb::arg("allow_outside") = false);

  nb::class_<GridGroup> grid_group(m, "GridGroup");
  def_pending_calls(grid_group);
  bind_truncate<GridGroup>(grid_group);
  grid_group.def_prop_ro("name", &GridGroup::name)
      .def_prop_ro("steps", &GridGroup::steps)
      .def_prop_ro("idx_path", &GridGroup::idx_path)
      .def_prop_ro("meta",
                   [](const GridGroup& g) {
                     const GridMeta& m = g.meta();
                     nb::dict d;
                     d["dims"] = nb::make_tuple(m.dims[0], m.dims[1], m.dims[2]);
                     d["ndims"] = m.ndims;
                     nb::list fields;
                     for (const auto& f : m.fields)
                       fields.append(nb::make_tuple(f.name, dtype_name(f.dtype), f.components));
                     d["fields"] = fields;
                     d["bitmask"] = m.bitmask;
                     d["bitmask_derived"] = m.bitmask_derived;
                     d["bits_per_block"] = m.bits_per_block;
                     d["blocks_per_file"] = m.blocks_per_file;
                     d["aggregation"] = m.aggregation;
                     d["partitions"] = m.partitions;
                     d["index_space"] = m.index_space;
                     d["compression"] = m.zip ? "zip" : "none";
                     nb::list steps;
                     for (const auto& s : m.steps) {
                       nb::dict r;
                       r["step"] = s.step;
                       r["files"] = s.files;
                       r["bytes"] = s.bytes;
                       r["writer_ranks"] = s.writer_ranks;
                       steps.append(r);
                     }
                     d["steps"] = steps;
                     return d;
                   })
      .def(
          "write",
          [](GridGroup& g, const GridWrite& r) {
            // Any conversion failure must still reach the collective, or the other ranks wait forever.
            std::vector<Array> arrays;
            std::vector<FieldView> views;
            std::optional<lodex::Error> input_error = r.error;
            try {
              if (!input_error) views = grid_views(r.fields, arrays);
            } catch (...) {   // any exception: this rank still joins the agreement
              input_error = lodex::current_error();
            }
            const GridBox box{r.lo, r.hi};
            nb::gil_scoped_release release;
            // An argument error is raised on every rank. An asynchronous step does not read the arrays
            // after this returns (they are copied or encoded into the group's buffers first).
            if (r.wait) g.write(r.step, box, views, input_error);
            else g.write_async(r.step, box, views, input_error);
          },
          nb::arg("request"))
      .def_prop_ro("profile_json", [](const GridGroup& g) { return g.profile().to_json(); })
      .def("open_step", &GridGroup::open_step, nb::arg("step"))
      .def(
          "read",
          [](const GridGroup& g, const GridRead& r) {
            const std::optional<GridBox> b = grid_box(r.box);
            return grid_read(
                g.meta().ndims, to_comm(r.comm),
                [&](MPI_Comm c, IdxReadStats* s) {   // a joined error: raised on every rank
                  return g.read(r.field, r.step, b, r.resolution, c, s, r.error);
                },
                [&](int rank, int size) { return g.read_part(r.field, r.step, b, r.resolution, rank, size); });
          },
          nb::arg("request"))
      .def_prop_ro("part_datasets",
                   [](const GridGroup& g) {
                     nb::list out;
                     for (const GridPartDataset& p : g.part_datasets())
                       out.append(nb::make_tuple(p.partition, p.box.lo, p.box.hi, p.idx_path));
                     return out;
                   })
      .def(
          "open_parts",
          [](const GridGroup& g, int64_t step) {
            nb::list out;
            for (auto& [p, d] : g.open_parts(step)) out.append(nb::make_tuple(p.box.lo, p.box.hi, std::move(d)));
            return out;
          },
          nb::arg("step"));

  m.def(
      "write_idx",
      [](const std::string& path, const std::array<uint64_t, 3>& dims, int ndims,
         const std::vector<std::tuple<std::string, std::string, uint32_t,
                                      nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>>>& fields,
         const std::string& bitmask, int bits_per_block, int64_t blocks_per_file, bool zip,
         std::optional<std::array<std::string, 3>> time, int64_t step) {
        std::vector<IdxFieldData> fd;
        for (const auto& [name, dtype, comps, arr] : fields) {
          IdxFieldData f;
          f.field.name = name;
          f.field.dtype = parse_dtype(dtype);
          f.field.components = comps;
          uint64_t want = dims[0] * dims[1] * dims[2] * comps * dtype_size(f.field.dtype);
          if (arr.nbytes() != want)
            throw lodex::Error(ErrorCode::kInvalidArgument, "field '" + name + "' has " + std::to_string(arr.nbytes()) +
                                                                " bytes; the grid needs " + std::to_string(want));
          f.data = arr.data();
          fd.push_back(f);
        }
        IdxWriteOptions o;
        o.bitmask = bitmask;
        o.bits_per_block = bits_per_block;
        o.blocks_per_file = blocks_per_file;
        o.zip = zip;
        if (time) o.time = IdxTime{(*time)[0], (*time)[1], (*time)[2]};
        o.step = step;
        nb::gil_scoped_release release;
        return write_idx(path, dims, ndims, fd, o);
      },
      nb::arg("path"), nb::kw_only(), nb::arg("dims"), nb::arg("ndims"), nb::arg("fields"), nb::arg("bitmask"),
      nb::arg("bits_per_block"), nb::arg("blocks_per_file"), nb::arg("zip"), nb::arg("time").none(), nb::arg("step"));
}

void bind_dataset_grids(nb::class_<Dataset>& ds) {
  ds.def("grid_names", &Dataset::grid_names)
      .def("grid", nb::overload_cast<const std::string&>(&Dataset::grid), nb::rv_policy::reference_internal)
      .def(
          "define_grid",
          [](Dataset& ds, const GridDefinition& r) -> GridGroup& {
            std::optional<lodex::Error> input_error = r.error;
            GridSpec spec;
            try {
              spec.dims = r.dims;
              spec.ndims = r.ndims;
              for (const auto& [n, d, c] : r.fields) spec.fields.push_back(FieldSpec{n, parse_dtype(d), c});
              spec.bitmask = r.bitmask;
              spec.bits_per_block = r.bits_per_block;
              spec.blocks_per_file = r.blocks_per_file;
              spec.aggregation = r.aggregation;
              spec.partitions = r.partitions;
              spec.index_space = r.index_space;
              spec.zip = r.zip;
            } catch (...) {   // any exception: this rank still joins the agreement
              if (!input_error) input_error = lodex::current_error();
            }
            nb::gil_scoped_release release;
            return ds.grid(r.name, spec, input_error);   // an input error is raised on every rank
          },
          nb::arg("request"), nb::rv_policy::reference_internal);
}

}  // namespace lodex::py
