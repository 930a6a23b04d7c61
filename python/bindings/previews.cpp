// Pure previews of the series (STAR) and grid (IDX) write plans on simulated ranks: what a write
// by those ranks would do (layout/series_plan.hpp, layout/series_read_plan.hpp,
// layout/grid_plan.hpp), without MPI or files. For the scale model (lodex.scale) and tests at
// rank counts this machine cannot run (lodex.planning.plan_series, plan_grid).
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>

#include "bindings.hpp"
#include "core/error.hpp"
#include "format/series_file.hpp"
#include "layout/grid_plan.hpp"
#include "layout/series_plan.hpp"
#include "layout/series_read_plan.hpp"

namespace lodex::py {

namespace {
template <typename T>
using In = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

// A numpy array owning `v`'s elements; `shape` must multiply to v.size().
template <typename T>
nb::ndarray<nb::numpy, T> owned(std::vector<T>&& v, std::initializer_list<size_t> shape) {
  auto* p = new std::vector<T>(std::move(v));
  p->reserve(1);
  nb::capsule owner(p, [](void* x) noexcept { delete static_cast<std::vector<T>*>(x); });
  return nb::ndarray<nb::numpy, T>(p->data(), shape, owner);
}

std::vector<GridBox> boxes_of(const In<int64_t>& boxes) {
  if (boxes.ndim() != 2 || boxes.shape(1) != 6)
    throw lodex::Error(ErrorCode::kInvalidArgument, "boxes must be a (ranks, 6) int64 array (lo xyz, hi xyz)");
  std::vector<GridBox> out(boxes.shape(0));
  for (size_t r = 0; r < out.size(); ++r)
    for (int a = 0; a < 3; ++a) {
      out[r].lo[a] = boxes.data()[6 * r + a];
      out[r].hi[a] = boxes.data()[6 * r + 3 + a];
    }
  return out;
}

std::vector<int64_t> box_row(const GridBox& b) { return {b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]}; }

GridBox box_arg(const std::array<int64_t, 6>& b) { return GridBox{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}}; }

struct SeriesPreview {
  std::vector<SeriesVariable> vars;
  SeriesDecomposition dec;
  SeriesStepBytes sizes;
  uint32_t max_levels = 0;
  StarChoice choice;
  std::unique_ptr<SarPlan> sar;
  mutable std::map<uint32_t, std::shared_ptr<const SeriesWindowHead>> heads;   // by window steps

  const SeriesWindowHead& head(uint32_t steps) const {
    auto& h = heads[steps];
    if (!h) h = std::make_shared<const SeriesWindowHead>(planned_window_head("preview", vars, *sar, 0, steps));
    return *h;
  }

  void check(uint32_t v, uint32_t rank) const {
    if (v >= vars.size() || rank >= dec.cell.size())
      throw lodex::Error(ErrorCode::kInvalidArgument, "variable or rank out of range");
  }
};

// What one window read of variable v needs (the reader's requests, pipelines/series/series_reader.cpp).
nb::dict window_read(const SeriesPreview& p, uint32_t v, uint32_t window_steps, const std::vector<uint64_t>& ks,
                     const std::array<int64_t, 6>& box, uint64_t merge_gap, uint64_t max_request) {
  if (v >= p.vars.size()) throw lodex::Error(ErrorCode::kInvalidArgument, "variable out of range");
  if (window_steps < 1) throw lodex::Error(ErrorCode::kInvalidArgument, "a window holds at least one step");
  std::vector<std::pair<uint64_t, uint64_t>> steps;
  for (size_t i = 0; i < ks.size(); ++i) {
    if (ks[i] >= window_steps) throw lodex::Error(ErrorCode::kInvalidArgument, "a step past the window's end");
    steps.emplace_back(i, ks[i]);
  }
  const SeriesWindowHead& h = p.head(window_steps);
  const SeriesVariable& var = p.vars[v];
  const SeriesWindowRead w =
      plan_window_read(var, p.sar->chunks(), chunk_places(h, v), steps, var_box(var, box_arg(box)), h.block_bytes);
  const uint64_t table = h.block_table_offset();
  const auto data = w.data_ranges(), sums = w.checksum_ranges(table);
  uint64_t blocks = 0;
  for (const SeriesBlockRun& b : w.blocks) blocks += b.count;
  nb::dict d;
  d["chunks"] = w.chunks;
  d["blocks"] = blocks;
  d["rows"] = w.rows.size();
  d["file_bytes"] = h.file_bytes;
  // A window's first read of v: its header and v's chunk-table entries (series_head_ranges).
  const auto head = series_head_ranges(h, v, true);
  for (const auto* which : {&head, &data, &sums}) {
    const auto merged = merge_ranges(*which, merge_gap, max_request);
    uint64_t bytes = 0;
    for (const auto& [lo, hi] : merged) bytes += hi - lo;
    const char* name = which == &head ? "head" : which == &data ? "data" : "checksum";
    d[(std::string(name) + "_requests").c_str()] = merged.size();
    d[(std::string(name) + "_bytes").c_str()] = bytes;
  }
  return d;
}

