// IDX grids: lodex.open_idx (serial reads of any IDX dataset, include/lodex/idx.hpp).
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "lodex/idx.hpp"

namespace lodex::py {


void bind_grids(nb::module_& m) {
  nb::class_<IdxDataset>(m, "IdxDataset")
      .def_prop_ro("path", &IdxDataset::path)
      .def_prop_ro("max_resolution", &IdxDataset::max_resolution)
      .def_prop_ro("bitmask", [](const IdxDataset& d) { return d.header().bits; })
      .def_prop_ro("bits_per_block", [](const IdxDataset& d) { return d.header().bits_per_block; })
      .def_prop_ro("blocks_per_file", [](const IdxDataset& d) { return d.header().blocks_per_file; })
      .def_prop_ro("ndims", [](const IdxDataset& d) { return d.header().ndims; })
      .def_prop_ro("box", [](const IdxDataset& d) {
        return std::array<std::array<int64_t, 3>, 2>{d.header().box_min, d.header().box_max};
      })
      .def_prop_ro("time", [](const IdxDataset& d) -> std::optional<std::array<std::string, 3>> {
        if (!d.header().time) return std::nullopt;
        return std::array<std::string, 3>{d.header().time->first, d.header().time->last, d.header().time->pattern};
      })
      .def_prop_ro("fields",
                   [](const IdxDataset& d) {
                     std::vector<std::tuple<std::string, std::string, uint32_t>> out;
                     for (const auto& f : d.header().fields) out.emplace_back(f.name, dtype_name(f.dtype), f.components);
                     return out;
                   })
      .def(
          "read",
          [](const IdxDataset& d, const std::string& field, int64_t time,
             std::optional<std::array<std::array<int64_t, 3>, 2>> box, std::optional<int> resolution) {
            IdxReadStats stats;
            GridArray a;
            {
              nb::gil_scoped_release release;
              a = d.read(field, time, box, resolution, &stats);
            }
            // numpy (z, y, x[, c]) for 3-D, (y, x[, c]) for 2-D, (x[, c]) for 1-D.
            size_t shape[4];
            size_t ndim = 0;
            for (int ax = d.header().ndims - 1; ax >= 0; --ax) shape[ndim++] = a.shape[ax];
            if (a.components > 1) shape[ndim++] = a.components;
            const DType t = a.dtype;
            uint8_t* data = a.bytes.release();
            nb::capsule owner(data, [](void* p) noexcept { std::free(p); });
            nb::dict s;
            s["files_opened"] = stats.files_opened;
            s["blocks_read"] = stats.blocks_read;
            s["bytes_read"] = stats.bytes_read;
            s["bytes_returned"] = stats.bytes_returned;
            return nb::make_tuple(nb::ndarray<nb::numpy>(data, ndim, shape, owner, nullptr, dlpack_of(t)), s);
          },
          nb::arg("field"), nb::arg("time"), nb::arg("box").none(), nb::arg("resolution").none());
  m.def("open_idx", &IdxDataset::open, nb::arg("path"));
  m.def(
      "write_idx",
      [](const std::string& path, const std::array<uint64_t, 3>& dims, int ndims,
         const std::vector<std::tuple<std::string, std::string, uint32_t, nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>>>&
             fields,
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
      nb::arg("path"), nb::arg("dims"), nb::arg("ndims"), nb::arg("fields"), nb::arg("bitmask"),
      nb::arg("bits_per_block"), nb::arg("blocks_per_file"), nb::arg("zip"), nb::arg("time").none(), nb::arg("step"));
}

}  // namespace lodex::py
