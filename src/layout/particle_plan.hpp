// The particle aggregation planner (paper §3.1–3.3): every rank's patch box and particle count
// in, a plan out. Pure: no MPI, no files, so it is tested with hundreds of thousands of
// simulated ranks.
//
// Symbols. D = domain box; R = number of ranks; patch_r = rank r's box (inclusive min, exclusive
// max); n_r = its particle count.
//
// Factor mode, partition factor (Px, Py, Pz): the patches must tile a regular lattice of D with
// patch size s (all patches the same size, each patch min at D.min + k*s). With n_a patches
// along axis a, P_a must divide n_a; the aggregation grid has g_a = n_a / P_a partitions, each
// the union of Px*Py*Pz patches, so every rank sends to exactly one aggregator (aligned).
// Grid mode, (gx, gy, gz): D is cut into g_a equal slabs per axis regardless of the patches;
// a rank sends to every partition its patch overlaps and bins its particles (non-aligned).
//
// Partition p has index p = i + gx*(j + gy*k). Both modes bin a coordinate x on axis a with
// bin_a(x) = clamp(floor((x - D.min_a) / w_a), 0, g_a - 1), w_a = (D.max_a - D.min_a) / g_a;
// bin is monotone in x, so a patch [lo, hi) sends only to bins bin(lo)..bin(hi).
//
// Adaptive mode (§6; layout/kd_partition.hpp), target T particles per file: m = ceil(N / T)
// partitions (at most R, at least 1) cut by a k-d tree balanced on what the ranks report: each
// rank's extent and count, refined by an optional histogram of h^3 cells over the extent. The
// leaves tile D; partition p is leaf p, `tiles[p]` its tile and `partitions[p]` the estimated
// hull of its particles inside the tile. A rank sends to the leaves its extent meets; ranks
// without particles send nothing. A partition fed by one rank that sends nowhere else is
// aggregated by that rank (in place); the others take the uniform slots below, or the next
// free rank after a slot in use.
//
// Aggregators: the m partitions that receive particles, in index order, get ranks
// floor(j * R / m), j = 0..m-1: uniform in rank space (§3.2), distinct when m <= R.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/box.hpp"
#include "layout/kd_partition.hpp"

namespace lodex {

struct RankInput {
  Box patch;               // empty when the rank has no particles and gave no patch
  uint64_t count = 0;      // particles on this rank
  bool patch_given = false;  // false: patch is the bounding box of the particles
  // Adaptive mode, optional: particles per cell of an h x h x h grid over `patch` (x fastest,
  // cell i on an axis spans patch.min + [i, i+1) * size / h), summing to `count`.
  std::vector<uint32_t> histogram;
};

enum class PartitionMode : uint8_t { kFactor = 0, kGrid = 1, kAdaptive = 2 };

struct PartitionSpec {
  PartitionMode mode = PartitionMode::kFactor;
  std::array<uint32_t, 3> dims{1, 1, 1};   // (Px,Py,Pz) in factor mode, (gx,gy,gz) in grid mode
  uint64_t particles_per_file = 0;         // adaptive mode: the target T
};
const char* partition_mode_name(PartitionMode m);   // "factor", "grid", "adaptive"
// The mode named so; anything else is an InvalidArgument error.
PartitionMode parse_partition_mode(const std::string& name);

// The histogram side h a write by R ranks uses in adaptive mode: the largest of 16, 8, 4, 2, 1
// with R * h^3 <= 2^18 cells, so the exchange and the planner stay small at any scale.
uint32_t adaptive_histogram_side(uint64_t ranks);
// Cell i of h along an axis of `extent` (clamped: positions on or past the max go to the last).
inline uint32_t histogram_cell(double x, double lo, double hi, uint32_t h) {
  const double f = (x - lo) / (hi - lo) * h;
  return f <= 0 ? 0u : (f >= h - 1 ? h - 1 : static_cast<uint32_t>(f));
}

// The binning rule of a plan as a value to call once per particle: partition_of without the
// per-call work (the cell widths computed once, no floor call). The same arithmetic as before
// (width = extent / cells, then (x - min) / width), so the same partition for every position.
struct PartitionBinner {
  const KdPartition* kd = nullptr;   // adaptive mode: the tree
  std::array<double, 3> min{}, width{};
  std::array<uint32_t, 3> grid{1, 1, 1};

