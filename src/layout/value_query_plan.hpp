// Planning of value queries over bitmap indexes (Byna et al. 2012 §II-B, §IV-B): which bins a comparison
// takes for sure and which it leaves to a candidate check, whether a file can be skipped from its
// per-component min/max, and the algebra of (sure, check) row sets over &&, ||, !. Pure: no
// files, no MPI; row sets are CRoaring bitmaps.
//
// A comparison splits the rows of a file three ways: rows that surely match (S), rows that
// may match and must be checked against their values (C), and the rest. Combining them:
//   a && b:  S = Sa ∩ Sb,  C = (Sa ∪ Ca) ∩ (Sb ∪ Cb) − S
//   a || b:  S = Sa ∪ Sb,  C = (Ca ∪ Cb) − S
//   !a:      S = U − (Sa ∪ Ca),  C = Ca
// so the answer is S plus the rows of C whose values pass the whole query: exact, whatever
// the bins, and a field without an index is simply S = ∅, C = U.
#pragma once

#include <roaring/roaring.hh>

#include <cstdint>
#include <functional>
#include <vector>

#include "layout/query.hpp"

namespace lodex {

enum class Tri : uint8_t { kNone, kSure, kCheck };

// How `value op c` splits values known to lie in [vmin, vmax] (no NaN among them).
Tri classify_range(CmpOp op, double c, double vmin, double vmax);

// A file's verdict on a query from its per-component min/max (over non-NaN values; NaN when a
// component has none), not knowing whether NaN rows exist: kNone = no row can match (skip the
// file), kSure = every row matches, kCheck = look closer. `range(field_index, component)` gives
// the min/max.
using RangeOf = std::function<std::pair<double, double>(size_t field_index, uint32_t component)>;
Tri classify_file(const QueryNode& query, const RangeOf& range);

// The rows of a comparison over one component's bins: `bins` of them, ascending and disjoint
// (the largest value of a bin < the smallest of the next), `range(b)` = (vmin, vmax) of bin b;
// NaN rows are kept apart. Bins wholly matching go to sure, bins partly matching to check. The
// bins on either side of the constant share one verdict, so this costs O(log bins): the sure bins
// come as at most two ranges, the check bins are at most one.
using BinRangeOf = std::function<std::pair<double, double>(uint32_t bin)>;
struct BinChoice {
  std::vector<std::pair<uint32_t, uint32_t>> sure;   // half-open ranges of bins, ascending
  std::vector<uint32_t> check;                       // bins, ascending
  bool nan_sure = false;                             // NaN rows match (only `!=`)
  uint64_t sure_bins() const;
};
BinChoice choose_bins(uint32_t bins, const BinRangeOf& range, uint64_t nan_rows, CmpOp op, double c);

struct RowSets {
  Roaring sure, check;
};
// Evaluates the query tree over row sets of a file of `rows` rows; `leaf(node)` gives the sets of
// one comparison.
RowSets combine_row_sets(const QueryNode& query, uint32_t rows, const std::function<RowSets(const QueryNode&)>& leaf);

// [first, last) as a bitmap.
Roaring row_range(uint64_t first, uint64_t last);

// Files shared among `ranks` ranks for a collective index build or query: largest first, each
// to the rank with the least work so far (ties: the lowest rank; a file counts at least 1).
// Returns each rank's files, ascending.
std::vector<std::vector<size_t>> share_files(const std::vector<uint64_t>& work, int ranks);

}  // namespace lodex
