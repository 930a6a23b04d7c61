#include "layout/grid_plan.hpp"

#include <algorithm>
#include <map>

#include "core/error.hpp"

namespace lodex {

namespace {

constexpr int kMaxBrickIndexBits = 22;   // at most 4 M bricks

int ceil_log2(uint64_t v) {
  int b = 0;
  while ((uint64_t{1} << b) < v) ++b;
  return b;
}
int floor_log2(uint64_t v) { return v <= 1 ? 0 : 63 - __builtin_clzll(v); }

std::vector<const GridBox*> nonempty(const std::vector<GridBox>& boxes) {
  std::vector<const GridBox*> out;
  for (const auto& b : boxes)
    if (!b.empty()) out.push_back(&b);
  return out;
}

// Bits of a Morton code built from the least significant end: x, y, z in turn while each lasts.
uint64_t morton(const std::array<uint64_t, 3>& c, const std::array<int, 3>& bits) {
  uint64_t k = 0;
  int out = 0;
  for (int i = 0; i < 64; ++i)
    for (int a = 0; a < 3; ++a)
      if (i < bits[a]) k |= ((c[a] >> i) & 1) << out++;
  return k;
}

std::string prefix_for(RankOrder order, const std::array<int, 3>& q) {
  std::string s;
  switch (order) {
    case RankOrder::kRowMajor:
      for (int a = 2; a >= 0; --a) s.append(q[a], static_cast<char>('0' + a));
      break;
    case RankOrder::kColumnMajor:
      for (int a = 0; a < 3; ++a) s.append(q[a], static_cast<char>('0' + a));
      break;
    case RankOrder::kMorton:   // the reverse of morton()'s bit order
      for (int i = 0; i < 64; ++i)
        for (int a = 0; a < 3; ++a)
          if (i < q[a]) s.push_back(static_cast<char>('0' + a));
      std::reverse(s.begin(), s.end());
      break;
  }
  return s;
}

}  // namespace

uint64_t GridBox::volume() const {
  if (empty()) return 0;
  return static_cast<uint64_t>(hi[0] - lo[0]) * static_cast<uint64_t>(hi[1] - lo[1]) *
         static_cast<uint64_t>(hi[2] - lo[2]);
}

std::string box_text(const GridBox& b) {
  return cat("((", b.lo[0], ", ", b.lo[1], ", ", b.lo[2], "), (", b.hi[0], ", ", b.hi[1], ", ", b.hi[2], "))");
}

GridBox GridBox::intersect(const GridBox& o) const {
  GridBox r;
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = std::max(lo[a], o.lo[a]);
    r.hi[a] = std::min(hi[a], o.hi[a]);
  }
  return r;
}

const char* rank_order_name(RankOrder o) {
  switch (o) {
    case RankOrder::kRowMajor: return "row-major";
    case RankOrder::kColumnMajor: return "column-major";
    case RankOrder::kMorton: return "morton";
  }
  return "?";
}

const char* grid_aggregation_name(GridAggregation a) {
  return a == GridAggregation::kUniform ? "uniform" : "localized";
}

GridAggregation parse_grid_aggregation(const std::string& s) {
  if (s == "uniform") return GridAggregation::kUniform;
  if (s == "localized") return GridAggregation::kLocalized;
  fail(ErrorCode::kInvalidArgument, "aggregation must be 'uniform' or 'localized', not '", s, "'");
}

