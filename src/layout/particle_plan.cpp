#include "layout/particle_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.hpp"

namespace lodex {

namespace {

const char* kAxis[3] = {"x", "y", "z"};

// Lattice decomposition inferred from the patches of ranks that hold particles or gave a patch.
struct Lattice {
  Vec3 patch_size;
  std::array<uint64_t, 3> patches;   // patches per axis
};

// Equal aligned patches overlap exactly when two ranks give the same lattice cell: the particles of
// one region would then come from two decompositions, which a factor cannot aggregate (grid
// boxes are refused alike).
void refuse_shared_cells(const Box& domain, std::span<const RankInput> ranks, const Lattice& lat) {
  const uint64_t cells = lat.patches[0] * lat.patches[1] * lat.patches[2];
  auto cell_of = [&](const Box& b) {
    uint64_t k[3];
    for (int a = 0; a < 3; ++a)
      k[a] = static_cast<uint64_t>(std::llround((b.inclusive_min[a] - domain.inclusive_min[a]) / lat.patch_size[a]));
    return k[0] + lat.patches[0] * (k[1] + lat.patches[1] * k[2]);
  };
  auto refuse = [&](size_t first, size_t second) {
    fail(ErrorCode::kInvalidArgument, "ranks ", first, " and ", second, " give the same patch ",
         to_string(ranks[second].patch),
         ": the patches of a partition factor must not overlap "
         "(one rank per cell of the decomposition; use a partition grid for overlapping boxes)");
  };
  if (cells <= 8 * ranks.size() + 64) {   // the usual lattice: about one cell per rank
    std::vector<int64_t> owner(cells, -1);
    for (size_t r = 0; r < ranks.size(); ++r) {
      if (ranks[r].patch.empty()) continue;
      int64_t& o = owner[cell_of(ranks[r].patch)];
      if (o >= 0) refuse(static_cast<size_t>(o), r);
      o = static_cast<int64_t>(r);
    }
    return;
  }
  std::vector<std::pair<uint64_t, size_t>> taken;
  for (size_t r = 0; r < ranks.size(); ++r)
    if (!ranks[r].patch.empty()) taken.emplace_back(cell_of(ranks[r].patch), r);
  std::sort(taken.begin(), taken.end());
  for (size_t i = 1; i < taken.size(); ++i)
    if (taken[i].first == taken[i - 1].first) refuse(taken[i - 1].second, taken[i].second);
}

Lattice infer_lattice(const Box& domain, std::span<const RankInput> ranks) {
  const RankInput* first = nullptr;
  for (const auto& r : ranks) {
    if (r.patch.empty()) continue;
    if (!r.patch_given)
      fail(ErrorCode::kInvalidArgument,
           "a partition factor needs every rank's patch box to align the aggregation grid with "
           "the decomposition (give every rank's patch to the write), or use a partition grid, "
           "which needs no patches");
    if (!first) first = &r;
  }
  Lattice lat{};
  const Vec3 dsize = domain.size();
  if (!first) {   // nobody holds anything: a 1x1x1 lattice keeps the plan well defined
    lat.patch_size = dsize;
    lat.patches = {1, 1, 1};
    return lat;
  }
  lat.patch_size = first->patch.size();
  for (int a = 0; a < 3; ++a) {
    const double n = dsize[a] / lat.patch_size[a];
    const double rn = std::round(n);
    if (rn < 1 || std::abs(n - rn) > 1e-6 * rn)
      fail(ErrorCode::kInvalidArgument, "patch size ", lat.patch_size[a], " along ", kAxis[a],
           " does not divide the domain size ", dsize[a],
           ": a partition factor needs patches on a regular lattice (use a partition grid)");
    lat.patches[a] = static_cast<uint64_t>(rn);
  }
  for (size_t r = 0; r < ranks.size(); ++r) {
    const Box& b = ranks[r].patch;
    if (b.empty()) continue;
    const Vec3 sz = b.size();
    for (int a = 0; a < 3; ++a) {
      const double tol = 1e-9 * std::max(std::abs(dsize[a]), 1e-300);
      if (std::abs(sz[a] - lat.patch_size[a]) > tol)
        fail(ErrorCode::kInvalidArgument, "rank ", r, "'s patch ", to_string(b), " has size ", sz[a], " along ",
             kAxis[a], " but rank patches elsewhere have ", lat.patch_size[a],
             ": a partition factor needs equal patches (use a partition grid)");
      const double k = (b.inclusive_min[a] - domain.inclusive_min[a]) / lat.patch_size[a];
      if (std::abs(k - std::round(k)) > 1e-6)
        fail(ErrorCode::kInvalidArgument, "rank ", r, "'s patch ", to_string(b), " is not on the patch lattice along ",
             kAxis[a], ": a partition factor needs aligned patches (use a partition grid)");
    }
  }
  refuse_shared_cells(domain, ranks, lat);
  return lat;
}

// Receives (transpose of the send lists, senders in ascending rank order) and aggregators:
// partition j of the m that receive anything gets rank floor(j * R / m), uniform in rank space.
// With `in_place`, a partition whose particles all come from one rank that sends nowhere else
// is aggregated by that rank (nothing moves), and the others take the first free rank at or
// after their slot (found in amortized constant time: a union-find over free ranks).
void finish_plan(ParticlePlan& plan, int num_ranks, bool in_place) {
  const uint32_t nparts = plan.num_partitions();
  std::vector<uint64_t> recv_count(nparts, 0);
  for (uint32_t p : plan.send_partitions) ++recv_count[p];
  plan.recv_offsets.assign(nparts + 1, 0);
  for (uint32_t p = 0; p < nparts; ++p) plan.recv_offsets[p + 1] = plan.recv_offsets[p] + recv_count[p];
  plan.recv_ranks.resize(plan.recv_offsets[nparts]);
  std::vector<uint64_t> fill(plan.recv_offsets.begin(), plan.recv_offsets.end() - 1);
  for (int r = 0; r < num_ranks; ++r)
    for (uint32_t p : plan.sends_of(r)) plan.recv_ranks[fill[p]++] = r;
  uint64_t m = 0;
  for (uint32_t p = 0; p < nparts; ++p) m += recv_count[p] > 0;
  plan.aggregator.assign(nparts, -1);
  const uint64_t R = static_cast<uint64_t>(num_ranks);
  // A rank aggregates at most `cap` partitions: one while there are no more partitions than ranks,
  // an even share when there are (adaptive plans may ask for more files than ranks).
  const uint64_t cap = std::max<uint64_t>(1, (m + R - 1) / std::max<uint64_t>(R, 1));
  std::vector<uint64_t> load(R, 0);
  std::vector<uint64_t> next_free;   // next_free[r] == r: rank r is below cap; R: none at or after
  auto find = [&](uint64_t r) {
    while (next_free[r] != r) r = next_free[r] = next_free[next_free[r]];
    return r;
  };
  auto take = [&](uint64_t r) {
    if (++load[r] == cap) next_free[r] = r + 1;
  };
  if (in_place) {
    next_free.resize(R + 1);
    for (uint64_t r = 0; r <= R; ++r) next_free[r] = r;
    for (uint32_t p = 0; p < nparts; ++p) {
      const auto senders = plan.senders_of(p);
      if (senders.size() == 1 && plan.sends_of(senders[0]).size() == 1 && load[senders[0]] < cap) {
        plan.aggregator[p] = senders[0];
        take(senders[0]);
      }
    }
  }
  uint64_t j = 0;
  for (uint32_t p = 0; p < nparts; ++p) {
    if (recv_count[p] == 0) continue;
    const uint64_t slot = j++ * R / m;
    if (!in_place) {
      plan.aggregator[p] = static_cast<int32_t>(slot);
    } else if (plan.aggregator[p] < 0) {
      uint64_t r = find(slot);
      if (r == R) r = find(0);   // cap x R >= m: a rank below cap exists
      plan.aggregator[p] = static_cast<int32_t>(r);
      take(r);
    }
  }
}

// The boxes with counts the k-d tree balances: each rank's extent, or its histogram's cells.
std::vector<WeightedBox> weighted_boxes(std::span<const RankInput> ranks) {
  std::vector<WeightedBox> items;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankInput& in = ranks[r];
    if (in.count == 0) continue;
    if (in.histogram.empty()) {
      items.push_back({in.patch, static_cast<double>(in.count)});
      continue;
    }
    const uint32_t h = static_cast<uint32_t>(std::llround(std::cbrt(static_cast<double>(in.histogram.size()))));
    if (uint64_t{h} * h * h != in.histogram.size())
      fail(ErrorCode::kInvalidArgument, "rank ", r, "'s histogram has ", in.histogram.size(),
           " cells, not a cube of a whole number");
    uint64_t sum = 0;
    for (uint32_t c : in.histogram) sum += c;
    if (sum != in.count)
      fail(ErrorCode::kInvalidArgument, "rank ", r, "'s histogram counts ", sum, " particles, but it holds ", in.count);
    auto edge = [&](int a, uint32_t i) {   // cell boundaries inside the patch, exact at both ends
      if (i == 0) return in.patch.inclusive_min[a];
      if (i == h) return in.patch.exclusive_max[a];
      const double lo = in.patch.inclusive_min[a], hi = in.patch.exclusive_max[a];
      return std::clamp(lo + (hi - lo) * i / h, lo, hi);
    };
    for (uint32_t k = 0; k < h; ++k)
      for (uint32_t j = 0; j < h; ++j)
        for (uint32_t i = 0; i < h; ++i) {
          const uint32_t c = in.histogram[i + h * (j + h * k)];
          if (c == 0) continue;
          const Box b{{edge(0, i), edge(1, j), edge(2, k)}, {edge(0, i + 1), edge(1, j + 1), edge(2, k + 1)}};
          // Only the cells' faces on the extent's own faces are snap faces.
          const uint32_t idx[3] = {i, j, k};
          uint8_t faces = 0;
          for (int a = 0; a < 3; ++a) {
            if (idx[a] == 0) faces |= static_cast<uint8_t>(1u << (2 * a));
            if (idx[a] == h - 1) faces |= static_cast<uint8_t>(1u << (2 * a + 1));
          }
          if (!b.empty()) items.push_back({b, static_cast<double>(c), faces});
          else items.push_back({in.patch, static_cast<double>(c)});   // a patch too thin to cut into cells
        }
  }
  return items;
}

ParticlePlan plan_adaptive(const Box& domain, const PartitionSpec& spec, std::span<const RankInput> ranks) {
  const int num_ranks = static_cast<int>(ranks.size());
  uint64_t total = 0;
  for (const auto& r : ranks) total += r.count;
  const uint64_t wanted = total == 0 ? 1 : (total + spec.particles_per_file - 1) / spec.particles_per_file;
  std::vector<WeightedBox> items = weighted_boxes(ranks);
  // As many files as the target asks for, whatever the rank count (an aggregator then writes
  // several), but no more than the planner can place: one per rank or per non-empty histogram
  // cell, whichever is more. Finer cuts would split cells whose particles it cannot see.
  const uint64_t most = std::max<uint64_t>(static_cast<uint64_t>(num_ranks), items.size());
  const uint32_t parts = static_cast<uint32_t>(std::clamp<uint64_t>(wanted, 1, most));
  auto kd = std::make_shared<const KdPartition>(domain, std::move(items), parts);
  ParticlePlan plan;
  plan.domain = domain;
  plan.grid = {kd->num_leaves(), 1, 1};
  for (uint32_t l = 0; l < kd->num_leaves(); ++l) {
    plan.tiles.push_back(kd->tile(l));
    plan.partitions.push_back(kd->hull(l).empty() ? kd->tile(l) : kd->hull(l));
  }
  plan.send_offsets.assign(num_ranks + 1, 0);
  std::vector<uint32_t> leaves;
  for (int r = 0; r < num_ranks; ++r) {
    plan.send_offsets[r] = plan.send_partitions.size();
    if (ranks[r].count == 0 || ranks[r].patch.empty()) continue;
    kd->leaves_meeting(ranks[r].patch, leaves);
    if (leaves.size() != 1) plan.aligned = false;
    plan.send_partitions.insert(plan.send_partitions.end(), leaves.begin(), leaves.end());
  }
  plan.send_offsets[num_ranks] = plan.send_partitions.size();
  plan.kd = std::move(kd);
  finish_plan(plan, num_ranks, true);
  return plan;
}

}  // namespace

