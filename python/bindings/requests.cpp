// The request objects (requests.hpp): keyword-only constructors, read-only fields, join(error).
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <functional>
#include <map>
#include <memory>

#include "requests.hpp"

namespace lodex::py {

namespace {

// Binds request type R: R(**fields) sets the named fields (others keep their defaults; an
// unknown name is a TypeError naming it), each field is a read-only attribute, join(error)
// records the error this rank joins the collective with (and returns the request), and
// `error` is that error as (code, message) or None.
template <typename R>
class RequestClass {
 public:
  RequestClass(nb::module_& m, const char* name, const char* doc) : cls_(m, name, doc) {}

  // A field: its name, its member, and its Python type for the signatures (stubs, help()).
  template <typename T>
  RequestClass& field(const char* name, T R::* member, const char* type) {
    const std::string getter = std::string("def ") + name + "(self, /) -> " + type;
    cls_.def_prop_ro(
        name, [member](const R& r) { return nb::cast(r.*member); }, nb::for_getter(nb::sig(getter.c_str())));
    (*setters_)[name] = [member](R& r, nb::handle v) { r.*member = nb::cast<T>(v); };
    signature_ += std::string(signature_.empty() ? "" : ", ") + name + ": " + type + " = ...";
    return *this;
  }

  void done() {
    auto setters = setters_;
    const std::string type_name = nb::cast<std::string>(cls_.attr("__name__"));
    cls_.def(
        "__init__",
        [setters, type_name](R* self, nb::kwargs kwargs) {
          R r;   // filled first, so that a bad keyword leaves no half-built object
          for (auto [key, value] : kwargs) {
            const std::string k = nb::cast<std::string>(key);
            const auto it = setters->find(k);
            if (it == setters->end())
              throw nb::type_error((type_name + "() got an unexpected keyword '" + k + "'").c_str());
            try {
              it->second(r, value);
            } catch (const nb::cast_error&) {
              throw nb::type_error(
                  (type_name + "(): cannot use " + nb::cast<std::string>(nb::repr(value)) + " as '" + k + "'").c_str());
            }
          }
          new (self) R(std::move(r));
        },
        nb::sig(("def __init__(self, *, " + signature_ + ") -> None").c_str()));
    cls_.def(
        "join",
        [](R& r, nb::handle error) -> R& {
          if (!PyExceptionInstance_Check(error.ptr())) throw nb::type_error("join() takes an exception");
          r.error = error_of(error);
          return r;
        },
        nb::arg("error"), nb::rv_policy::reference,
        nb::sig("def join(self, error: BaseException) -> typing_extensions.Self"));
    cls_.def_prop_ro(
        "error",
        [](const R& r) -> nb::object {
          if (!r.error) return nb::none();
          return nb::make_tuple(static_cast<int>(r.error->code()), std::string(r.error->what()));
        },
        nb::for_getter(nb::sig("def error(self, /) -> tuple[int, str] | None")));
  }