GridTemplate derive_template(const Coord3& dims, int ndims, const std::vector<GridBox>& boxes) {
  const std::string plain = HzIndex::default_bitmask(dims, ndims);
  std::array<int, 3> bits{0, 0, 0};
  for (int a = 0; a < ndims; ++a) bits[a] = ceil_log2(dims[a]);
  const int n = bits[0] + bits[1] + bits[2];
  const auto boxes_in = nonempty(boxes);
  GridTemplate t;
  t.derived = true;
  if (boxes_in.size() <= 1 || n == 0) {   // nothing to conform to: OpenVisus's default
    t.bitmask = plain;
    t.brick_bits = static_cast<int>(plain.size()) - 1;
    return t;
  }
  // A lattice? Cuts per axis from the boxes' lower corners; every box must be one cell.
  std::array<std::vector<int64_t>, 3> cuts;
  for (int a = 0; a < 3; ++a) {
    for (const GridBox* b : boxes_in) cuts[a].push_back(b->lo[a]);
    std::sort(cuts[a].begin(), cuts[a].end());
    cuts[a].erase(std::unique(cuts[a].begin(), cuts[a].end()), cuts[a].end());
    cuts[a].push_back(a < ndims ? static_cast<int64_t>(dims[a]) : 1);
  }
  std::array<uint64_t, 3> cells{cuts[0].size() - 1, cuts[1].size() - 1, cuts[2].size() - 1};
  bool lattice = cells[0] * cells[1] * cells[2] == boxes_in.size();
  std::vector<std::array<uint64_t, 3>> cell_of;
  for (const GridBox* b : boxes_in) {
    if (!lattice) break;
    std::array<uint64_t, 3> c{};
    for (int a = 0; a < 3; ++a) {
      const auto it = std::lower_bound(cuts[a].begin(), cuts[a].end(), b->lo[a]);
      c[a] = static_cast<uint64_t>(it - cuts[a].begin());
      if (c[a] + 1 >= cuts[a].size() || cuts[a][c[a] + 1] != b->hi[a]) lattice = false;
    }
    cell_of.push_back(c);
  }
  std::array<int, 3> q{0, 0, 0};   // prefix bits per axis
  if (lattice) {
    for (int a = 0; a < ndims; ++a) q[a] = std::min(ceil_log2(cells[a]), bits[a]);
    // Which numbering do the ranks follow? (Ordinals among the ranks that hold a box.)
    auto matches = [&](auto&& ordinal) {
      for (size_t k = 0; k < cell_of.size(); ++k)
        if (ordinal(cell_of[k]) != k) return false;
      return true;
    };
    const bool pow2 =
        (cells[0] & (cells[0] - 1)) == 0 && (cells[1] & (cells[1] - 1)) == 0 && (cells[2] & (cells[2] - 1)) == 0;
    if (matches([&](const auto& c) { return (c[2] * cells[1] + c[1]) * cells[0] + c[0]; }))
      t.order = RankOrder::kRowMajor;
    else if (matches([&](const auto& c) { return (c[0] * cells[1] + c[1]) * cells[2] + c[2]; }))
      t.order = RankOrder::kColumnMajor;
    else if (pow2 && matches([&](const auto& c) { return morton(c, q); })) t.order = RankOrder::kMorton;
  } else {
    // Bricks of the median box extent; the prefix indexes them row-major.
    for (int a = 0; a < ndims; ++a) {
      std::vector<int64_t> ext;
      for (const GridBox* b : boxes_in) ext.push_back(b->hi[a] - b->lo[a]);
      std::nth_element(ext.begin(), ext.begin() + ext.size() / 2, ext.end());
      q[a] = bits[a] - std::min(bits[a], floor_log2(static_cast<uint64_t>(ext[ext.size() / 2])));
    }
  }
  // At least one bit inside a brick, and not too many bricks.
  auto prefix_bits = [&] { return q[0] + q[1] + q[2]; };
  while (prefix_bits() >= n || prefix_bits() > kMaxBrickIndexBits) {
    int a = 0;
    for (int b = 1; b < 3; ++b)
      if (q[b] > q[a]) a = b;
    --q[a];
  }
  Coord3 e{1, 1, 1};
  for (int a = 0; a < ndims; ++a) e[a] = uint64_t{1} << (bits[a] - q[a]);
  const std::string suffix = HzIndex::default_bitmask(e, ndims).substr(1);
  t.bitmask = "V" + prefix_for(t.order, q) + suffix;
  t.brick_bits = static_cast<int>(suffix.size());
  return t;
}

GridTemplate grid_template(const std::string& bitmask, const Coord3& dims, int ndims,
                           const std::vector<GridBox>& boxes) {
  return bitmask.empty() ? derive_template(dims, ndims, boxes) : user_template(bitmask, boxes);
}

GridTemplate user_template(const std::string& bitmask, const std::vector<GridBox>& boxes) {
  const HzIndex index(bitmask);
  GridTemplate t;
  t.bitmask = bitmask;
  const auto boxes_in = nonempty(boxes);
  uint64_t median = uint64_t{1} << index.maxh();
  if (boxes_in.size() > 1) {
    std::vector<uint64_t> v;
    for (const GridBox* b : boxes_in) v.push_back(b->volume());
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    median = v[v.size() / 2];
  }
  t.brick_bits = std::clamp(floor_log2(median), std::max(1, index.maxh() - kMaxBrickIndexBits), index.maxh());
  return t;
}