const char* partition_mode_name(PartitionMode m) {
  switch (m) {
    case PartitionMode::kFactor: return "factor";
    case PartitionMode::kGrid: return "grid";
    case PartitionMode::kAdaptive: return "adaptive";
  }
  return "?";
}

PartitionMode parse_partition_mode(const std::string& name) {
  for (PartitionMode m : {PartitionMode::kFactor, PartitionMode::kGrid, PartitionMode::kAdaptive})
    if (name == partition_mode_name(m)) return m;
  fail(ErrorCode::kInvalidArgument, "partition mode '", name, "' is not 'factor', 'grid' or 'adaptive'");
}

uint32_t adaptive_histogram_side(uint64_t ranks) {
  for (uint32_t h : {16u, 8u, 4u, 2u})
    if (ranks * h * h * h <= (uint64_t{1} << 18)) return h;
  return 1;
}

PartitionBinner ParticlePlan::binner() const {
  PartitionBinner b;
  b.kd = kd.get();
  b.grid = grid;
  for (int a = 0; a < 3; ++a) {
    b.min[a] = domain.inclusive_min[a];
    b.width[a] = (domain.exclusive_max[a] - domain.inclusive_min[a]) / grid[a];
  }
  return b;
}

std::vector<uint32_t> ParticlePlan::partitions_of_aggregator(int rank) const {
  std::vector<uint32_t> out;
  for (uint32_t p = 0; p < aggregator.size(); ++p)
    if (aggregator[p] == rank) out.push_back(p);
  return out;
}

