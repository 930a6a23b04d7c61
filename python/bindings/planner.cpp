// The pure aggregation planner (layout/particle_plan.hpp) on simulated ranks: what a write by
// those ranks would do, without MPI or files. For benchmarks and tests at rank counts this
// machine cannot run (lodex.plan_write).
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <chrono>

#include "bindings.hpp"
#include "core/error.hpp"
#include "layout/particle_plan.hpp"

namespace lodex::py {

namespace {
template <typename T>
using In = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

struct PlanPreview {
  ParticlePlan plan;
  double seconds = 0;
};

nb::ndarray<nb::numpy, double> boxes_array(const std::vector<Box>& boxes) {
  auto* data = new double[boxes.size() * 6 + 1];
  for (size_t i = 0; i < boxes.size(); ++i)
    for (int a = 0; a < 3; ++a) {
      data[6 * i + a] = boxes[i].inclusive_min[a];
      data[6 * i + 3 + a] = boxes[i].exclusive_max[a];
    }
  nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<double*>(p); });
  return nb::ndarray<nb::numpy, double>(data, {boxes.size(), 6}, owner);
}
}  // namespace

void bind_planner(nb::module_& m) {
  nb::class_<PlanPreview>(m, "PlanPreview")
      .def_prop_ro("num_partitions", [](const PlanPreview& p) { return p.plan.num_partitions(); })
      .def_prop_ro("num_aggregators", [](const PlanPreview& p) { return p.plan.num_aggregators(); })
      .def_prop_ro("aligned", [](const PlanPreview& p) { return p.plan.aligned; })
      .def_prop_ro("seconds", [](const PlanPreview& p) { return p.seconds; })
      // The arrays own their memory: returned by value (def_prop_ro defaults to reference_internal).
      .def_prop_ro(
          "partitions", [](const PlanPreview& p) { return boxes_array(p.plan.partitions); }, nb::rv_policy::move)
      .def_prop_ro(
          "tiles",
          [](const PlanPreview& p) { return boxes_array(p.plan.tiles.empty() ? p.plan.partitions : p.plan.tiles); },
          nb::rv_policy::move)
      .def_prop_ro("aggregators", [](const PlanPreview& p) { return p.plan.aggregator; })
      .def("sends_of",
           [](const PlanPreview& p, int rank) {
             if (rank < 0 || static_cast<size_t>(rank) + 1 >= p.plan.send_offsets.size())
               throw lodex::Error(ErrorCode::kInvalidArgument, "rank out of range");
             const auto s = p.plan.sends_of(rank);
             return std::vector<uint32_t>(s.begin(), s.end());
           })
      .def("partition_of", [](const PlanPreview& p, In<double> positions) {
        if (positions.ndim() != 2 || positions.shape(1) != 3)
          throw lodex::Error(ErrorCode::kInvalidArgument, "positions must be an (n, 3) float64 array");
        const size_t n = positions.shape(0);
        auto* out = new uint32_t[n + 1];
        const double* q = positions.data();
        {
          nb::gil_scoped_release release;
          for (size_t i = 0; i < n; ++i) out[i] = p.plan.partition_of({q[3 * i], q[3 * i + 1], q[3 * i + 2]});
        }
        nb::capsule owner(out, [](void* x) noexcept { delete[] static_cast<uint32_t*>(x); });
        return nb::ndarray<nb::numpy, uint32_t>(out, {n}, owner);
      });

  m.def(
      "plan_particles",
      [](const std::array<double, 3>& lo, const std::array<double, 3>& hi, const std::string& mode,
         const std::array<uint32_t, 3>& dims, uint64_t particles_per_file, In<double> patches, In<uint64_t> counts,
         std::optional<In<uint32_t>> histograms) {
        const size_t R = counts.ndim() == 1 ? counts.shape(0) : 0;
        if (counts.ndim() != 1 || patches.ndim() != 2 || patches.shape(0) != R || patches.shape(1) != 6)
          throw lodex::Error(ErrorCode::kInvalidArgument,
                             "patches must be (ranks, 6) float64 (min xyz, max xyz) and counts (ranks,) uint64");
        PartitionSpec spec;
        spec.mode = parse_partition_mode(mode);
        spec.dims = dims;
        spec.particles_per_file = particles_per_file;
        std::vector<RankInput> ranks(R);
        size_t cells = 0;
        if (histograms) {
          if (histograms->ndim() != 2 || histograms->shape(0) != R)
            throw lodex::Error(ErrorCode::kInvalidArgument, "histograms must be (ranks, h^3) uint32");
          cells = histograms->shape(1);
        }
        for (size_t r = 0; r < R; ++r) {
          const double* b = patches.data() + 6 * r;
          ranks[r].patch = Box{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
          ranks[r].count = counts.data()[r];
          ranks[r].patch_given = true;
          if (histograms && ranks[r].count > 0)
            ranks[r].histogram.assign(histograms->data() + r * cells, histograms->data() + (r + 1) * cells);
        }
        auto out = std::make_unique<PlanPreview>();
        {
          nb::gil_scoped_release release;
          const auto t0 = std::chrono::steady_clock::now();
          out->plan = plan_particle_write(Box{lo, hi}, spec, ranks);
          out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        return out;
      },
      nb::kw_only(), nb::arg("lo"), nb::arg("hi"), nb::arg("mode"), nb::arg("dims"), nb::arg("particles_per_file"),
      nb::arg("patches"), nb::arg("counts"), nb::arg("histograms").none());
  m.def("adaptive_histogram_side", [](uint64_t ranks) { return adaptive_histogram_side(ranks); });
}

}  // namespace lodex::py