int grid_partition_bits(uint32_t partitions, const HzIndex& index) {
  if (partitions < 1 || (partitions & (partitions - 1)) != 0)
    fail(ErrorCode::kInvalidArgument, "partitions must be a power of two (1, 2, 4, ...), got ", partitions);
  const int k = floor_log2(partitions);
  if (k >= index.maxh())
    fail(ErrorCode::kInvalidArgument, "partitions=", partitions, " splits the ", index.maxh(), "-character template ",
         index.text(), " too finely: at most ", uint64_t{1} << (index.maxh() - 1), " partitions");
  return k;
}

GridBox grid_partition_box(const HzIndex& index, int k, uint32_t q) {
  const int n = index.maxh();
  const Coord3 o = index.point_of_z(uint64_t{q} << (n - k));
  const Coord3 e = HzIndex("V" + index.text().substr(1 + k)).pow2_dims();
  GridBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = static_cast<int64_t>(o[a]);
    b.hi[a] = static_cast<int64_t>(o[a] + e[a]);
  }
  return b;
}

std::vector<uint32_t> grid_rank_partitions(const HzIndex& index, int k, const std::vector<GridBox>& boxes) {
  const uint32_t P = uint32_t{1} << k;
  std::vector<uint32_t> out(boxes.size());
  for (size_t r = 0; r < boxes.size(); ++r) {
    const GridBox& b = boxes[r];
    if (b.empty()) {
      out[r] = static_cast<uint32_t>(r % P);
      continue;
    }
    Coord3 lo{};
    for (int a = 0; a < 3; ++a) lo[a] = static_cast<uint64_t>(std::max<int64_t>(0, b.lo[a]));
    const uint32_t q = static_cast<uint32_t>(index.z_of(lo) >> (index.maxh() - k));
    const GridBox pb = grid_partition_box(index, k, q);
    if (!(b.intersect(pb) == b))
      fail(ErrorCode::kInvalidArgument, "rank ", r, "'s box ", box_text(b), " crosses the boundary of partition ", q,
           " ", box_text(pb), ": with partitions=", P, " (the first ", k, " characters of the template ", index.text(),
           ") every box must lie inside one partition");
    out[r] = q;
  }
  return out;
}

int GridPlan::collector(const GridUnit& u, int rank) const {
  const uint32_t q = rank_part_[rank];
  for (const auto& [part, r] : u.merge)
    if (part == q) return r;
  return u.aggregator;
}

GridPlan::GridPlan(GridPlanInput in) : in_(std::move(in)) {
  index_ = std::make_shared<const HzIndex>(in_.tmpl.bitmask);
  const HzIndex& hz = *index_;
  const int n = hz.maxh();
  hz.require_fits(in_.dims, 3);
  if (in_.bits_per_block < 1 || in_.bits_per_block > std::min(n, 31))
    fail(ErrorCode::kInvalidArgument, "bits_per_block ", in_.bits_per_block, " does not fit a grid of 2^", n,
         " samples (bitmask ", hz.text(), "): use 1..", std::min(n, 31));
  if (in_.blocks_per_file < 1) fail(ErrorCode::kInvalidArgument, "blocks_per_file must be at least 1");
  if (in_.fields < 1) fail(ErrorCode::kInvalidArgument, "a grid needs at least one field");
  if (in_.boxes.empty()) fail(ErrorCode::kInvalidArgument, "a grid write needs at least one rank");
  bpb_ = in_.bits_per_block;
  k_ = grid_partition_bits(in_.partitions, hz);
  p_ = std::clamp(in_.tmpl.brick_bits, 1, n - k_);   // a brick lies inside one partition
  local_ = std::make_shared<const HzIndex>("V" + hz.text().substr(1 + n - p_));
  extent_ = local_->pow2_dims();

  // Boxes inside the grid.
  const GridBox grid{
      {0, 0, 0},
      {static_cast<int64_t>(in_.dims[0]), static_cast<int64_t>(in_.dims[1]), static_cast<int64_t>(in_.dims[2])}};
  uint64_t covered = 0;
  for (size_t r = 0; r < in_.boxes.size(); ++r) {
    const GridBox& b = in_.boxes[r];
    for (int a = 0; a < 3; ++a)
      if (b.hi[a] < b.lo[a])
        fail(ErrorCode::kInvalidArgument, "rank ", r, "'s box ", box_text(b), " has max < min on axis ", "xyz"[a]);
    if (b.empty()) continue;
    if (!(b.intersect(grid) == b))
      fail(ErrorCode::kInvalidArgument, "rank ", r, "'s box ", box_text(b), " is outside the ", in_.dims[0], " x ",
           in_.dims[1], " x ", in_.dims[2], " grid");
    covered += b.volume();
  }
  rank_part_ = grid_rank_partitions(hz, k_, in_.boxes);
  owner_.assign(size_t{1} << (n - p_), -1);
  owned_.assign(in_.boxes.size(), {});
  assign_owners();
  const uint64_t total = grid.volume();
  if (covered != total)
    fail(ErrorCode::kInvalidArgument, "the ranks' boxes cover ", covered, " samples of the ", total,
         "-sample grid: together they must cover it exactly");
  std::vector<uint8_t> present(blocks());
  for (uint64_t b = 0; b < blocks(); ++b) present[b] = block_present(b) ? 1 : 0;   // from the block boxes
  present_ = std::move(present);
  for (uint64_t f = 0; f < file_slots(); ++f) {
    const uint64_t last = std::min(blocks(), (f + 1) * in_.blocks_per_file);
    for (uint64_t b = f * in_.blocks_per_file; b < last; ++b)
      if (present_[b]) {
        files_.push_back(f);
        break;
      }
  }
  assign_units();
}

