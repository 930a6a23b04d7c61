// The lodex extension module: errors, communicators, datasets. Particle groups: particles.cpp.
#include <mpi4py/mpi4py.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/pair.h>

#include "bindings.hpp"
#include "requests.hpp"
#include "pipelines/dataset.hpp"
#include "storage/fault.hpp"
#include "storage/writer_lock.hpp"

namespace lodex::py {

namespace {
PyObject* g_error_classes[9] = {};

PyObject* error_class(ErrorCode code) {
  const int i = static_cast<int>(code);
  PyObject* c = (i >= 0 && i < 9) ? g_error_classes[i] : nullptr;
  if (!c) c = g_error_classes[0];
  return c ? c : PyExc_RuntimeError;
}
ExchangeMethod exchange_method(const std::string& name) {
  if (name == "node") return ExchangeMethod::kNode;
  if (name == "p2p") return ExchangeMethod::kPointToPoint;
  if (name == "shm") return ExchangeMethod::kSharedMemory;
  throw lodex::Error(ErrorCode::kInvalidArgument,
                     "exchange must be \"node\", \"p2p\" or \"shm\", got \"" + name + "\"");
}
}  // namespace

lodex::Error error_of(nb::handle exception) {
  std::string message = "(an error whose message cannot be encoded)";
  const nb::str text = nb::str(exception);
  Py_ssize_t n = 0;
  if (const char* p = PyUnicode_AsUTF8AndSize(text.ptr(), &n)) message.assign(p, static_cast<size_t>(n));
  else PyErr_Clear();
  PyTypeObject* type = Py_TYPE(exception.ptr());
  for (int code = 1; code < 9; ++code)   // the class itself first (an IOFailure is also an OSError) ...
    if (g_error_classes[code] && type == reinterpret_cast<PyTypeObject*>(g_error_classes[code]))
      return lodex::Error(static_cast<ErrorCode>(code), message);
  for (int code = 1; code < 9; ++code)   // ... then a subclass of one (MissingDependencyError)
    if (g_error_classes[code] && PyObject_IsInstance(exception.ptr(), g_error_classes[code]) == 1)
      return lodex::Error(static_cast<ErrorCode>(code), message);
  PyErr_Clear();
  return lodex::Error(ErrorCode::kInternal, message);   // an exception not lodex's
}

MPI_Comm to_comm(nb::handle obj) {
  if (obj.is_none()) return MPI_COMM_NULL;
  // Imported on first use so that a plain `import lodex` never initializes MPI.
  static bool imported = false;
  if (!imported) {
    if (import_mpi4py() < 0) throw nb::python_error();
    imported = true;
  }
  MPI_Comm* comm = PyMPIComm_Get(obj.ptr());
  if (!comm) throw nb::python_error();
  return *comm;
}

}  // namespace lodex::py