uint32_t ParticlePlan::num_aggregators() const {
  uint32_t n = 0;
  for (int32_t a : aggregator) n += a >= 0;
  return n;
}

namespace {

void check_plan_input(const Box& domain, const PartitionSpec& spec, std::span<const RankInput> ranks) {
  if (domain.empty() || !domain.finite())
    fail(ErrorCode::kInvalidArgument, "domain ", to_string(domain), " must be finite with min < max on every axis");
  if (ranks.empty()) fail(ErrorCode::kInvalidArgument, "a plan needs at least one rank");
  if (spec.mode != PartitionMode::kAdaptive)
    for (int a = 0; a < 3; ++a)
      if (spec.dims[a] < 1)
        fail(ErrorCode::kInvalidArgument, "partition ", partition_mode_name(spec.mode), " along ", kAxis[a], " is ",
             spec.dims[a], "; it must be at least 1");
  if (spec.mode == PartitionMode::kAdaptive && spec.particles_per_file < 1)
    fail(ErrorCode::kInvalidArgument, "particles_per_file must be at least 1 for adaptive partitions");
  for (size_t r = 0; r < ranks.size(); ++r) {
    const Box& b = ranks[r].patch;
    if (b.empty()) {
      if (ranks[r].count)
        fail(ErrorCode::kInvalidArgument, "rank ", r, " holds ", ranks[r].count, " particles but its patch ",
             to_string(b), " is empty");
      continue;
    }
    if (!domain.contains(b))
      fail(ErrorCode::kInvalidArgument, "rank ", r, "'s patch ", to_string(b), " is not inside the domain ",
           to_string(domain));
  }
}

// The aggregation grid: given (fixed) or the ranks' lattice over the factor (factor mode).
void plan_grid(ParticlePlan& plan, Lattice& lat, const PartitionSpec& spec, std::span<const RankInput> ranks) {
  if (spec.mode == PartitionMode::kFactor) {
    lat = infer_lattice(plan.domain, ranks);
    for (int a = 0; a < 3; ++a) {
      if (lat.patches[a] % spec.dims[a] != 0)
        fail(ErrorCode::kInvalidArgument, "partition factor P", kAxis[a], "=", spec.dims[a],
             " does not fit the decomposition: ", lat.patches[a], " patches along ", kAxis[a],
             " are not a multiple of it");
      plan.grid[a] = static_cast<uint32_t>(lat.patches[a] / spec.dims[a]);
    }
  } else {
    plan.grid = spec.dims;
  }
  const uint64_t nparts = uint64_t{plan.grid[0]} * plan.grid[1] * plan.grid[2];
  if (nparts > (uint64_t{1} << 31))
    fail(ErrorCode::kInvalidArgument, "aggregation grid ", plan.grid[0], "x", plan.grid[1], "x", plan.grid[2],
         " has more than 2^31 partitions");
}

// The partitions' boxes, x fastest; the last along an axis ends exactly on the domain.
void plan_boxes(ParticlePlan& plan, const Vec3& w) {
  const Box& domain = plan.domain;
  plan.partitions.resize(size_t{plan.grid[0]} * plan.grid[1] * plan.grid[2]);
  for (uint32_t k = 0; k < plan.grid[2]; ++k)
    for (uint32_t j = 0; j < plan.grid[1]; ++j)
      for (uint32_t i = 0; i < plan.grid[0]; ++i) {
        const uint32_t idx[3] = {i, j, k};
        Box& b = plan.partitions[i + plan.grid[0] * (j + plan.grid[1] * k)];
        for (int a = 0; a < 3; ++a) {
          b.inclusive_min[a] = domain.inclusive_min[a] + idx[a] * w[a];
          b.exclusive_max[a] =
              idx[a] + 1 == plan.grid[a] ? domain.exclusive_max[a] : domain.inclusive_min[a] + (idx[a] + 1) * w[a];
        }
      }
}

// Sends: each rank with particles -> the partitions its patch overlaps.
void plan_sends(ParticlePlan& plan, const Vec3& w, const Lattice& lat, const PartitionSpec& spec,
                std::span<const RankInput> ranks) {
  const Box& domain = plan.domain;
  plan.send_offsets.assign(ranks.size() + 1, 0);
  auto bin = [&](double x, int a) -> uint32_t {
    const double f = std::floor((x - domain.inclusive_min[a]) / w[a]);
    return f <= 0 ? 0u : (f >= plan.grid[a] - 1 ? plan.grid[a] - 1 : static_cast<uint32_t>(f));
  };
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankInput& in = ranks[r];
    plan.send_offsets[r] = plan.send_partitions.size();
    if (in.count == 0 || in.patch.empty()) continue;
    uint32_t lo[3], hi[3];
    if (spec.mode == PartitionMode::kFactor) {
      // Aligned: the lattice index of the patch decides, with no floating-point binning.
      for (int a = 0; a < 3; ++a) {
        const double k = std::round((in.patch.inclusive_min[a] - domain.inclusive_min[a]) / lat.patch_size[a]);
        lo[a] = hi[a] = static_cast<uint32_t>(static_cast<uint64_t>(k) / spec.dims[a]);
      }
    } else {
      for (int a = 0; a < 3; ++a) {
        lo[a] = bin(in.patch.inclusive_min[a], a);
        // The exclusive max is binned one ulp below so a patch ending on a partition boundary
        // does not reach into the next partition.
        hi[a] = bin(std::nextafter(in.patch.exclusive_max[a], in.patch.inclusive_min[a]), a);
      }
    }
    if (lo[0] != hi[0] || lo[1] != hi[1] || lo[2] != hi[2]) plan.aligned = false;
    for (uint32_t k = lo[2]; k <= hi[2]; ++k)
      for (uint32_t j = lo[1]; j <= hi[1]; ++j)
        for (uint32_t i = lo[0]; i <= hi[0]; ++i)
          plan.send_partitions.push_back(i + plan.grid[0] * (j + plan.grid[1] * k));
  }
  plan.send_offsets[ranks.size()] = plan.send_partitions.size();
  if (spec.mode == PartitionMode::kFactor && !plan.aligned)
    fail(ErrorCode::kInternal, "factor-mode plan is not aligned");
}

}  // namespace