GridBox GridPlan::brick_box(uint64_t brick) const {
  const Coord3 o = index_->point_of_z(brick << p_);
  GridBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = static_cast<int64_t>(o[a]);
    b.hi[a] = static_cast<int64_t>(o[a] + extent_[a]);
  }
  return b;
}

std::vector<uint64_t> GridPlan::bricks_meeting(const GridBox& box) const {
  std::vector<uint64_t> out;
  if (box.empty()) return out;
  std::array<int64_t, 3> c0{}, c1{};
  for (int a = 0; a < 3; ++a) {
    const int64_t e = static_cast<int64_t>(extent_[a]);
    const int64_t top = static_cast<int64_t>(index_->pow2_dims()[a]);
    c0[a] = std::max<int64_t>(0, box.lo[a]) / e;
    c1[a] = (std::min(box.hi[a], top) + e - 1) / e;
  }
  for (int64_t z = c0[2]; z < c1[2]; ++z)
    for (int64_t y = c0[1]; y < c1[1]; ++y)
      for (int64_t x = c0[0]; x < c1[0]; ++x)
        out.push_back(index_->z_of({static_cast<uint64_t>(x) * extent_[0], static_cast<uint64_t>(y) * extent_[1],
                                    static_cast<uint64_t>(z) * extent_[2]}) >>
                      p_);
  std::sort(out.begin(), out.end());
  return out;
}

void GridPlan::assign_owners() {
  // Each brick goes to the rank holding most of it (the lowest such rank); two boxes that
  // overlap share a brick, so checking the boxes meeting each brick finds every overlap.
  std::vector<uint64_t> best(owner_.size(), 0);
  std::vector<std::vector<int>> meeting(owner_.size());
  for (size_t r = 0; r < in_.boxes.size(); ++r) {
    const GridBox& b = in_.boxes[r];
    for (uint64_t brick : bricks_meeting(b)) {
      const uint64_t v = brick_box(brick).intersect(b).volume();
      if (v == 0) continue;
      for (int other : meeting[brick])
        if (!in_.boxes[other].intersect(b).empty())
          fail(ErrorCode::kInvalidArgument, "rank ", r, "'s box ", box_text(b), " overlaps rank ", other, "'s box ",
               box_text(in_.boxes[other]));
      meeting[brick].push_back(static_cast<int>(r));
      if (v > best[brick]) {
        best[brick] = v;
        owner_[brick] = static_cast<int>(r);
      }
    }
  }
  for (uint64_t brick = 0; brick < owner_.size(); ++brick)
    if (owner_[brick] >= 0) owned_[owner_[brick]].push_back(brick);
}

