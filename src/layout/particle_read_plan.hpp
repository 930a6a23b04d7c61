// Planning of particle reads (paper §3.4 and §4): which files and bricks a box query touches,
// how a level of detail or a fraction is spread fairly over them, and how the work is split
// among n readers. Pure: no files, no MPI. The read pipeline (pipelines/particles/particle_query.cpp)
// feeds it the spatial metadata and the file heads and executes the result.
//
// The sample. The candidate particles of a query (every particle of every brick that meets the
// box) are laid on one line in spatial order: files by the Morton code of their partition box,
// bricks by brick index (also Morton) inside a file, and inside a brick the file's own order
// (levels, then random). A brick's particles on the line are therefore a uniformly random
// sequence of that brick's particles, and any prefix of it a uniform random sample of it.
// A read of T particles takes from every brick the prefix that a nested, evenly spread choice of
// T slots of the line puts there (NestedSampler): each brick gets T × its share, within a few
// particles, at every T; a larger T takes a superset. Levels and fractions are values of T.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/box.hpp"
#include "layout/lod_order.hpp"

namespace lodex {

// The whole of space: a box=None read.
Box unbounded_box();

// Whether particles with these bounds (max inclusive, as in the spatial metadata) may lie in
// `query` (max exclusive).
bool bounds_meet(const Box& bounds, const Box& query);

// Expected particles of a file inside `query`, assuming they are spread evenly over `bounds`
// (an axis of zero extent counts 1 if its coordinate is inside, else 0).
double estimated_inside(const Box& bounds, uint64_t count, const Box& query);

// A brick of a data file that may hold particles of the query box.
struct BrickPick {
  uint32_t brick = 0;   // brick index (Morton code of its cell)
  bool inside = false;  // every particle of this brick is inside the box: no row test needed
};
// Bricks of a file (its brick grid and particle bounds) that may hold particles of `query`,
// ascending by brick index. Exact: a brick is listed iff its cell range meets the box under the
// writer's cell() expression, and `inside` is proven from cell ranges and the file's bounds.
std::vector<BrickPick> bricks_meeting(const BrickGrid& grid, const Box& bounds, const Box& query);

// A nested, evenly spread order of the N slots 0..N-1 of a line: the base-2 radical inverse
// (bit reversal over M bits, 2^M >= N) of 0, 1, 2, ..., skipping values >= N. The first 2^m
// values are evenly spaced, so the first T slots of the order put T × (b - a) / N ± O(log N)
// of them in any interval [a, b), and the first T are a subset of the first T + 1.
class NestedSampler {
 public:
  explicit NestedSampler(uint64_t n);
  // The first t slots of the order (t > N counts as N), as an opaque cut of the order.
  struct Prefix {
    uint64_t k = 0;
  };
  Prefix prefix(uint64_t t) const;
  // How many slots of the prefix fall in [a, b) (a <= b <= N).
  uint64_t count(Prefix p, uint64_t a, uint64_t b) const { return below(p.k, b) - below(p.k, a); }

 private:
  uint64_t below(uint64_t k, uint64_t x) const;   // #{j < k : reverse(j) < x}
  uint64_t n_ = 0;
  uint32_t bits_ = 0;
};

// The paper's levels for a read by `readers` processes: level l holds at most
// x(n, l) = floor(n · P · S^l) particles of the query; levels 0..l together at most the sum.
struct LodRequest {
  uint64_t readers = 1;   // n
  uint64_t P = 32;        // particles per reader in level 0
  double S = 2;           // growth from one level to the next (> 1)
};
void validate(const LodRequest& r);
// Particles in levels 0..level together (saturating), before capping by the candidates.
uint64_t level_prefix(const LodRequest& r, uint32_t level);
// Levels of a query with `candidates` particles: the least L with level_prefix(L - 1) >= N (1 if N = 0).
uint32_t level_count(const LodRequest& r, uint64_t candidates);
void validate_fraction(double f);   // 0 < f <= 1
// Particles to take for a fraction 0 < f <= 1 of `candidates` (at least 1 when there are any).
uint64_t fraction_target(double f, uint64_t candidates);

// The rows of one brick's sequence [from, to) (positions in the brick's line order) as ranges
// of file rows, one per level the range touches: segment s = level * 8^b + brick.
struct RowPiece {
  uint64_t segment = 0;
  uint64_t first = 0, last = 0;   // file rows [first, last) taken from the segment
  bool whole = false;             // the piece is the whole segment
};
void brick_pieces(const std::vector<uint64_t>& segment_starts, uint32_t num_levels, uint64_t num_bricks, uint32_t brick,
                  uint64_t from, uint64_t to, std::vector<RowPiece>& out);
// Particles of a brick over all levels.
uint64_t brick_count(const std::vector<uint64_t>& segment_starts, uint32_t num_levels, uint64_t num_bricks,
                     uint32_t brick);

// Spatial order of files: Morton code of the centre of `box` inside `domain`, 21 bits per axis.
uint64_t spatial_key(const Box& box, const Box& domain);

// Work split, spatial: `query` cut into n disjoint boxes (half-open, covering it; faces of the
// query stay as they are, infinite ones included) by recursive bisection of its longest axis,
// each cut placed so both sides hold the share of the estimated particles (from the files'
// bounds and counts) that matches their reader count. Part r goes to reader r. A cut moves to
// the nearest brick face of the file it crosses with the most particles when that changes the
// balance by at most kSnapTolerance of the region's particles: a brick cut in two would be read
// by both readers.
struct FileExtent {
  Box bounds;          // max inclusive
  uint64_t count = 0;
  Box grid = Box::nothing();   // the file's brick grid (BrickGrid), if known
  uint32_t grid_bits = 0;
};
inline constexpr double kSnapTolerance = 0.02;
std::vector<Box> spatial_split(const Box& query, const std::vector<FileExtent>& files, uint32_t n);

// Work split, balanced bytes: files laid end to end, each as long as its estimated particles in
// the query (at least 1); reader r takes positions [cut(r), cut(r + 1)) with cut(r) = floor(r·W/n).
// A brick belongs to the reader whose range holds the brick's scaled start inside its file.
class ByteSplit {
 public:
  ByteSplit(const std::vector<uint64_t>& file_weights, uint32_t n);
  bool reader_touches(uint32_t reader, size_t file) const;   // the file's range meets the reader's
  // Owner of a brick that starts `before` candidate particles into a file with `total` of them.
  uint32_t owner(size_t file, uint64_t before, uint64_t total) const;

 private:
  std::vector<uint64_t> start_;   // per file, then the end
  std::vector<uint64_t> cut_;     // n + 1 cuts
};

}  // namespace lodex
