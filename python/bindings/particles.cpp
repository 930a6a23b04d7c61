// Particle groups: numpy arrays in and out, without copies on the way in.
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/unique_ptr.h>

#include <cstdlib>

#include "bindings.hpp"
#include "pipelines/dataset.hpp"

namespace lodex::py {

Array as_array(nb::handle obj, const std::string& field) {
  Array a;
  if (!nb::try_cast(obj, a))
    throw lodex::Error(ErrorCode::kInvalidArgument,
                       "field '" + field + "' must be a numeric numpy array in native byte order");
  return a;
}

FieldView array_view(const std::string& name, nb::handle obj, std::vector<Array>& arrays) {
  arrays.push_back(as_array(obj, name));
  FieldView v;
  v.name = name;
  v.dtype = dtype_of(arrays.back(), name);
  v.data = arrays.back().data();
  return v;
}

DType dtype_of(const Array& a, const std::string& field) {
  const nb::dlpack::dtype t = a.dtype();
  const auto code = static_cast<nb::dlpack::dtype_code>(t.code);
  if (t.lanes == 1) {
    if (code == nb::dlpack::dtype_code::Float && t.bits == 32) return DType::kF4;
    if (code == nb::dlpack::dtype_code::Float && t.bits == 64) return DType::kF8;
    if (code == nb::dlpack::dtype_code::Int) {
      switch (t.bits) {
        case 8: return DType::kI1;
        case 16: return DType::kI2;
        case 32: return DType::kI4;
        case 64: return DType::kI8;
      }
    }
    if (code == nb::dlpack::dtype_code::UInt) {
      switch (t.bits) {
        case 8: return DType::kU1;
        case 16: return DType::kU2;
        case 32: return DType::kU4;
        case 64: return DType::kU8;
      }
    }
  }
  throw lodex::Error(ErrorCode::kInvalidArgument, "field '" + field + "' has an unsupported numpy dtype");
}

namespace {

// Result columns as numpy arrays that own the read's buffers (no copy).
nb::dict columns_dict(std::vector<FieldColumn>& cols) {
  nb::dict out;
  for (auto& c : cols) {
    uint8_t* data = c.bytes.release();
    nb::capsule owner(data, [](void* p) noexcept { std::free(p); });
    size_t shape[2] = {static_cast<size_t>(c.rows), c.spec.components};
    const size_t ndim = c.spec.components == 1 ? 1 : 2;
    out[c.spec.name.c_str()] = nb::ndarray<nb::numpy>(data, ndim, shape, owner, nullptr, dlpack_of(c.spec.dtype));
  }
  return out;
}

nb::dict stats_dict(const ReadStats& s) {
  nb::dict d;
  d["files_opened"] = s.files_opened;
  d["bytes_read"] = s.bytes_read;
  d["bytes_returned"] = s.bytes_returned;
  d["particles"] = s.particles;
  d["metadata_bytes"] = s.metadata_bytes;
  d["head_bytes"] = s.head_bytes;
  d["requests"] = s.requests;
  d["candidates"] = s.candidates;
  d["levels"] = s.levels;
  d["seconds"] = s.seconds;
  return d;
}

// The engine's read request of a particle read (refine passes no level nor fraction).
ReadRequest request(const ParticleRead& p, std::optional<uint32_t> level, std::optional<double> fraction) {
  ReadRequest r;
  if (p.box) r.box = Box{p.box->first, p.box->second};
  r.fields = p.fields;
  r.level = level;
  r.fraction = fraction;
  r.lod = LodRequest{p.readers, p.P, p.S};
  if (p.split == "spatial") r.split = ReadSplit::kSpatial;
  else if (p.split == "bytes") r.split = ReadSplit::kBytes;
  else throw lodex::Error(ErrorCode::kInvalidArgument, "split must be 'spatial' or 'bytes', got '" + p.split + "'");
  return r;
}

// Views of a particle step's arrays ((n,) or (n, components)); `arrays` keeps them alive.
std::vector<FieldView> particle_views(const std::vector<std::pair<std::string, nb::object>>& fields,
                                      std::vector<Array>& arrays) {
  std::vector<FieldView> views;
  for (const auto& [name, obj] : fields) {
    FieldView v = array_view(name, obj, arrays);
    const Array& a = arrays.back();
    if (a.ndim() != 1 && a.ndim() != 2)
      throw lodex::Error(ErrorCode::kInvalidArgument, "field '" + name +
                                                          "' must be a 1-D (n,) or 2-D (n, components) array, got " +
                                                          std::to_string(a.ndim()) + " dimensions");
    v.rows = a.shape(0);
    v.components = a.ndim() == 1 ? 1 : static_cast<uint32_t>(a.shape(1));
    views.push_back(v);
  }
  return views;
}

// A value query's result for Python: the count, the matching rows per file (no copy), the
// matches' fields, notes and statistics.
nb::dict query_dict(ValueQueryResult& result) {
  nb::dict out;
  out["count"] = result.count;
  out["local_count"] = result.local_count;
  nb::list files;
  for (auto& f : result.files) {
    auto* rows_vec = new std::vector<uint32_t>(std::move(f.rows));
    nb::capsule owner(rows_vec, [](void* p) noexcept { delete static_cast<std::vector<uint32_t>*>(p); });
    size_t shape[1] = {rows_vec->size()};
    files.append(nb::make_tuple(f.file, nb::ndarray<nb::numpy, uint32_t>(rows_vec->data(), 1, shape, owner)));
  }
  out["files"] = files;
  out["data"] = columns_dict(result.columns);
  nb::list notes;   // a note may quote bytes of a damaged file (an index's field name)
  for (const std::string& n : result.notes)
    notes.append(nb::steal(PyUnicode_DecodeUTF8(n.data(), static_cast<Py_ssize_t>(n.size()), "backslashreplace")));
  out["notes"] = notes;
  const ValueQueryStats& s = result.stats;
  nb::dict st;
  st["files"] = s.files;
  st["files_pruned"] = s.files_pruned;
  st["files_indexed"] = s.files_indexed;
  st["files_scanned"] = s.files_scanned;
  st["rows_checked"] = s.rows_checked;
  st["sure_rows"] = s.sure_rows;
  st["index_bytes"] = s.index_bytes;
  st["data_bytes"] = s.data_bytes;
  st["requests"] = s.requests;
  st["seconds"] = s.seconds;
  st["index_s"] = s.index_s;
  st["check_s"] = s.check_s;
  st["data_s"] = s.data_s;
  out["stats"] = st;
  return out;
}

nb::dict box_dict(const Box& b) {
  nb::dict d;
  d["min"] = nb::make_tuple(b.inclusive_min[0], b.inclusive_min[1], b.inclusive_min[2]);
  d["max"] = nb::make_tuple(b.exclusive_max[0], b.exclusive_max[1], b.exclusive_max[2]);
  return d;
}
}  // namespace

nb::dlpack::dtype dlpack_of(DType t) {
  switch (t) {
    case DType::kF4: return nb::dtype<float>();
    case DType::kF8: return nb::dtype<double>();
    case DType::kI1: return nb::dtype<int8_t>();
    case DType::kU1: return nb::dtype<uint8_t>();
    case DType::kI2: return nb::dtype<int16_t>();
    case DType::kU2: return nb::dtype<uint16_t>();
    case DType::kI4: return nb::dtype<int32_t>();
    case DType::kU4: return nb::dtype<uint32_t>();
    case DType::kI8: return nb::dtype<int64_t>();
    case DType::kU8: return nb::dtype<uint64_t>();
  }
  return nb::dtype<uint8_t>();
}

static nb::tuple box_tuple(const Box& b) {
  return nb::make_tuple(nb::make_tuple(b.inclusive_min[0], b.inclusive_min[1], b.inclusive_min[2]),
                        nb::make_tuple(b.exclusive_max[0], b.exclusive_max[1], b.exclusive_max[2]));
}

void bind_particles(nb::module_& m) {
  nb::class_<ParticleGroup> particle_group(m, "ParticleGroup");
  def_pending_calls(particle_group);
  bind_truncate<ParticleGroup>(particle_group);
  bind_buffers(m, particle_group);
  particle_group.def_prop_ro("name", &ParticleGroup::name)
      .def_prop_ro("schema",
                   [](const ParticleGroup& g) {
                     nb::list out;
                     for (const auto& f : g.schema().fields())
                       out.append(nb::make_tuple(f.name, dtype_name(f.dtype), f.components));
                     return out;
                   })
      .def_prop_ro("domain", [](const ParticleGroup& g) { return box_tuple(g.domain()); })
      .def("step_domain", [](const ParticleGroup& g, int64_t step) { return box_tuple(g.step_domain(step)); })
      .def_prop_ro("auto_domain", &ParticleGroup::auto_domain)
      .def_prop_ro("periodic",
                   [](const ParticleGroup& g) {
                     const Periodic& p = g.periodic();
                     return nb::make_tuple(p[0], p[1], p[2]);
                   })
      .def_prop_ro("partition",
                   [](const ParticleGroup& g) {
                     const PartitionSpec& p = g.partition();
                     return nb::make_tuple(partition_mode_name(p.mode), nb::make_tuple(p.dims[0], p.dims[1], p.dims[2]),
                                           p.particles_per_file);
                   })
      .def_prop_ro("steps", &ParticleGroup::steps)
      .def(
          "write",
          [](ParticleGroup& g, const ParticleWrite& r) {
            // Any conversion failure must still reach the collective, or the other ranks wait forever.
            std::vector<Array> arrays;
            std::vector<FieldView> views;
            std::optional<lodex::Error> input_error = r.error;
            try {
              if (!input_error) views = particle_views(r.fields, arrays);
            } catch (...) {   // any exception: this rank still joins the agreement
              input_error = lodex::current_error();
            }
            std::optional<Box> pb;
            if (r.patch) pb = Box{r.patch->first, r.patch->second};
            nb::gil_scoped_release release;
            // An argument error is raised on every rank. An asynchronous step reads the arrays
            // after this returns only without copy; the Python caller keeps them alive then.
            if (r.wait) g.write(r.step, views, pb, input_error);
            else g.write_async(r.step, views, pb, r.copy, input_error);
          },
          nb::arg("request"))
      .def_prop_ro("profile_json", [](const ParticleGroup& g) { return g.profile().to_json(); })
      .def(
          "read",
          [](const ParticleGroup& g, const ParticleRead& r) {
            std::optional<lodex::Error> input_error = r.error;   // raised on every rank
            ReadRequest q;
            try {
              if (!input_error) q = request(r, r.level, r.fraction);
            } catch (...) {   // any exception: this rank still joins the agreement
              input_error = lodex::current_error();
            }
            const MPI_Comm c = to_comm(r.comm);
            std::vector<FieldColumn> cols;
            {
              nb::gil_scoped_release release;
              cols = g.read(r.step, q, c, input_error);
            }
            return columns_dict(cols);
          },
          nb::arg("request"))
      .def(
          "spatial_split",
          [](const ParticleGroup& g, int64_t step,
             std::optional<std::pair<std::array<double, 3>, std::array<double, 3>>> box, uint32_t readers) {
            std::optional<Box> q;
            if (box) q = Box{box->first, box->second};
            nb::list out;
            for (const Box& b : g.spatial_split(step, q, readers))
              out.append(nb::make_tuple(nb::make_tuple(b.inclusive_min[0], b.inclusive_min[1], b.inclusive_min[2]),
                                        nb::make_tuple(b.exclusive_max[0], b.exclusive_max[1], b.exclusive_max[2])));
            return out;
          },
          nb::arg("step"), nb::arg("box").none(), nb::arg("readers"))
      .def(
          "refine",
          [](const ParticleGroup& g, const ParticleRead& r) {
            std::optional<lodex::Error> input_error = r.error;   // raised on every rank
            ReadRequest q;
            try {
              if (!input_error) q = request(r, std::nullopt, std::nullopt);
            } catch (...) {   // any exception: this rank still joins the agreement
              input_error = lodex::current_error();
            }
            const MPI_Comm c = to_comm(r.comm);
            nb::gil_scoped_release release;
            return g.refine(r.step, q, c, input_error);
          },
          nb::arg("request"))
      .def(
          "build_index",
          [](ParticleGroup& g, const IndexBuild& r) {
            IndexSpec spec;
            spec.fields = r.fields;
            std::optional<lodex::Error> input_error = r.error;
            if (r.binning == "precision") spec.binning = {Binning::kPrecision, r.param};
            else if (r.binning == "equal_weight") spec.binning = {Binning::kEqualWeight, r.param};
            else if (!input_error)
              input_error = lodex::Error(ErrorCode::kInvalidArgument, "binning must be 'precision' or 'equal_weight'");
            nb::gil_scoped_release release;
            return g.build_index(spec, r.steps, input_error).to_json();
          },
          nb::arg("request"))
      .def(
          "query",
          [](const ParticleGroup& g, const ParticleQuery& r) {
            ValueQuery q;
            q.text = r.text;
            if (r.box) q.box = Box{r.box->first, r.box->second};
            q.level = r.level;
            q.lod = LodRequest{r.readers, r.P, r.S};
            q.fields = r.fields;
            q.rows = r.rows;
            q.use_index = r.use_index;
            const MPI_Comm c = to_comm(r.comm);
            ValueQueryResult result;
            {
              nb::gil_scoped_release release;
              result = g.query(r.step, q, c, r.error);   // a joined error: raised on every rank
            }
            return query_dict(result);
          },
          nb::arg("request"))
      .def(
          "sample_difference",
          [](const ParticleGroup& g, int64_t step, const PointBox& box, uint64_t take,
             const std::vector<std::tuple<PointBox, uint64_t, std::optional<PointBox>>>& held,
             const std::vector<std::string>& fields, double S, bool count_sample) {
            SampleDifference d;
            d.box = Box{box.first, box.second};
            d.take = take;
            d.S = S;
            d.fields = fields;
            d.count_sample = count_sample;
            for (const auto& [b, t, clip] : held) {
              HeldSample h{Box{b.first, b.second}, t, std::nullopt};
              if (clip) h.clip = Box{clip->first, clip->second};
              d.held.push_back(h);
            }
            SampleDifferenceResult result;
            {
              nb::gil_scoped_release release;
              result = g.sample_difference(step, d);
            }
            nb::dict out = query_dict(result.answer);
            out["sample"] = result.sample ? nb::cast(*result.sample) : nb::none();
            return out;
          },
          nb::arg("step"), nb::arg("box"), nb::arg("take"), nb::kw_only(), nb::arg("held"), nb::arg("fields"),
          nb::arg("S"), nb::arg("count_sample"))
      .def(
          "indexes",
          [](const ParticleGroup& g, int64_t step) {
            nb::list out;
            for (const StepIndex& x : g.indexes(step)) {
              nb::dict d;
              d["field"] = x.field;
              d["binning"] = x.binning.kind == Binning::kPrecision ? "precision" : "equal_weight";
              d[x.binning.kind == Binning::kPrecision ? "precision" : "bins"] = x.binning.param;
              d["bytes"] = x.bytes;
              out.append(d);
            }
            return out;
          },
          nb::arg("step"))
      .def(
          "metadata",
          [](const ParticleGroup& g, int64_t step) {
            const SpatialMetadata meta = g.metadata(step);
            nb::list out;
            for (const auto& f : meta.files) {
              nb::dict d;
              d["file"] = f.file_name;
              d["partition"] = f.partition;
              d["aggregator_rank"] = f.aggregator_rank;
              d["partition_box"] = box_dict(f.partition_box);
              d["bounds"] = box_dict(f.bounds);
              d["count"] = f.count;
              d["file_bytes"] = f.file_bytes;
              d["head_checksum"] = f.head_checksum;
              d["min"] = f.min;
              d["max"] = f.max;
              out.append(d);
            }
            return out;
          },
          nb::arg("step"))
      .def_prop_ro("last_read_stats", [](const ParticleGroup& g) { return stats_dict(g.last_read_stats()); });

  nb::class_<Refinement>(m, "Refinement")
      .def_prop_ro("levels", &Refinement::levels)
      .def_prop_ro("next_level", &Refinement::next_level)
      .def_prop_ro("done", &Refinement::done)
      .def("next",
           [](Refinement& r) {
             std::vector<FieldColumn> cols;
             {
               nb::gil_scoped_release release;
               cols = r.next();
             }
             return columns_dict(cols);
           })
      .def_prop_ro("last_read_stats", [](const Refinement& r) { return stats_dict(r.last_read_stats()); });
}

}  // namespace lodex::py
