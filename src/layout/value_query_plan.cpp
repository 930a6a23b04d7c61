#include "layout/value_query_plan.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace lodex {

Tri classify_range(CmpOp op, double c, double vmin, double vmax) {
  switch (op) {
    case CmpOp::kLt: return vmax < c ? Tri::kSure : vmin >= c ? Tri::kNone : Tri::kCheck;
    case CmpOp::kLe: return vmax <= c ? Tri::kSure : vmin > c ? Tri::kNone : Tri::kCheck;
    case CmpOp::kGt: return vmin > c ? Tri::kSure : vmax <= c ? Tri::kNone : Tri::kCheck;
    case CmpOp::kGe: return vmin >= c ? Tri::kSure : vmax < c ? Tri::kNone : Tri::kCheck;
    case CmpOp::kEq: return (vmin == c && vmax == c) ? Tri::kSure : (c < vmin || c > vmax) ? Tri::kNone : Tri::kCheck;
    case CmpOp::kNe: return (c < vmin || c > vmax) ? Tri::kSure : (vmin == c && vmax == c) ? Tri::kNone : Tri::kCheck;
  }
  return Tri::kCheck;
}

Tri classify_file(const QueryNode& q, const RangeOf& range) {
  switch (q.kind) {
    case QueryNode::Kind::kCompare: {
      const auto [lo, hi] = range(q.field_index, q.bound_component);
      if (std::isnan(lo) || std::isnan(hi))   // every row NaN (or none): only != matches
        return q.op == CmpOp::kNe ? Tri::kSure : Tri::kNone;
      const Tri t = classify_range(q.op, q.value, lo, hi);
      // NaN rows may exist: they fail every comparison but !=, so only these verdicts are safe.
      if (q.op == CmpOp::kNe) return t == Tri::kNone ? Tri::kCheck : t;
      return t == Tri::kSure ? Tri::kCheck : t;
    }
    case QueryNode::Kind::kNot: {
      const Tri t = classify_file(q.kids.at(0), range);
      return t == Tri::kSure ? Tri::kNone : t == Tri::kNone ? Tri::kSure : Tri::kCheck;
    }
    case QueryNode::Kind::kAnd: {
      bool all_sure = true;
      for (const auto& k : q.kids) {
        const Tri t = classify_file(k, range);
        if (t == Tri::kNone) return Tri::kNone;
        all_sure = all_sure && t == Tri::kSure;
      }
      return all_sure ? Tri::kSure : Tri::kCheck;
    }
    case QueryNode::Kind::kOr: {
      bool all_none = true;
      for (const auto& k : q.kids) {
        const Tri t = classify_file(k, range);
        if (t == Tri::kSure) return Tri::kSure;
        all_none = all_none && t == Tri::kNone;
      }
      return all_none ? Tri::kNone : Tri::kCheck;
    }
  }
  return Tri::kCheck;
}

uint64_t BinChoice::sure_bins() const {
  uint64_t n = 0;
  for (const auto& [a, b] : sure) n += b - a;
  return n;
}

BinChoice choose_bins(uint32_t bins, const BinRangeOf& range, uint64_t nan_rows, CmpOp op, double c) {
  BinChoice out;
  auto add = [&](uint32_t b, Tri t) {
    if (t == Tri::kCheck) {
      out.check.push_back(b);
    } else if (t == Tri::kSure) {
      if (!out.sure.empty() && out.sure.back().second == b) ++out.sure.back().second;
      else out.sure.push_back({b, b + 1});
    }
  };
  auto add_group = [&](uint32_t first, uint32_t last) {   // bins all on one side of c
    if (first >= last) return;
    const Tri t = classify_range(op, c, range(first).first, range(last - 1).second);
    if (t == Tri::kCheck) {   // only when c is NaN: no shared verdict, classify bin by bin
      for (uint32_t b = first; b < last; ++b) add(b, classify_range(op, c, range(b).first, range(b).second));
    } else if (t == Tri::kSure) {
      if (!out.sure.empty() && out.sure.back().second == first) out.sure.back().second = last;
      else out.sure.push_back({first, last});
    }
  };
  // k: the first bin whose largest value is >= c; it holds c if its smallest is <= c.
  uint32_t lo = 0, hi = bins;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (range(mid).second < c) lo = mid + 1;
    else hi = mid;
  }
  const uint32_t k = lo;
  const bool holds = k < bins && range(k).first <= c;
  add_group(0, k);
  if (holds) add(k, classify_range(op, c, range(k).first, range(k).second));
  add_group(holds ? k + 1 : k, bins);
  out.nan_sure = op == CmpOp::kNe && nan_rows > 0;
  return out;
}

Roaring row_range(uint64_t first, uint64_t last) {
  Roaring r;
  if (last > first) r.addRange(first, last);
  return r;
}

RowSets combine_row_sets(const QueryNode& q, uint32_t rows, const std::function<RowSets(const QueryNode&)>& leaf) {
  switch (q.kind) {
    case QueryNode::Kind::kCompare: return leaf(q);
    case QueryNode::Kind::kNot: {
      RowSets a = combine_row_sets(q.kids.at(0), rows, leaf);
      RowSets out;
      out.sure = row_range(0, rows);
      out.sure -= a.sure;
      out.sure -= a.check;
      out.check = std::move(a.check);
      return out;
    }
    case QueryNode::Kind::kAnd: {
      RowSets acc = combine_row_sets(q.kids.at(0), rows, leaf);
      for (size_t i = 1; i < q.kids.size(); ++i) {
        if (acc.sure.isEmpty() && acc.check.isEmpty()) break;   // nothing left to match
        RowSets b = combine_row_sets(q.kids[i], rows, leaf);
        Roaring any_a = acc.sure | acc.check;
        Roaring any_b = b.sure | b.check;
        acc.sure &= b.sure;
        acc.check = any_a & any_b;
        acc.check -= acc.sure;
      }
      return acc;
    }
    case QueryNode::Kind::kOr: {
      RowSets acc = combine_row_sets(q.kids.at(0), rows, leaf);
      for (size_t i = 1; i < q.kids.size(); ++i) {
        RowSets b = combine_row_sets(q.kids[i], rows, leaf);
        acc.sure |= b.sure;
        acc.check |= b.check;
        acc.check -= acc.sure;
      }
      return acc;
    }
  }
  fail(ErrorCode::kInternal, "unknown query node");
}

std::vector<std::vector<size_t>> share_files(const std::vector<uint64_t>& work, int ranks) {
  if (ranks < 1) fail(ErrorCode::kInvalidArgument, "files are shared among at least one rank, not ", ranks);
  std::vector<size_t> order(work.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return work[a] > work[b]; });
  std::vector<std::vector<size_t>> out(static_cast<size_t>(ranks));
  std::vector<uint64_t> load(static_cast<size_t>(ranks), 0);
  for (size_t i : order) {
    const size_t r = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    out[r].push_back(i);
    load[r] += std::max<uint64_t>(work[i], 1);
  }
  for (auto& v : out) std::sort(v.begin(), v.end());
  return out;
}

}  // namespace lodex