 private:
  nb::class_<R> cls_;
  std::string signature_;   // the keyword-only parameters of __init__
  using Setter = std::function<void(R&, nb::handle)>;
  std::shared_ptr<std::map<std::string, Setter>> setters_ = std::make_shared<std::map<std::string, Setter>>();
};

void bind_definitions(nb::module_& m) {
  RequestClass<ParticleDefinition>(m, "ParticleDefinition", "Dataset.define_particles's request.")
      .field("name", &ParticleDefinition::name, "str")
      .field("fields", &ParticleDefinition::fields, "Sequence[tuple[str, str, int]]")
      .field("lo", &ParticleDefinition::lo, "Sequence[float]")
      .field("hi", &ParticleDefinition::hi, "Sequence[float]")
      .field("mode", &ParticleDefinition::mode, "str")
      .field("dims", &ParticleDefinition::dims, "Sequence[int]")
      .field("particles_per_file", &ParticleDefinition::particles_per_file, "int")
      .field("scale", &ParticleDefinition::scale, "int")
      .field("level0_max", &ParticleDefinition::level0_max, "int")
      .field("brick_target", &ParticleDefinition::brick_target, "int")
      .field("seed", &ParticleDefinition::seed, "int")
      .field("periodic", &ParticleDefinition::periodic, "Sequence[bool]")
      .field("auto_domain", &ParticleDefinition::auto_domain, "bool")
      .done();
  RequestClass<GridDefinition>(m, "GridDefinition", "Dataset.define_grid's request.")
      .field("name", &GridDefinition::name, "str")
      .field("dims", &GridDefinition::dims, "Sequence[int]")
      .field("ndims", &GridDefinition::ndims, "int")
      .field("fields", &GridDefinition::fields, "Sequence[tuple[str, str, int]]")
      .field("bitmask", &GridDefinition::bitmask, "str")
      .field("bits_per_block", &GridDefinition::bits_per_block, "int")
      .field("blocks_per_file", &GridDefinition::blocks_per_file, "int")
      .field("aggregation", &GridDefinition::aggregation, "str")
      .field("partitions", &GridDefinition::partitions, "int")
      .field("index_space", &GridDefinition::index_space, "str")
      .field("zip", &GridDefinition::zip, "bool")
      .done();
  RequestClass<SeriesDefinition>(m, "SeriesDefinition", "Dataset.define_series's request.")
      .field("name", &SeriesDefinition::name, "str")
      .field("dims", &SeriesDefinition::dims, "Sequence[int]")
      .field("variables", &SeriesDefinition::variables, "Sequence[tuple[str, str, int]]")
      .field("memory_budget", &SeriesDefinition::memory_budget, "int")
      .field("d_tar", &SeriesDefinition::d_tar, "int")
      .field("d_sar", &SeriesDefinition::d_sar, "int")
      .field("bw_io", &SeriesDefinition::bw_io, "float")
      .field("cc", &SeriesDefinition::cc, "float")
      .field("ts", &SeriesDefinition::ts, "float")
      .field("max_window_steps", &SeriesDefinition::max_window_steps, "int")
      .field("max_window_seconds", &SeriesDefinition::max_window_seconds, "float")
      .done();
}

void bind_writes(nb::module_& m) {
  RequestClass<ParticleWrite>(m, "ParticleWrite", "ParticleGroup.write's request.")
      .field("step", &ParticleWrite::step, "int")
      .field("fields", &ParticleWrite::fields, "Sequence[tuple[str, object]]")
      .field("patch", &ParticleWrite::patch, "tuple[Sequence[float], Sequence[float]] | None")
      .field("wait", &ParticleWrite::wait, "bool")
      .field("copy", &ParticleWrite::copy, "bool")
      .done();
  RequestClass<ParticleBuffers>(m, "ParticleBuffers", "ParticleGroup.buffers's request.")
      .field("step", &ParticleBuffers::step, "int")
      .field("count", &ParticleBuffers::count, "int")
      .field("patch", &ParticleBuffers::patch, "tuple[Sequence[float], Sequence[float]] | None")
      .field("positions", &ParticleBuffers::positions, "str")
      .done();
  RequestClass<BuffersCommit>(m, "BuffersCommit", "The commit of ParticleGroup.buffers's step.")
      .field("wait", &BuffersCommit::wait, "bool")
      .done();
  RequestClass<GridWrite>(m, "GridWrite", "GridGroup.write's request.")
      .field("step", &GridWrite::step, "int")
      .field("lo", &GridWrite::lo, "Sequence[int]")
      .field("hi", &GridWrite::hi, "Sequence[int]")
      .field("fields", &GridWrite::fields, "Sequence[tuple[str, object, int]]")
      .field("wait", &GridWrite::wait, "bool")
      .done();
  RequestClass<SeriesWrite>(m, "SeriesWrite", "SeriesGroup.write's request.")
      .field("step", &SeriesWrite::step, "int")
      .field("lo", &SeriesWrite::lo, "Sequence[int]")
      .field("hi", &SeriesWrite::hi, "Sequence[int]")
      .field("data", &SeriesWrite::data, "Sequence[tuple[str, object]]")
      .field("wait", &SeriesWrite::wait, "bool")
      .done();
  RequestClass<IndexBuild>(m, "IndexBuild", "ParticleGroup.build_index's request.")
      .field("fields", &IndexBuild::fields, "Sequence[str]")
      .field("binning", &IndexBuild::binning, "str")
      .field("param", &IndexBuild::param, "int")
      .field("steps", &IndexBuild::steps, "Sequence[int]")
      .done();
  RequestClass<Truncate>(m, "Truncate", "truncate's request (a group's or the dataset's).")
      .field("after", &Truncate::after, "int")
      .done();
}

void bind_reads(nb::module_& m) {
  RequestClass<ParticleRead>(m, "ParticleRead", "ParticleGroup.read's and refine's request.")
      .field("step", &ParticleRead::step, "int")
      .field("box", &ParticleRead::box, "tuple[Sequence[float], Sequence[float]] | None")
      .field("fields", &ParticleRead::fields, "Sequence[str]")
      .field("level", &ParticleRead::level, "int | None")
      .field("fraction", &ParticleRead::fraction, "float | None")
      .field("readers", &ParticleRead::readers, "int")
      .field("P", &ParticleRead::P, "int")
      .field("S", &ParticleRead::S, "float")
      .field("split", &ParticleRead::split, "str")
      .field("comm", &ParticleRead::comm, "object")
      .done();
  RequestClass<ParticleQuery>(m, "ParticleQuery", "ParticleGroup.query's request.")
      .field("step", &ParticleQuery::step, "int")
      .field("text", &ParticleQuery::text, "str")
      .field("box", &ParticleQuery::box, "tuple[Sequence[float], Sequence[float]] | None")
      .field("level", &ParticleQuery::level, "int | None")
      .field("readers", &ParticleQuery::readers, "int")
      .field("P", &ParticleQuery::P, "int")
      .field("S", &ParticleQuery::S, "float")
      .field("fields", &ParticleQuery::fields, "Sequence[str]")
      .field("rows", &ParticleQuery::rows, "bool")
      .field("use_index", &ParticleQuery::use_index, "bool")
      .field("comm", &ParticleQuery::comm, "object")
      .done();
  RequestClass<GridRead>(m, "GridRead", "GridGroup.read's and IdxDataset.read's request.")
      .field("field", &GridRead::field, "str")
      .field("step", &GridRead::step, "int")
      .field("box", &GridRead::box, "Sequence[Sequence[int]] | None")
      .field("resolution", &GridRead::resolution, "int | None")
      .field("comm", &GridRead::comm, "object")
      .done();
  RequestClass<SeriesRead>(m, "SeriesRead", "SeriesGroup.read's request.")
      .field("variable", &SeriesRead::variable, "str")
      .field("steps", &SeriesRead::steps, "Sequence[int]")
      .field("box", &SeriesRead::box, "Sequence[Sequence[int]] | None")
      .field("merge_gap", &SeriesRead::merge_gap, "int | None")
      .field("comm", &SeriesRead::comm, "object")
      .done();
}

}  // namespace

void bind_requests(nb::module_& m) {
  bind_definitions(m);
  bind_writes(m);
  bind_reads(m);
}

}  // namespace lodex::py