bool GridPlan::block_present(uint64_t b) const {
  if (b < present_.size()) return present_[b] != 0;
  const StridedBox bb = index_->block_box(b, bpb_);
  for (int a = 0; a < 3; ++a) {
    uint64_t i0, i1;
    span_within(bb.start[a], bb.stride[a], bb.count[a], 0, static_cast<int64_t>(in_.dims[a]), i0, i1);
    if (i1 == 0) return false;
  }
  return true;
}

bool GridPlan::block_partial(uint64_t b) const {
  const StridedBox bb = index_->block_box(b, bpb_);
  for (int a = 0; a < 3; ++a) {
    uint64_t i0, i1;
    span_within(bb.start[a], bb.stride[a], bb.count[a], 0, static_cast<int64_t>(in_.dims[a]), i0, i1);
    if (i1 < bb.count[a]) return true;
  }
  return false;
}

namespace {
// Appends `run` (inside one file) without the parts in blocks holding no grid sample.
// Runs merge only inside one file (fs samples).
template <class Present>
void emit_present(const BrickRun& run, int bpb, uint64_t fs, const Present& present, std::vector<BrickRun>& out) {
  uint64_t g = run.global;
  const uint64_t end = run.global + run.count;
  while (g < end) {
    const uint64_t block = g >> bpb;
    const uint64_t stop = std::min(end, (block + 1) << bpb);
    if (present(block)) {
      BrickRun* last = out.empty() ? nullptr : &out.back();
      if (last && last->brick == run.brick && last->global + last->count == g && last->global / fs == g / fs) {
        last->count += stop - g;
      } else {
        out.push_back({run.brick, run.local + (g - run.global), g, stop - g});
      }
    }
    g = stop;
  }
}
}  // namespace

std::vector<BrickRun> GridPlan::brick_runs(uint64_t brick) const {
  const int n = index_->maxh();
  const uint64_t fs = file_samples();
  auto present = [&](uint64_t b) { return present_[b] != 0; };
  std::vector<BrickRun> out;
  const uint64_t v = (brick << p_) | (uint64_t{1} << n);
  emit_present({brick, 0, v >> (__builtin_ctzll(v) + 1), 1}, bpb_, fs, present, out);
  for (int h = 1; h <= p_; ++h) {
    const uint64_t len = uint64_t{1} << (h - 1);
    uint64_t g = (uint64_t{1} << (n - p_ + h - 1)) + (brick << (h - 1)), local = len;
    const uint64_t end = g + len;
    while (g < end) {   // cut at file boundaries
      const uint64_t stop = std::min(end, (g / fs + 1) * fs);
      emit_present({brick, local, g, stop - g}, bpb_, fs, present, out);
      local += stop - g;
      g = stop;
    }
  }
  return out;
}

const std::vector<BrickRun>& GridPlan::file_runs(uint64_t file) const {
  static const std::vector<BrickRun> none;
  const auto it = std::lower_bound(files_.begin(), files_.end(), file);
  return it != files_.end() && *it == file ? file_runs_[it - files_.begin()] : none;
}

std::vector<BrickRun> GridPlan::runs_in_file(uint64_t file) const {
  const int n = index_->maxh();
  const uint64_t fs = file_samples();
  const uint64_t A = file * fs, B = A + fs;
  auto present = [&](uint64_t b) { return present_[b] != 0; };
  std::vector<BrickRun> out;
  // Coarse region: hz < 2^(n-p) are the bricks' first samples, one per brick.
  const uint64_t coarse = uint64_t{1} << (n - p_);
  for (uint64_t g = A; g < std::min(B, coarse); ++g) {
    const uint64_t brick = index_->z_of(index_->point_of_hz(g)) >> p_;
    if (owner_[brick] >= 0) emit_present({brick, 0, g, 1}, bpb_, fs, present, out);
  }
  for (int h = 1; h <= p_; ++h) {
    const int H = n - p_ + h;
    const uint64_t base = uint64_t{1} << (H - 1), len = uint64_t{1} << (h - 1);
    const uint64_t lo = std::max(A, base), hi = std::min(B, base << 1);
    if (lo >= hi) continue;
    for (uint64_t brick = (lo - base) >> (h - 1); brick <= (hi - 1 - base) >> (h - 1); ++brick) {
      if (owner_[brick] < 0) continue;
      const uint64_t g0 = std::max(lo, base + (brick << (h - 1))), g1 = std::min(hi, base + ((brick + 1) << (h - 1)));
      emit_present({brick, len + (g0 - base - (brick << (h - 1))), g0, g1 - g0}, bpb_, fs, present, out);
    }
  }
  return out;
}

