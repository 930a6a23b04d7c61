// Series (pipelines/series/series_group.hpp): Dataset.define_series / series, SeriesGroup.
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "format/manifest.hpp"
#include "pipelines/series/series_group.hpp"

namespace lodex::py {

namespace {

nb::dict stats_dict(const SeriesReadStats& s) {
  nb::dict d;
  d["windows"] = s.windows;
  d["chunks"] = s.chunks;
  d["blocks"] = s.blocks;
  d["requests"] = s.requests;
  d["head_requests"] = s.head_requests;
  d["checksum_requests"] = s.checksum_requests;
  d["bytes_read"] = s.bytes_read;
  d["head_bytes"] = s.head_bytes;
  d["checksum_bytes"] = s.checksum_bytes;
  d["merge_gap"] = s.merge_gap;
  d["bytes_returned"] = s.bytes_returned;
  d["seconds"] = s.seconds;
  return d;
}

// Views of a series block's arrays (variable, array); `arrays` keeps them alive.
std::vector<FieldView> series_views(const std::vector<std::pair<std::string, nb::object>>& data,
                                    std::vector<Array>& arrays) {
  std::vector<FieldView> views;
  for (const auto& [name, obj] : data) {
    FieldView v = array_view(name, obj, arrays);
    v.rows = arrays.back().size();
    views.push_back(v);
  }
  return views;
}

nb::dict meta_dict(const SeriesGroup& g) {
  const SeriesMeta& m = g.meta();
  nb::dict d;
  d["dims"] = nb::make_tuple(m.dims[0], m.dims[1], m.dims[2]);
  nb::dict vars;
  for (const auto& v : m.variables) vars[v.name.c_str()] = nb::make_tuple(dtype_name(v.dtype), v.ndim);
  d["variables"] = vars;
  const StarSettings& s = m.settings;
  nb::dict st;
  st["memory_budget"] = s.memory_budget;
  st["d_tar"] = s.d_tar;
  st["d_sar"] = s.d_sar;
  st["bw_io"] = s.bw_io;
  st["cc"] = s.cc;
  st["ts"] = s.ts;
  st["max_window_steps"] = s.max_window_steps;
  st["max_window_seconds"] = s.max_window_seconds;
  d["settings"] = st;
  d["planned"] = m.planned();
  if (m.planned()) {
    d["cuts"] = nb::make_tuple(m.cuts[0], m.cuts[1], m.cuts[2]);
    d["d_tar"] = m.d_tar;
    d["d_sar"] = m.d_sar;
    d["opt_size"] = m.opt_size;
    d["chunk_bytes"] = m.chunk_bytes;
    d["reason"] = m.reason;
    d["writer_ranks"] = m.writer_ranks;
  }
  nb::list windows;
  for (const auto& w : m.windows) {
    nb::dict r;
    r["file"] = w.file;
    r["steps"] = w.steps;
    r["bytes"] = w.bytes;
    windows.append(r);
  }
  d["windows"] = windows;
  return d;
}

}  // namespace

void bind_series(nb::module_& m) {
  nb::class_<SeriesGroup> series_group(m, "SeriesGroup");
  def_pending_calls(series_group);
  bind_truncate<SeriesGroup>(series_group);
  series_group.def_prop_ro("name", &SeriesGroup::name)
      .def_prop_ro("steps", &SeriesGroup::steps)
      .def_prop_ro("buffered_steps", &SeriesGroup::buffered_steps)
      .def_prop_ro("planned_choice",
                   [](const SeriesGroup& g) -> nb::object {
                     const StarChoice* c = g.planned_choice();
                     if (!c) return nb::none();
                     nb::dict d;
                     d["d_tar"] = c->d_tar;
                     d["d_sar"] = c->d_sar;
                     d["opt_size"] = c->opt_size;
                     d["chunk_bytes"] = c->chunk_bytes;
                     d["reason"] = c->reason;
                     return d;
                   })
      .def_prop_ro("meta", &meta_dict)
      .def(
          "write",
          [](SeriesGroup& g, const SeriesWrite& r) {
            // A conversion failure must still reach the collective, or the other ranks wait forever.
            std::vector<Array> arrays;
            std::vector<FieldView> views;
            std::optional<lodex::Error> input_error = r.error;
            try {
              if (!input_error) views = series_views(r.data, arrays);
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
      .def("flush",
           [](SeriesGroup& g) {
             nb::gil_scoped_release release;
             g.flush();
           })
      .def_prop_ro("profile_json", [](const SeriesGroup& g) { return g.profile().to_json(); })
      .def(
          "read",
          [](const SeriesGroup& g, const SeriesRead& r) {
            std::optional<GridBox> b;
            if (r.box) b = GridBox{(*r.box)[0], (*r.box)[1]};
            const MPI_Comm c = to_comm(r.comm);
            SeriesArray a;
            SeriesReadPart p;
            {
              nb::gil_scoped_release release;
              a = g.read(r.variable, r.steps, b, r.merge_gap, c, r.error);   // a joined error: raised on every rank
              const auto [rank, size] = rank_and_size(c);
              p = g.read_part(r.variable, r.steps, b, rank, size);   // the part just read: cannot fail
            }
            size_t shape[4] = {a.shape[0], a.shape[1], a.shape[2], a.shape[3]};
            const DType t = a.dtype;
            uint8_t* data = a.bytes.release();
            nb::capsule owner(data, [](void* q) noexcept { std::free(q); });
            // The array (steps, z, y, x) and this rank's part: (steps, lo, hi).
            return nb::make_tuple(nb::ndarray<nb::numpy>(data, 4, shape, owner, nullptr, dlpack_of(t)),
                                  nb::make_tuple(p.steps, p.box.lo, p.box.hi));
          },
          nb::arg("request"))
      .def_prop_ro("default_merge_gap", &SeriesGroup::default_merge_gap)
      .def_prop_ro("last_read_stats", [](const SeriesGroup& g) { return stats_dict(g.last_read_stats()); });
}

void bind_dataset_series(nb::class_<Dataset>& ds) {
  ds.def("series_names", &Dataset::series_names)
      .def("series", nb::overload_cast<const std::string&>(&Dataset::series), nb::rv_policy::reference_internal)
      .def(
          "define_series",
          [](Dataset& ds, const SeriesDefinition& r) -> SeriesGroup& {
            std::optional<lodex::Error> input_error = r.error;
            SeriesSpec spec;
            spec.dims = r.dims;
            try {
              for (const auto& [n, d, k] : r.variables) spec.variables.push_back(SeriesVariable{n, parse_dtype(d), k});
            } catch (...) {   // any exception: this rank still joins the agreement
              if (!input_error) input_error = lodex::current_error();
            }
            StarSettings& st = spec.settings;
            st.memory_budget = r.memory_budget;
            st.d_tar = r.d_tar;
            st.d_sar = r.d_sar;
            st.bw_io = r.bw_io;
            st.cc = r.cc;
            st.ts = r.ts;
            st.max_window_steps = r.max_window_steps;
            st.max_window_seconds = r.max_window_seconds;
            nb::gil_scoped_release release;
            return ds.series(r.name, spec, input_error);   // an input error is raised on every rank
          },
          nb::arg("request"), nb::rv_policy::reference_internal);
}

}  // namespace lodex::py
