#include "layout/kd_partition.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "core/error.hpp"

namespace lodex {

namespace {

// The coordinate on `axis` left of which `target` of the items' weight lies (each item's weight
// spread evenly over its box), or NaN when the weight never reaches the target; and the snap
// face whose left weight is within `tolerance` of the target and closest to it (NaN if none).
struct Cut {
  double snapped, exact;
};
Cut weighted_cut(const std::vector<WeightedBox>& items, int axis, double target, double tolerance) {
  struct Event {
    double at;
    double slope;   // change of d(weight)/dx
    bool snap;
  };
  std::vector<Event> events;
  events.reserve(2 * items.size());
  for (const auto& it : items) {
    const double lo = it.box.inclusive_min[axis], hi = it.box.exclusive_max[axis];
    if (!(it.weight > 0) || !(hi > lo)) continue;
    const double density = it.weight / (hi - lo);
    events.push_back({lo, density, ((it.snap_faces >> (2 * axis)) & 1) != 0});
    events.push_back({hi, -density, ((it.snap_faces >> (2 * axis + 1)) & 1) != 0});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.at < b.at; });
  double slope = 0, weight = 0, at = events.empty() ? 0 : events[0].at;
  double exact = std::nan(""), snapped = std::nan(""), snap_miss = tolerance;
  size_t i = 0;
  while (i < events.size()) {
    const double x = events[i].at;
    const double next = weight + slope * (x - at);
    if (std::isnan(exact) && slope > 0 && next >= target) exact = at + std::min((target - weight) / slope, x - at);
    weight = next;
    at = x;
    bool snap = false;
    while (i < events.size() && events[i].at == x) {
      snap |= events[i].snap;
      slope += events[i++].slope;
    }
    slope = std::max(slope, 0.0);   // rounding when the densities cancel
    if (snap && std::abs(weight - target) <= snap_miss) snap_miss = std::abs(weight - target), snapped = x;
    if (!std::isnan(exact) && weight > target + tolerance) break;   // no snap face can qualify further right
  }
  return {snapped, exact};
}

}  // namespace

KdPartition::KdPartition(const Box& domain, std::vector<WeightedBox> items, uint32_t parts) {
  if (parts < 1) fail(ErrorCode::kInvalidArgument, "an adaptive partition needs at least one part");
  if (domain.empty() || !domain.finite())
    fail(ErrorCode::kInvalidArgument, "domain ", to_string(domain), " must be finite with min < max on every axis");
  for (const auto& it : items) {
    if (!(it.weight >= 0) || !std::isfinite(it.weight))
      fail(ErrorCode::kInvalidArgument, "a weighted box has weight ", it.weight);
    if (it.weight > 0 && (it.box.empty() || !domain.contains(it.box)))
      fail(ErrorCode::kInvalidArgument, "weighted box ", to_string(it.box), " is empty or outside the domain ",
           to_string(domain));
  }
  items.erase(std::remove_if(items.begin(), items.end(), [](const WeightedBox& w) { return !(w.weight > 0); }),
              items.end());
  int depth = 0;
  while ((uint64_t{1} << depth) < parts) ++depth;
  snap_share_ = depth > 0 ? std::pow(kSnapImbalance, 1.0 / depth) - 1 : 0;
  build(domain, items, parts, 0);
}

uint32_t KdPartition::build(const Box& region, std::vector<WeightedBox>& items, uint32_t parts, int depth) {
  const uint32_t id = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back({});
  double total = 0;
  Box hull = Box::nothing();
  for (const auto& it : items) {
    total += it.weight;
    hull.extend(it.box);
  }
  if (parts > 1 && total > 0 && depth < kMaxDepth) {
    // Axes, longest extent of the hull first.
    std::array<int, 3> axes{0, 1, 2};
    const Vec3 size = hull.size();
    std::stable_sort(axes.begin(), axes.end(), [&](int a, int b) { return size[a] > size[b]; });
    const uint32_t left_parts = parts / 2;
    const double target = total * left_parts / parts;
    const double tolerance = snap_share_ * std::min(target, total - target);
    for (int axis : axes) {
      // Both sides must keep weight and a non-empty tile.
      auto usable = [&](double c) {
        return c > hull.inclusive_min[axis] && c < hull.exclusive_max[axis] && c > region.inclusive_min[axis] &&
               c < region.exclusive_max[axis];
      };
      const Cut cut = weighted_cut(items, axis, target, tolerance);
      const double c = usable(cut.snapped) ? cut.snapped : cut.exact;
      if (!usable(c)) continue;
      std::vector<WeightedBox> left, right;
      for (const auto& it : items) {
        const double lo = it.box.inclusive_min[axis], hi = it.box.exclusive_max[axis];
        if (hi <= c) {
          left.push_back(it);
        } else if (lo >= c) {
          right.push_back(it);
        } else {
          const double f = (c - lo) / (hi - lo);
          WeightedBox l = it, r = it;
          l.box.exclusive_max[axis] = c;
          l.weight = it.weight * f;
          l.snap_faces &= static_cast<uint8_t>(~(1u << (2 * axis + 1)));   // c is no extent face
          r.box.inclusive_min[axis] = c;
          r.weight = it.weight - l.weight;
          r.snap_faces &= static_cast<uint8_t>(~(1u << (2 * axis)));
          if (l.weight > 0) left.push_back(l);
          if (r.weight > 0) right.push_back(r);
        }
      }
      std::vector<WeightedBox>().swap(items);   // free before recursing
      Box lr = region, rr = region;
      lr.exclusive_max[axis] = c;
      rr.inclusive_min[axis] = c;
      const uint32_t l = build(lr, left, left_parts, depth + 1);
      const uint32_t r = build(rr, right, parts - left_parts, depth + 1);
      nodes_[id] = {axis, c, l, r};
      return id;
    }
  }
  // A leaf.
  nodes_[id] = {-1, 0, static_cast<uint32_t>(tile_.size()), 0};
  tile_.push_back(region);
  hull_.push_back(hull);
  weight_.push_back(total);
  return id;
}

uint32_t KdPartition::leaf_of(const Vec3& p) const {
  uint32_t n = 0;
  while (nodes_[n].axis >= 0) n = p[nodes_[n].axis] < nodes_[n].cut ? nodes_[n].left : nodes_[n].right;
  return nodes_[n].left;
}

void KdPartition::leaves_meeting(const Box& b, std::vector<uint32_t>& out) const {
  out.clear();
  if (b.empty()) return;
  uint32_t stack[kMaxDepth + 2];   // a depth-first walk holds at most one node per level, plus one
  size_t top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (n.axis < 0) {
      out.push_back(n.left);
      continue;
    }
    // Right first on the stack so the left subtree (lower leaf numbers) comes out first.
    if (b.exclusive_max[n.axis] > n.cut) stack[top++] = n.right;
    if (b.inclusive_min[n.axis] < n.cut) stack[top++] = n.left;
  }
}

}  // namespace lodex