void GridPlan::assign_units() {
  // One claim per (unit, partition with samples in the unit's file): a rank of that partition
  // collects them. The first claim of a unit (lowest partition) is its aggregator.
  struct Claim {
    size_t unit;
    uint32_t part;
    int g0, g1;   // owners of the partition's bricks in the file
  };
  const int R = ranks();
  const uint32_t F = in_.fields;
  std::vector<Claim> claims;
  for (uint64_t f : files_) {
    file_runs_.push_back(runs_in_file(f));
    int g0 = R, g1 = -1;
    std::map<uint32_t, std::pair<int, int>> parts;
    for (const BrickRun& r : file_runs_.back()) {
      const int o = owner_[r.brick];
      g0 = std::min(g0, o);
      g1 = std::max(g1, o);
      auto& pr = parts.try_emplace(partition_of_brick(r.brick), o, o).first->second;
      pr = {std::min(pr.first, o), std::max(pr.second, o)};
    }
    if (g1 < 0) {   // cannot happen with full coverage; keeps the unit well formed
      g0 = g1 = 0;
      parts[rank_part_[0]] = {0, 0};
    }
    for (uint32_t i = 0; i < F; ++i) {
      units_.push_back({f, i, 0, g0, g1, {}});
      for (const auto& [q, pr] : parts) claims.push_back({units_.size() - 1, q, pr.first, pr.second});
    }
  }
  std::vector<int> chosen(claims.size(), -1);
  if (in_.aggregation == GridAggregation::kUniform) {
    // Each partition spreads its claims evenly over its ranks (all ranks when unpartitioned).
    std::vector<std::vector<int>> members(size_t{1} << k_);
    for (int r = 0; r < R; ++r) members[rank_part_[r]].push_back(r);
    std::vector<std::vector<size_t>> of_part(members.size());
    for (size_t c = 0; c < claims.size(); ++c) of_part[claims[c].part].push_back(c);
    for (size_t q = 0; q < of_part.size(); ++q) {
      const uint64_t nq = of_part[q].size(), m = members[q].size();
      for (uint64_t i = 0; i < nq; ++i) chosen[of_part[q][i]] = members[q][i * m / nq];
    }
  } else {
    // Localized: field i of a file goes to the centre of the i-th of F equal slices of the
    // partition's group; a rank already aggregating passes the claim on to the next idle rank
    // of the group (ranks of other partitions are skipped).
    std::vector<uint32_t> load(R, 0);
    for (size_t c = 0; c < claims.size(); ++c) {
      const Claim& cl = claims[c];
      const uint32_t field = units_[cl.unit].field;
      const uint64_t ng = static_cast<uint64_t>(cl.g1 - cl.g0 + 1);
      const uint64_t slot = ((2 * uint64_t{field} + 1) * ng) / (2 * uint64_t{F});
      int pick = -1;
      uint32_t least = UINT32_MAX;
      for (uint64_t t = 0; t < ng; ++t) {
        const int r = cl.g0 + static_cast<int>((slot + t) % ng);
        if (rank_part_[r] != cl.part) continue;
        if (load[r] < least) {
          least = load[r];
          pick = r;
          if (least == 0) break;
        }
      }
      chosen[c] = pick;
      ++load[pick];
    }
  }
  // A unit of one partition: its claim's rank. A shared unit: the collector writing the fewest
  // units so far writes it (the first such partition), the other collectors send it theirs.
  std::vector<uint32_t> writes(R, 0);
  for (size_t c0 = 0, c1; c0 < claims.size(); c0 = c1) {
    c1 = c0 + 1;
    while (c1 < claims.size() && claims[c1].unit == claims[c0].unit) ++c1;
    size_t best = c0;
    for (size_t c = c0 + 1; c < c1; ++c)
      if (writes[chosen[c]] < writes[chosen[best]]) best = c;
    GridUnit& u = units_[claims[c0].unit];
    u.aggregator = chosen[best];
    ++writes[chosen[best]];
    for (size_t c = c0; c < c1; ++c)
      if (c != best) u.merge.push_back({claims[c].part, chosen[c]});
  }
}

}  // namespace lodex
