#include "layout/particle_plan.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace lodex {

namespace {

const char* kAxis[3] = {"x", "y", "z"};

// Lattice decomposition inferred from the patches of ranks that hold particles or gave a patch.
struct Lattice {
  Vec3 patch_size;
  std::array<uint64_t, 3> patches;   // patches per axis
};

Lattice infer_lattice(const Box& domain, std::span<const RankInput> ranks) {
  const RankInput* first = nullptr;
  for (const auto& r : ranks) {
    if (r.patch.empty()) continue;
    if (!r.patch_given)
      fail(ErrorCode::kInvalidArgument,
           "a partition factor needs every rank's patch box to align the aggregation grid with "
           "the decomposition (pass patch=), or use a partition grid that ignores patches");
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
        fail(ErrorCode::kInvalidArgument, "rank ", r, "'s patch ", to_string(b), " has size ",
             sz[a], " along ", kAxis[a], " but rank patches elsewhere have ", lat.patch_size[a],
             ": a partition factor needs equal patches (use a partition grid)");
      const double k = (b.inclusive_min[a] - domain.inclusive_min[a]) / lat.patch_size[a];
      if (std::abs(k - std::round(k)) > 1e-6)
        fail(ErrorCode::kInvalidArgument, "rank ", r, "'s patch ", to_string(b),
             " is not on the patch lattice along ", kAxis[a],
             ": a partition factor needs aligned patches (use a partition grid)");
    }
  }
  return lat;
}

}  // namespace

uint32_t ParticlePlan::partition_of(const Vec3& p) const {
  uint32_t idx[3];
  for (int a = 0; a < 3; ++a) {
    const double w = (domain.exclusive_max[a] - domain.inclusive_min[a]) / grid[a];
    const double f = std::floor((p[a] - domain.inclusive_min[a]) / w);
    idx[a] = f <= 0 ? 0u : (f >= grid[a] - 1 ? grid[a] - 1 : static_cast<uint32_t>(f));
  }
  return idx[0] + grid[0] * (idx[1] + grid[1] * idx[2]);
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

ParticlePlan plan_particle_write(const Box& domain, const PartitionSpec& spec,
                                 std::span<const RankInput> ranks) {
  if (domain.empty() || !domain.finite())
    fail(ErrorCode::kInvalidArgument, "domain ", to_string(domain),
         " must be finite with min < max on every axis");
  if (ranks.empty()) fail(ErrorCode::kInvalidArgument, "a plan needs at least one rank");
  for (int a = 0; a < 3; ++a)
    if (spec.dims[a] < 1)
      fail(ErrorCode::kInvalidArgument, "partition ", spec.mode == PartitionMode::kFactor ? "factor" : "grid",
           " along ", kAxis[a], " is ", spec.dims[a], "; it must be at least 1");
  const int num_ranks = static_cast<int>(ranks.size());
  for (int r = 0; r < num_ranks; ++r) {
    const Box& b = ranks[r].patch;
    if (b.empty()) {
      if (ranks[r].count)
        fail(ErrorCode::kInvalidArgument, "rank ", r, " holds ", ranks[r].count,
             " particles but its patch ", to_string(b), " is empty");
      continue;
    }
    if (!domain.contains(b))
      fail(ErrorCode::kInvalidArgument, "rank ", r, "'s patch ", to_string(b),
           " is not inside the domain ", to_string(domain));
  }

  ParticlePlan plan;
  plan.domain = domain;
  Lattice lat{};
  if (spec.mode == PartitionMode::kFactor) {
    lat = infer_lattice(domain, ranks);
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
  const uint64_t nparts64 = uint64_t{plan.grid[0]} * plan.grid[1] * plan.grid[2];
  if (nparts64 > (uint64_t{1} << 31))
    fail(ErrorCode::kInvalidArgument, "aggregation grid ", plan.grid[0], "x", plan.grid[1], "x",
         plan.grid[2], " has more than 2^31 partitions");
  const uint32_t nparts = static_cast<uint32_t>(nparts64);

  Vec3 w;
  for (int a = 0; a < 3; ++a)
    w[a] = (domain.exclusive_max[a] - domain.inclusive_min[a]) / plan.grid[a];
  plan.partitions.resize(nparts);
  for (uint32_t k = 0; k < plan.grid[2]; ++k)
    for (uint32_t j = 0; j < plan.grid[1]; ++j)
      for (uint32_t i = 0; i < plan.grid[0]; ++i) {
        const uint32_t idx[3] = {i, j, k};
        Box& b = plan.partitions[i + plan.grid[0] * (j + plan.grid[1] * k)];
        for (int a = 0; a < 3; ++a) {
          b.inclusive_min[a] = domain.inclusive_min[a] + idx[a] * w[a];
          b.exclusive_max[a] = idx[a] + 1 == plan.grid[a] ? domain.exclusive_max[a]
                                                          : domain.inclusive_min[a] + (idx[a] + 1) * w[a];
        }
      }

  // Sends: each rank with particles -> the partitions its patch overlaps.
  plan.send_offsets.assign(num_ranks + 1, 0);
  std::vector<uint32_t> recv_count(nparts, 0);
  auto bin = [&](double x, int a) -> uint32_t {
    const double f = std::floor((x - domain.inclusive_min[a]) / w[a]);
    return f <= 0 ? 0u : (f >= plan.grid[a] - 1 ? plan.grid[a] - 1 : static_cast<uint32_t>(f));
  };
  for (int r = 0; r < num_ranks; ++r) {
    const RankInput& in = ranks[r];
    plan.send_offsets[r] = plan.send_partitions.size();
    if (in.count == 0 || in.patch.empty()) continue;
    uint32_t lo[3], hi[3];
    if (spec.mode == PartitionMode::kFactor) {
      // Aligned: the lattice index of the patch decides, with no floating-point binning.
      for (int a = 0; a < 3; ++a) {
        const double k = std::round((in.patch.inclusive_min[a] - domain.inclusive_min[a]) /
                                    lat.patch_size[a]);
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
        for (uint32_t i = lo[0]; i <= hi[0]; ++i) {
          const uint32_t p = i + plan.grid[0] * (j + plan.grid[1] * k);
          plan.send_partitions.push_back(p);
          ++recv_count[p];
        }
  }
  plan.send_offsets[num_ranks] = plan.send_partitions.size();
  if (spec.mode == PartitionMode::kFactor && !plan.aligned)
    fail(ErrorCode::kInternal, "factor-mode plan is not aligned");

  // Receives: transpose of the send lists, senders in ascending rank order.
  plan.recv_offsets.assign(nparts + 1, 0);
  for (uint32_t p = 0; p < nparts; ++p) plan.recv_offsets[p + 1] = plan.recv_offsets[p] + recv_count[p];
  plan.recv_ranks.resize(plan.recv_offsets[nparts]);
  std::vector<uint64_t> fill(plan.recv_offsets.begin(), plan.recv_offsets.end() - 1);
  for (int r = 0; r < num_ranks; ++r)
    for (uint32_t p : plan.sends_of(r)) plan.recv_ranks[fill[p]++] = r;

  // Aggregators: uniform in rank space over the partitions that receive anything.
  uint64_t m = 0;
  for (uint32_t p = 0; p < nparts; ++p) m += recv_count[p] > 0;
  plan.aggregator.assign(nparts, -1);
  uint64_t j = 0;
  for (uint32_t p = 0; p < nparts; ++p)
    if (recv_count[p] > 0) plan.aggregator[p] = static_cast<int32_t>(j++ * num_ranks / m);
  return plan;
}

}  // namespace lodex