ParticlePlan plan_particle_write(const Box& domain, const PartitionSpec& spec, std::span<const RankInput> ranks) {
  check_plan_input(domain, spec, ranks);
  if (spec.mode == PartitionMode::kAdaptive) return plan_adaptive(domain, spec, ranks);
  ParticlePlan plan;
  plan.domain = domain;
  Lattice lat{};
  plan_grid(plan, lat, spec, ranks);
  Vec3 w;
  for (int a = 0; a < 3; ++a) w[a] = (domain.exclusive_max[a] - domain.inclusive_min[a]) / plan.grid[a];
  plan_boxes(plan, w);
  plan_sends(plan, w, lat, spec, ranks);
  finish_plan(plan, static_cast<int>(ranks.size()), false);
  return plan;
}

ParticlePlanCache::RankKey ParticlePlanCache::key_of(const RankInput& in) {
  static_assert(sizeof(RankKey) == 7 * 8, "RankKey is compared bytewise: no padding");
  RankKey k;
  std::memcpy(k.patch, in.patch.inclusive_min.data(), sizeof(double) * 3);
  std::memcpy(k.patch + 3, in.patch.exclusive_max.data(), sizeof(double) * 3);
  k.flags = (in.patch_given ? 1u : 0u) | (in.count > 0 ? 2u : 0u);
  return k;
}

