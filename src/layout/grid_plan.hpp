// Planning a parallel IDX write (Kumar et al. 2017 "indexing templates": §II-§III, §V; Kumar et al. 2011 "parallel
// IDX writer"). Pure: every rank computes the same plan from every rank's box, so the plan is
// tested with thousands of simulated ranks and no mpiexec.
//
// Bricks. The last p characters of the indexing template index the samples inside a brick: an
// aligned box of 2^p samples whose shape those characters give. Brick beta is the set of points
// whose Z address is in [beta * 2^p, (beta + 1) * 2^p); in every level it holds one contiguous
// run of hz addresses, and inside it the samples are in the hz order of the local template
// "V" + (last p characters). Each brick meeting the grid has one owner rank (the rank holding
// most of it); ranks send the parts of their boxes lying in other ranks' bricks to those owners
// first ("restructuring", Kumar et al. 2017 §V), so every owner then holds whole bricks.
//
// Units. A unit is one field of one binary file: 2^bpb * blocks_per_file consecutive hz
// addresses. Its aggregator receives the runs of every brick meeting it, compresses the blocks
// if asked, and writes that field's part of the file. Uniform aggregation spreads units evenly
// over the ranks (earlier work); localized aggregation picks each unit's aggregator inside the
// file's aggregation group, the ranks owning bricks of the file, uniform in rank space on every
// level (Kumar et al. 2017 §III-B).
//
// Partitions (Kumar et al. 2017 §IV). With R = 2^k partitions, the first k template characters split the
// grid into R aligned boxes; every rank's box lies in one of them (ranks without samples are
// dealt round-robin). A file whose samples all lie in one partition is aggregated by a rank of
// that partition. A file holding samples of several partitions (the coarse blocks every partition
// shares) is first gathered per partition by one rank of it, then merged at the file's
// aggregator (the collector writing the fewest units so far): the runs of each partition arrive
// from that partition's collector.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layout/hz.hpp"

namespace lodex {

// Samples lo <= p < hi of a grid (integers; x first). Empty when any hi <= lo.
struct GridBox {
  std::array<int64_t, 3> lo{0, 0, 0}, hi{0, 0, 0};
  bool empty() const { return !(lo[0] < hi[0] && lo[1] < hi[1] && lo[2] < hi[2]); }
  uint64_t volume() const;
  GridBox intersect(const GridBox& o) const;
  bool operator==(const GridBox&) const = default;
};
// "((x0, y0, z0), (x1, y1, z1))" for error messages.
std::string box_text(const GridBox& b);

enum class RankOrder { kRowMajor, kColumnMajor, kMorton };
const char* rank_order_name(RankOrder o);

// An indexing template and the number of its last characters that index inside a brick.
struct GridTemplate {
  std::string bitmask;
  int brick_bits = 0;                   // p
  RankOrder order = RankOrder::kRowMajor;
  bool derived = false;                 // built from the rank layout (else the user's)
};

// The rank-conforming template of Kumar et al. 2017 §III-B/§V. When the boxes tile the grid as a lattice
// of Px x Py x Pz cells, the prefix indexes the cells in the order the ranks are numbered
// (row-major: z bits, then y, then x; column-major: x, y, z; Morton: interleaved, z first), the
// suffix interleaves the bits of one cell's power-of-two extent (fully interleaved, x first at
// each step, as OpenVisus's default). One rank gets OpenVisus's default bitmask. Without a
// lattice, the bricks take the median box extent and the prefix is row-major.
GridTemplate derive_template(const Coord3& dims, int ndims, const std::vector<GridBox>& boxes);
// The user's bitmask with brick bits chosen so that a brick holds about one median box.
GridTemplate user_template(const std::string& bitmask, const std::vector<GridBox>& boxes);
// The template a grid write uses: the user's bitmask when given, else the derived one.
GridTemplate grid_template(const std::string& bitmask, const Coord3& dims, int ndims,
                           const std::vector<GridBox>& boxes);

enum class GridAggregation { kUniform, kLocalized };
const char* grid_aggregation_name(GridAggregation a);
GridAggregation parse_grid_aggregation(const std::string& s);

struct GridPlanInput {
  Coord3 dims{1, 1, 1};
  GridTemplate tmpl;
  int bits_per_block = 15;             // clamped to the template's length
  uint64_t blocks_per_file = 256;
  uint32_t fields = 1;
  GridAggregation aggregation = GridAggregation::kLocalized;
  std::vector<GridBox> boxes;          // one per rank (empty boxes allowed)
  uint32_t partitions = 1;             // a power of two (Kumar et al. 2017 §IV)
};

// Partitions along the template prefix: the first k characters of `index` (2^k partitions).
// The partition holding each rank's box (round-robin for empty boxes); throws InvalidArgument
// naming the rank when a box crosses a partition boundary.
std::vector<uint32_t> grid_rank_partitions(const HzIndex& index, int k, const std::vector<GridBox>& boxes);
// Partition q's box of the index space (may leave the grid: clip it with the grid's box).
GridBox grid_partition_box(const HzIndex& index, int k, uint32_t q);
// log2(partitions), after checking it is a power of two that leaves the template a character
// per partition.
int grid_partition_bits(uint32_t partitions, const HzIndex& index);

// A run of consecutive hz addresses of one brick, inside one file.
struct BrickRun {
  uint64_t brick = 0;
  uint64_t local = 0;      // first local hz inside the brick
  uint64_t global = 0;     // first global hz
  uint64_t count = 0;
};

struct GridUnit {
  uint64_t file = 0;       // first block = file * blocks_per_file
  uint32_t field = 0;
  int aggregator = 0;
  int group_first = 0, group_last = 0;   // ranks owning bricks of the file
  // A file shared by several partitions: (partition, collector) of each partition other than
  // the aggregator's; the collector gathers its partition's runs and sends them on to the
  // aggregator (the merge of the shared coarse blocks). Empty otherwise.
  std::vector<std::pair<uint32_t, int>> merge;
};

class GridPlan {
 public:
  // Validates the boxes (inside the grid, disjoint, covering it) and plans. Throws
  // InvalidArgument naming the rank and box at fault.
  explicit GridPlan(GridPlanInput in);