  uint32_t operator()(const Vec3& p) const {
    if (kd) return kd->leaf_of(p);
    uint32_t idx[3];
    for (int a = 0; a < 3; ++a) {
      const double f = (p[a] - min[a]) / width[a];   // its floor is the cell; below 1: cell 0
      idx[a] = f < 1 ? 0u : (f >= grid[a] - 1 ? grid[a] - 1 : static_cast<uint32_t>(f));
    }
    return idx[0] + grid[0] * (idx[1] + grid[1] * idx[2]);
  }
};

struct ParticlePlan {
  Box domain;
  std::array<uint32_t, 3> grid{1, 1, 1};   // partitions per axis
  bool aligned = true;                     // every sending rank sends to one partition
  std::vector<Box> partitions;             // box of partition p
  std::vector<Box> tiles;                  // adaptive mode: the tile of partition p (else empty)
  std::shared_ptr<const KdPartition> kd;   // adaptive mode: the tree partition_of descends
  std::vector<int32_t> aggregator;         // rank of partition p, -1 when nobody sends to it
  // CSR lists: partitions rank r sends to (ascending), and ranks partition p receives from.
  std::vector<uint64_t> send_offsets;      // size R + 1
  std::vector<uint32_t> send_partitions;
  std::vector<uint64_t> recv_offsets;      // size P + 1
  std::vector<int32_t> recv_ranks;

  uint32_t num_partitions() const { return static_cast<uint32_t>(partitions.size()); }
  std::span<const uint32_t> sends_of(int rank) const {
    return {send_partitions.data() + send_offsets[rank], send_partitions.data() + send_offsets[rank + 1]};
  }
  std::span<const int32_t> senders_of(uint32_t partition) const {
    return {recv_ranks.data() + recv_offsets[partition], recv_ranks.data() + recv_offsets[partition + 1]};
  }
  std::vector<uint32_t> partitions_of_aggregator(int rank) const;
  // The partition a position falls in (the binning rule above); binner() for many positions.
  uint32_t partition_of(const Vec3& p) const { return binner()(p); }
  PartitionBinner binner() const;
  uint32_t num_aggregators() const;
  // True when partition p's only sender is its own aggregator: nothing has to move.
  bool aggregated_in_place(uint32_t p) const {
    const auto senders = senders_of(p);
    return aggregator[p] >= 0 && senders.size() == 1 && senders[0] == aggregator[p];
  }
};

// Throws InvalidArgument when the spec does not fit the ranks (factor mode on patches that do
// not tile a lattice, a factor that does not divide the patch count, a patch outside D, an
// adaptive target of 0, a histogram that does not add up, ...).
ParticlePlan plan_particle_write(const Box& domain, const PartitionSpec& spec, std::span<const RankInput> ranks);

// The plan of the last step, kept for the next. Factor and grid plans depend on the domain, the
// spec, and every rank's patch, whether it was given and whether the rank holds particles; not
// on how many it holds. A step whose ranks report all of those unchanged (the usual case: a
// simulation's decomposition moves rarely) gets the last plan back instead of a new one (a
// factor plan for 262,144 simulated ranks takes 10-20 ms on each of them, the comparison about
// a tenth of that). Adaptive plans balance the counts and are always made anew.
class ParticlePlanCache {
 public:
  // plan_particle_write(domain, spec, ranks), or the last step's plan when it would be the same.
  std::shared_ptr<const ParticlePlan> plan(const Box& domain, const PartitionSpec& spec,
                                           std::span<const RankInput> ranks);
  bool reused() const { return reused_; }   // whether the last call returned the kept plan

 private:
  struct RankKey {   // what a factor or grid plan reads of a rank (no padding: compared bytewise)
    double patch[6];
    uint64_t flags;   // bit 0: patch given, bit 1: holds particles
  };
  static RankKey key_of(const RankInput& in);
  bool matches(const Box& domain, const PartitionSpec& spec, std::span<const RankInput> ranks) const;

  Box domain_{};
  PartitionSpec spec_{};
  std::vector<RankKey> keys_;
  std::shared_ptr<const ParticlePlan> plan_;
  bool reused_ = false;
};

}  // namespace lodex