bool ParticlePlanCache::matches(const Box& domain, const PartitionSpec& spec, std::span<const RankInput> ranks) const {
  const auto same_box = [](const Box& a, const Box& b) {
    return std::memcmp(a.inclusive_min.data(), b.inclusive_min.data(), sizeof(double) * 3) == 0 &&
           std::memcmp(a.exclusive_max.data(), b.exclusive_max.data(), sizeof(double) * 3) == 0;
  };
  if (!plan_ || spec.mode == PartitionMode::kAdaptive || spec.mode != spec_.mode || spec.dims != spec_.dims ||
      !same_box(domain, domain_) || ranks.size() != keys_.size())
    return false;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankKey k = key_of(ranks[r]);
    if (std::memcmp(&k, &keys_[r], sizeof(RankKey)) != 0) return false;
  }
  return true;
}

std::shared_ptr<const ParticlePlan> ParticlePlanCache::plan(const Box& domain, const PartitionSpec& spec,
                                                            std::span<const RankInput> ranks) {
  reused_ = matches(domain, spec, ranks);
  if (reused_) return plan_;
  plan_.reset();   // a failed plan below leaves nothing to reuse
  auto made = std::make_shared<const ParticlePlan>(plan_particle_write(domain, spec, ranks));
  if (spec.mode != PartitionMode::kAdaptive) {
    domain_ = domain;
    spec_ = spec;
    keys_.resize(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r) keys_[r] = key_of(ranks[r]);
    plan_ = made;
  }
  return made;
}

}  // namespace lodex
