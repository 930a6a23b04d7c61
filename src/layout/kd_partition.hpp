// Adaptive aggregation partitions (paper §6, and the k-d tree of its authors' later libbat):
// the domain cut by a k-d tree into `parts` disjoint boxes holding about equal numbers of
// particles, built from what the ranks report: boxes with particle counts (a rank's extent, or
// the cells of a coarse histogram over it), each count assumed spread evenly over its box.
// Pure: no MPI, no files.
//
// Build. A node holding weight W that must become m parts is cut on the longest axis of the hull
// of its weighted boxes, at the coordinate c where the weight left of c is W·floor(m/2)/m (the
// weight left of c is piecewise linear in c: found exactly by a sweep over the sorted box faces),
// or at a rank's extent face nearby (kSnapImbalance) so that rank sends to one side only. Boxes that
// straddle c are split in proportion. A node that cannot be cut (all its weight on one
// plane of every axis, e.g. every particle at one point) stays one part, so the tree may have
// fewer leaves than asked for; a node with no weight is never cut.
//
// Leaves tile the domain: every point of the domain is in exactly one leaf's `tile` (half-open),
// found by descending the cuts (`leaf_of`). `hull[l]` is the part of the tile its weighted boxes
// cover: the box a leaf's particles are in (the partition box written to the metadata).
#pragma once

#include <cstdint>
#include <vector>

#include "core/box.hpp"

namespace lodex {

struct WeightedBox {
  Box box;               // non-empty, half-open
  double weight = 0;     // particles in it
  // Faces a cut may snap to (bit 2a: the min face on axis a, bit 2a+1: the max face): the faces
  // of a rank's extent, so that cutting there leaves the rank whole on one side.
  uint8_t snap_faces = 0x3f;
};

// Snapping cuts to rank faces may unbalance the leaves by at most this factor (estimated): with
// a tree of depth d, a cut moves to a snap face when each side's weight then stays within
// kSnapImbalance^(1/d) of its target. Aligned ranks send to one aggregator without binning.
inline constexpr double kSnapImbalance = 1.15;

class KdPartition {
 public:
  // `items` boxes must lie inside `domain`; parts >= 1.
  KdPartition(const Box& domain, std::vector<WeightedBox> items, uint32_t parts);

  uint32_t num_leaves() const { return static_cast<uint32_t>(tile_.size()); }
  const Box& tile(uint32_t leaf) const { return tile_[leaf]; }
  const Box& hull(uint32_t leaf) const { return hull_[leaf]; }      // Box::nothing() when weightless
  double weight(uint32_t leaf) const { return weight_[leaf]; }      // estimated particles
  // The leaf whose tile holds p (points outside the domain go to the nearest tile on each cut).
  uint32_t leaf_of(const Vec3& p) const;
  // Leaves whose tiles meet the half-open box b, ascending.
  void leaves_meeting(const Box& b, std::vector<uint32_t>& out) const;

 private:
  static constexpr int kMaxDepth = 64;   // deeper nodes stay leaves
  struct Node {
    int axis = -1;          // -1: leaf
    double cut = 0;         // left: x < cut
    uint32_t left = 0, right = 0;   // child nodes, or (leaf) the leaf index in `left`
  };
  uint32_t build(const Box& region, std::vector<WeightedBox>& items, uint32_t parts, int depth);
  double snap_share_ = 0;   // per-level tolerance derived from kSnapImbalance

  std::vector<Node> nodes_;
  std::vector<Box> tile_, hull_;
  std::vector<double> weight_;
};

}  // namespace lodex
