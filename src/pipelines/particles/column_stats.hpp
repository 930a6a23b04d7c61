// Per-component minimum and maximum of particle columns, widened to double so that pruning by
// them never drops a value. NaN values are skipped (a field may hold NaN, positions may not); a
// component with no non-NaN value has NaN bounds. Computed by each rank over its own rows (where
// the data is) and merged at the aggregator: merging is exact, since the widening is monotone.
#pragma once

#include <cstdint>
#include <vector>

#include "core/schema.hpp"

namespace lodex {

struct ColumnStats {
  std::vector<double> min, max;   // one per component of the schema, fields in schema order

  // NaN bounds everywhere: no rows seen.
  static ColumnStats empty(uint32_t components);
  // Of `rows` rows whose field f is columns[f] (row-major, the schema's layout).
  static ColumnStats of(const Schema& schema, const std::vector<const uint8_t*>& columns, uint64_t rows);
  // Not computed yet (no components): an asynchronous step leaves the statistics of the rows that
  // stay on their rank to its helper thread (write_partition_file), off the caller's time.
  static ColumnStats pending() { return {}; }
  bool is_pending() const { return min.empty(); }
  // Folds `other` in (NaN bounds count as "nothing seen").
  void merge(const ColumnStats& other);
};

uint32_t total_components(const Schema& schema);

// The min and max (widened to double, NaN skipped) of each component of `rows` rows of field f.
void field_minmax(const FieldSpec& f, const uint8_t* data, uint64_t rows, double* mn, double* mx);

}  // namespace lodex