  const HzIndex& index() const { return *index_; }
  const HzIndex& local_index() const { return *local_; }   // "V" + the last p characters
  const GridPlanInput& input() const { return in_; }
  int ranks() const { return static_cast<int>(in_.boxes.size()); }
  int brick_bits() const { return p_; }
  int bits_per_block() const { return bpb_; }
  uint64_t blocks() const { return uint64_t{1} << (index_->maxh() - bpb_); }
  uint64_t file_slots() const { return (blocks() + in_.blocks_per_file - 1) / in_.blocks_per_file; }
  uint64_t file_samples() const { return in_.blocks_per_file << bpb_; }
  uint64_t bricks() const { return owner_.size(); }
  const Coord3& brick_extent() const { return extent_; }
  GridBox brick_box(uint64_t brick) const;        // whole brick (may leave the grid)
  int owner(uint64_t brick) const { return owner_[brick]; }   // -1: brick outside the grid
  const std::vector<uint64_t>& bricks_of(int rank) const { return owned_[rank]; }
  int partition_bits() const { return k_; }
  uint32_t partition_of_rank(int rank) const { return rank_part_[rank]; }
  uint32_t partition_of_brick(uint64_t brick) const {
    return static_cast<uint32_t>(brick >> (index_->maxh() - p_ - k_));
  }
  // The rank receiving `rank`'s runs of unit `u`: its partition's collector, else the aggregator.
  int collector(const GridUnit& u, int rank) const;
  // Bricks meeting `box` (e.g. a rank's box), ascending.
  std::vector<uint64_t> bricks_meeting(const GridBox& box) const;

  // Whether block b holds a sample of the grid (OpenVisus writes only those), and whether it
  // holds samples outside the grid too (those are zero).
  bool block_present(uint64_t b) const;   // (from the block's box; present_ caches it)
  bool block_partial(uint64_t b) const;
  // Files holding at least one present block, ascending.
  const std::vector<uint64_t>& files() const { return files_; }
  const std::vector<GridUnit>& units() const { return units_; }

  // Runs of `brick` in hz order, cut at file boundaries (file of a run: global / file_samples()).
  std::vector<BrickRun> brick_runs(uint64_t brick) const;
  // Runs of every owned brick inside file `file`, ascending by global hz (computed once, with
  // the aggregation groups; empty for a file holding no sample of the grid).
  const std::vector<BrickRun>& file_runs(uint64_t file) const;

 private:
  std::vector<BrickRun> runs_in_file(uint64_t file) const;
  void assign_owners();
  void assign_units();

  GridPlanInput in_;
  std::shared_ptr<const HzIndex> index_, local_;
  int p_ = 0, bpb_ = 0, k_ = 0;
  std::vector<uint32_t> rank_part_;
  Coord3 extent_{1, 1, 1};
  std::vector<int> owner_;
  std::vector<std::vector<uint64_t>> owned_;
  std::vector<uint8_t> present_;   // per block
  std::vector<uint64_t> files_;
  std::vector<std::vector<BrickRun>> file_runs_;   // per entry of files_
  std::vector<GridUnit> units_;
};

}  // namespace lodex