void bind_series_preview(nb::module_& m) {
  nb::class_<SeriesPreview>(m, "SeriesPreview")
      .def_prop_ro("d_tar", [](const SeriesPreview& p) { return p.choice.d_tar; })
      .def_prop_ro("d_sar", [](const SeriesPreview& p) { return p.choice.d_sar; })
      .def_prop_ro("opt_size", [](const SeriesPreview& p) { return p.choice.opt_size; })
      .def_prop_ro("chunk_bytes", [](const SeriesPreview& p) { return p.choice.chunk_bytes; })
      .def_prop_ro("buffer_bytes", [](const SeriesPreview& p) { return p.choice.buffer_bytes; })
      .def_prop_ro("reason", [](const SeriesPreview& p) { return p.choice.reason; })
      .def_prop_ro("step_bytes", [](const SeriesPreview& p) { return p.sizes.largest_rank; })
      .def_prop_ro("var_step_bytes", [](const SeriesPreview& p) { return p.sizes.average_variable; })
      .def_prop_ro("decomposed_axes", [](const SeriesPreview& p) { return p.dec.decomposed_axes(); })
      .def_prop_ro("max_sar_levels", [](const SeriesPreview& p) { return p.max_levels; })
      .def_prop_ro("cells",
                   [](const SeriesPreview& p) {
                     return std::array<uint32_t, 3>{p.dec.cells(0), p.dec.cells(1), p.dec.cells(2)};
                   })
      .def_prop_ro(
          "chunks",
          [](const SeriesPreview& p) {
            std::vector<int64_t> out;
            for (const SeriesChunk& c : p.sar->chunks()) {
              const auto row = box_row(c.box);
              out.insert(out.end(), row.begin(), row.end());
            }
            return owned(std::move(out), {p.sar->chunks().size(), 6});
          },
          nb::rv_policy::move)
      .def_prop_ro(
          "chunk_of_rank",
          [](const SeriesPreview& p) {
            std::vector<uint32_t> out(p.dec.cell.size());
            for (uint32_t r = 0; r < out.size(); ++r) out[r] = p.sar->chunk_of_rank(r);
            return owned(std::move(out), {p.dec.cell.size()});
          },
          nb::rv_policy::move)
      // (V, C): the rank writing each variable's chunk (its level-d_sar aggregator).
      .def_prop_ro(
          "writers",
          [](const SeriesPreview& p) {
            const auto& chunks = p.sar->chunks();
            std::vector<uint32_t> member(chunks.size());
            for (uint32_t r = 0; r < p.dec.cell.size(); ++r) member[p.sar->chunk_of_rank(r)] = r;
            std::vector<uint32_t> out;
            out.reserve(p.vars.size() * chunks.size());
            for (uint32_t v = 0; v < p.vars.size(); ++v)
              for (size_t c = 0; c < chunks.size(); ++c) out.push_back(p.sar->aggregator(v, p.choice.d_sar, member[c]));
            return owned(std::move(out), {p.vars.size(), chunks.size()});
          },
          nb::rv_policy::move)
      .def("aggregator",
           [](const SeriesPreview& p, uint32_t v, uint32_t level, uint32_t rank) {
             p.check(v, rank);
             if (level > p.choice.d_sar) throw lodex::Error(ErrorCode::kInvalidArgument, "level above d_sar");
             return p.sar->aggregator(v, level, rank);
           })
      .def("senders",
           [](const SeriesPreview& p, uint32_t v, uint32_t level, uint32_t rank) {
             p.check(v, rank);
             if (level < 1 || level > p.choice.d_sar || p.sar->aggregator(v, level, rank) != rank)
               throw lodex::Error(ErrorCode::kInvalidArgument, "rank is not the variable's aggregator at that level");
             return p.sar->senders(v, level, rank);
           })
      .def("window_head",
           [](const SeriesPreview& p, uint32_t steps) {
             if (steps < 1) throw lodex::Error(ErrorCode::kInvalidArgument, "a window holds at least one step");
             const SeriesWindowHead& h = p.head(steps);
             std::vector<uint64_t> offset, bytes, planes;
             for (const SeriesChunkEntry& e : h.entries) {
               offset.push_back(e.offset);
               bytes.push_back(e.bytes);
               planes.push_back(e.planes);
             }
             nb::dict d;
             const size_t V = h.variables, C = h.chunks;
             d["data_offset"] = h.data_offset;
             d["file_bytes"] = h.file_bytes;
             d["block_bytes"] = h.block_bytes;
             d["head_bytes"] = h.block_table_offset();
             d["offset"] = owned(std::move(offset), {V, C});
             d["bytes"] = owned(std::move(bytes), {V, C});
             d["planes"] = owned(std::move(planes), {V, C});
             return d;
           })
      .def("window_read", &window_read, nb::arg("variable"), nb::arg("window_steps"), nb::arg("steps"), nb::arg("box"),
           nb::arg("merge_gap"), nb::arg("max_request") = 0);

  m.def(
      "split_series_read",
      [](const std::vector<int64_t>& steps, const std::array<int64_t, 6>& box, int ndim, int rank, int size) {
        const SeriesReadShare s = split_series_read(steps, box_arg(box), ndim, rank, size);
        return std::make_pair(s.steps, box_row(s.box));
      },
      nb::kw_only(), nb::arg("steps"), nb::arg("box"), nb::arg("ndim"), nb::arg("rank"), nb::arg("size"));

  m.def(
      "plan_series",
      [](const std::array<int64_t, 3>& dims, In<int64_t> boxes,
         const std::vector<std::pair<std::string, int>>& variables, double bw_io, double cc, double ts,
         uint64_t memory_budget, int d_tar, int d_sar, uint32_t max_window_steps) {
        auto p = std::make_unique<SeriesPreview>();
        for (const auto& [dtype, ndim] : variables) {
          if (ndim != 2 && ndim != 3) throw lodex::Error(ErrorCode::kInvalidArgument, "a variable has 2 or 3 axes");
          p->vars.push_back(SeriesVariable{"v" + std::to_string(p->vars.size()), parse_dtype(dtype), ndim});
        }
        if (p->vars.empty()) throw lodex::Error(ErrorCode::kInvalidArgument, "a series needs at least one variable");
        const std::vector<GridBox> b = boxes_of(boxes);
        StarSettings s;
        s.bw_io = bw_io;
        s.cc = cc;
        s.ts = ts;
        s.memory_budget = memory_budget;
        s.d_tar = d_tar;
        s.d_sar = d_sar;
        s.max_window_steps = max_window_steps;
        {
          nb::gil_scoped_release release;
          p->dec = decompose_series_write(dims, p->vars, b);
          p->sizes = series_step_bytes(p->vars, b);
          p->max_levels = max_sar_levels(p->dec);
          p->choice = choose_star(p->vars, b, p->dec, s);
          p->sar = std::make_unique<SarPlan>(p->dec, p->choice.d_sar);
        }
        return p;
      },
      nb::kw_only(), nb::arg("dims"), nb::arg("boxes"), nb::arg("variables"), nb::arg("bw_io"), nb::arg("cc"),
      nb::arg("ts"), nb::arg("memory_budget"), nb::arg("d_tar"), nb::arg("d_sar"), nb::arg("max_window_steps"));
}

