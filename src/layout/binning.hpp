// Binning of one value component for a bitmap index (Byna et al. 2012 §II-B, FastBit): which bin each
// row falls in, and the rows of every bin in ascending order. Pure: no files, no bitmaps.
//
// Precision binning with d significant digits: the bins are [e_k, e_{k+1}) for consecutive
// numbers e_k of the grid {0} ∪ {±m·10^s : 10^(d-1) <= m < 10^d}, each edge the double nearest
// that decimal (what strtod makes of it). A query constant of at most d significant digits is
// therefore an edge, and every bin lies wholly on one side of it: such a comparison needs no
// candidate check. Only bins holding rows are kept.
//
// Equal-weight binning with B bins: edges at the quantiles of the values (from an evenly spaced
// sample of at most 65,536 of them), so every bin holds about N / B rows; equal values share a bin.
//
// Values are compared as doubles, as the query language does. NaN rows are kept apart (they match
// only `!=`); ±inf are ordinary values.
#pragma once

#include <cstdint>
#include <vector>

#include "core/dtype.hpp"

namespace lodex {

enum class Binning : uint8_t { kPrecision = 1, kEqualWeight = 2 };
inline constexpr uint32_t kMaxPrecision = 9;
inline constexpr uint32_t kMaxEqualWeightBins = 1u << 20;

struct BinningSpec {
  Binning kind = Binning::kPrecision;
  uint32_t param = 3;   // significant digits (1..kMaxPrecision), or bins (1..kMaxEqualWeightBins)
};
void validate(const BinningSpec& spec);   // InvalidArgument naming the allowed range

// The bins of one component: bin b holds rows[start[b] .. start[b+1]), ascending; every bin holds
// at least one row, and bins ascend by value (vmax[b] < vmin[b+1]).
struct ComponentBins {
  std::vector<double> lo;      // the bin's lower edge (precision: a d-digit number; equal weight: a quantile)
  std::vector<double> vmin;    // smallest value in the bin
  std::vector<double> vmax;    // largest value in the bin
  std::vector<uint64_t> start; // bins + 1 offsets into rows
  std::vector<uint32_t> rows;  // row ids of all non-NaN rows, grouped by bin
  std::vector<uint32_t> nan_rows;
  size_t bins() const { return vmin.size(); }
};

// Bins component `component` of a column of `rows` rows of `components` values of `dtype`
// (row-major). Rows must be fewer than 2^32.
ComponentBins bin_component(const void* column, DType dtype, uint32_t components, uint32_t component, uint64_t rows,
                            const BinningSpec& spec);

// The precision grid: the largest grid number <= v, as an index (monotone in value) and as the
// nearest double. Exposed for tests.
int64_t precision_floor_key(double v, uint32_t digits);
double precision_edge(int64_t key, uint32_t digits);

}  // namespace lodex