NB_MODULE(_lodex, m) {
  using namespace lodex;
  using namespace lodex::py;

  m.def("version", &lodex::version);
  // The fault-injection test hook (storage/fault.hpp): "<op>:<n>:<errno name|short>", or None to
  // disarm; both restart the counts. _fault_counts: operations of each kind since then.
  m.def("_inject_fault", [](std::optional<std::string> spec) {
    if (spec) arm_fault(parse_fault(*spec));
    else disarm_fault();
  });
  m.def("_fault_counts", [] {
    nb::dict out;
    const auto counts = fault_counts();
    for (size_t i = 0; i < kFaultOps; ++i) out[fault_op_name(static_cast<FaultOp>(i))] = counts[i];
    return out;
  });
  // The writer lock (storage/writer_lock.hpp): its holder as a dict (None: no lock), and lodex unlock.
  auto holder_dict = [](const std::optional<LockHolder>& h) -> nb::object {
    if (!h) return nb::none();
    nb::dict d;
    d["host"] = h->host;
    d["pid"] = h->pid;
    d["since"] = h->since;
    d["lodex_version"] = h->version;
    d["dead"] = holder_is_dead(*h);
    return d;
  };
  m.def(
      "_lock_holder", [holder_dict](const std::string& path) { return holder_dict(read_lock_holder(path)); },
      nb::arg("path"));
  m.def(
      "_unlock",
      [holder_dict](const std::string& path, bool force) { return holder_dict(break_writer_lock(path, force)); },
      nb::arg("path"), nb::arg("force") = false);
  bind_requests(m);
  m.def("_set_error_classes", [](nb::dict classes) {
    for (auto [k, v] : classes) {
      const int code = nb::cast<int>(k);
      if (code < 0 || code >= 9) throw nb::value_error("error code out of range");
      Py_XDECREF(g_error_classes[code]);
      Py_INCREF(v.ptr());
      g_error_classes[code] = v.ptr();
    }
  });
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const lodex::Error& e) {
      // Messages may quote bytes of a damaged file: never let decoding them hide the error.
      const std::string what = e.what();
      PyObject* msg = PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "backslashreplace");
      if (msg) {
        PyErr_SetObject(error_class(e.code()), msg);
        Py_DECREF(msg);
      } else {
        PyErr_SetString(error_class(e.code()), "(an error whose message cannot be decoded)");
      }
    }
  });

  nb::class_<Dataset> dataset(m, "Dataset");
  dataset
      .def_static(
          "create",
          [](const std::string& path, nb::handle comm, bool fsync, const std::string& exchange, bool allow_outside,
             std::optional<uint64_t> max_pending_bytes) {
            const DatasetOptions options{fsync, exchange_method(exchange), allow_outside, max_pending_bytes};
            MPI_Comm c = to_comm(comm);
            nb::gil_scoped_release release;
            return Dataset::create(path, c, options);
          },
          nb::arg("path"), nb::kw_only(), nb::arg("comm").none(), nb::arg("fsync") = false,
          nb::arg("exchange") = "node", nb::arg("allow_outside") = false,
          nb::arg("max_pending_bytes").none() = nb::none())
      .def_static(
          "open",
          [](const std::string& path, const std::string& mode, nb::handle comm, bool fsync, const std::string& exchange,
             bool allow_outside, std::optional<uint64_t> max_pending_bytes) {
            if (mode != "r" && mode != "a")
              throw lodex::Error(ErrorCode::kInvalidArgument,
                                 "mode must be \"r\" (read) or \"a\" (append), got \"" + mode + "\"");
            const DatasetOptions options{fsync, exchange_method(exchange), allow_outside, max_pending_bytes};
            MPI_Comm c = to_comm(comm);
            nb::gil_scoped_release release;
            return Dataset::open(path, mode == "a" ? OpenMode::kAppend : OpenMode::kRead, c, options);
          },
          nb::arg("path"), nb::kw_only(), nb::arg("mode"), nb::arg("comm").none(), nb::arg("fsync") = false,
          nb::arg("exchange") = "node", nb::arg("allow_outside") = false,
          nb::arg("max_pending_bytes").none() = nb::none())
      .def_prop_ro("path", &Dataset::path)
      .def_prop_ro("pending_bytes", &Dataset::pending_bytes)
      .def_prop_ro("writable", &Dataset::writable)
      .def_prop_ro("rank", &Dataset::rank)
      .def_prop_ro("size", &Dataset::size)
      .def("particle_group_names", &Dataset::particle_group_names)
      .def("particles", nb::overload_cast<const std::string&>(&Dataset::particles), nb::rv_policy::reference_internal)
      .def(
          "define_particles",
          [](Dataset& ds, const ParticleDefinition& r) -> ParticleGroup& {
            // A definition that fails to build on one rank must still reach the collective.
            std::optional<lodex::Error> input_error = r.error;
            Schema schema;
            PartitionSpec spec;
            try {
              std::vector<FieldSpec> specs;
              for (const auto& [n, d, c] : r.fields) specs.push_back(FieldSpec{n, parse_dtype(d), c});
              spec.mode = parse_partition_mode(r.mode);
              spec.dims = r.dims;
              spec.particles_per_file = r.particles_per_file;
              schema = Schema(specs);
            } catch (...) {   // any exception: this rank still joins the agreement
              if (!input_error) input_error = lodex::current_error();
            }
            const LodParams lod{r.scale, r.level0_max, r.brick_target, r.seed};
            nb::gil_scoped_release release;
            ParticleDomain domain =
                r.auto_domain ? ParticleDomain::auto_domain() : ParticleDomain(Box{r.lo, r.hi}, r.periodic);
            if (r.auto_domain) domain.periodic = r.periodic;   // refused with its own message
            return ds.particles(r.name, schema, domain, spec, lod, input_error);   // raised on every rank
          },
          nb::arg("request"), nb::rv_policy::reference_internal)
      .def("close", [](Dataset& ds) {
        nb::gil_scoped_release release;
        ds.close();
      });

  bind_truncate<Dataset>(dataset);
  bind_particles(m);
  bind_planner(m);
  bind_previews(m);
  bind_grids(m);
  bind_dataset_grids(dataset);
  bind_series(m);
  bind_dataset_series(dataset);
}