struct GridPreview {
  std::unique_ptr<GridPlan> plan;
};

void bind_grid_preview(nb::module_& m) {
  nb::class_<GridPreview>(m, "GridPreview")
      .def_prop_ro("bitmask", [](const GridPreview& g) { return g.plan->index().text(); })
      .def_prop_ro("partition_bits", [](const GridPreview& g) { return g.plan->partition_bits(); })
      .def_prop_ro("brick_bits", [](const GridPreview& g) { return g.plan->brick_bits(); })
      .def_prop_ro("bits_per_block", [](const GridPreview& g) { return g.plan->bits_per_block(); })
      .def_prop_ro("file_samples", [](const GridPreview& g) { return g.plan->file_samples(); })
      .def_prop_ro("file_slots", [](const GridPreview& g) { return g.plan->file_slots(); })
      .def_prop_ro(
          "rank_partitions",
          [](const GridPreview& g) {
            std::vector<uint32_t> out(g.plan->ranks());
            for (int r = 0; r < g.plan->ranks(); ++r) out[r] = g.plan->partition_of_rank(r);
            return owned(std::move(out), {static_cast<size_t>(g.plan->ranks())});
          },
          nb::rv_policy::move)
      .def_prop_ro(
          "partition_boxes",
          [](const GridPreview& g) {
            const int k = g.plan->partition_bits();
            std::vector<int64_t> out;
            for (uint32_t q = 0; q < (1u << k); ++q) {
              const auto row = box_row(grid_partition_box(g.plan->index(), k, q));
              out.insert(out.end(), row.begin(), row.end());
            }
            return owned(std::move(out), {size_t{1} << k, 6});
          },
          nb::rv_policy::move)
      // Files holding a sample of the grid, and the present blocks of each (the blocks written).
      .def_prop_ro(
          "files",
          [](const GridPreview& g) {
            std::vector<uint64_t> files = g.plan->files(), blocks;
            const uint64_t per = g.plan->input().blocks_per_file;
            for (uint64_t f : files) {
              uint64_t n = 0;
              for (uint64_t b = f * per; b < std::min((f + 1) * per, g.plan->blocks()); ++b)
                n += g.plan->block_present(b);
              blocks.push_back(n);
            }
            std::vector<uint64_t> out;
            for (size_t i = 0; i < files.size(); ++i) {
              out.push_back(files[i]);
              out.push_back(blocks[i]);
            }
            return owned(std::move(out), {files.size(), 2});
          },
          nb::rv_policy::move)
      // (U, 3): file, field, aggregator rank of every unit.
      .def_prop_ro(
          "units",
          [](const GridPreview& g) {
            std::vector<int64_t> out;
            for (const GridUnit& u : g.plan->units()) {
              out.push_back(static_cast<int64_t>(u.file));
              out.push_back(u.field);
              out.push_back(u.aggregator);
            }
            return owned(std::move(out), {g.plan->units().size(), 3});
          },
          nb::rv_policy::move)
      // (S, 4): unit, from rank, to rank, samples: every rank's runs of a unit go to its collector
      // (the aggregator, or its partition's collector, which forwards them: a second row).
      .def_prop_ro(
          "sends",
          [](const GridPreview& g) {
            std::vector<int64_t> out;
            const auto& units = g.plan->units();
            for (size_t ui = 0; ui < units.size(); ++ui) {
              const GridUnit& u = units[ui];
              std::map<std::pair<int, int>, uint64_t> moved;   // (from, to) -> samples
              std::map<int, uint64_t> forwarded;               // collector -> samples it forwards
              for (const BrickRun& run : g.plan->file_runs(u.file)) {
                const int from = g.plan->owner(run.brick);
                const int to = g.plan->collector(u, from);
                moved[{from, to}] += run.count;
                if (to != u.aggregator) forwarded[to] += run.count;
              }
              for (const auto& [ft, n] : moved)
                for (int64_t x :
                     {static_cast<int64_t>(ui), int64_t{ft.first}, int64_t{ft.second}, static_cast<int64_t>(n)})
                  out.push_back(x);
              for (const auto& [c, n] : forwarded)
                for (int64_t x : {static_cast<int64_t>(ui), int64_t{c}, int64_t{u.aggregator}, static_cast<int64_t>(n)})
                  out.push_back(x);
            }
            const size_t rows = out.size() / 4;
            return owned(std::move(out), {rows, 4});
          },
          nb::rv_policy::move);

  m.def(
      "plan_grid",
      [](const std::array<uint64_t, 3>& dims, int ndims, In<int64_t> boxes, const std::string& bitmask,
         int bits_per_block, uint64_t blocks_per_file, uint32_t fields, const std::string& aggregation,
         uint32_t partitions) {
        GridPlanInput in;
        in.dims = dims;
        in.boxes = boxes_of(boxes);
        in.bits_per_block = bits_per_block;
        in.blocks_per_file = blocks_per_file;
        in.fields = fields;
        in.aggregation = parse_grid_aggregation(aggregation);
        in.partitions = partitions;
        auto g = std::make_unique<GridPreview>();
        {
          nb::gil_scoped_release release;
          in.tmpl = grid_template(bitmask, in.dims, ndims, in.boxes);   // as a grid write chooses it
          g->plan = std::make_unique<GridPlan>(std::move(in));
        }
        return g;
      },
      nb::kw_only(), nb::arg("dims"), nb::arg("ndims"), nb::arg("boxes"), nb::arg("bitmask"), nb::arg("bits_per_block"),
      nb::arg("blocks_per_file"), nb::arg("fields"), nb::arg("aggregation"), nb::arg("partitions"));
}

}  // namespace

void bind_previews(nb::module_& m) {
  bind_series_preview(m);
  bind_grid_preview(m);
}

}  // namespace lodex::py
