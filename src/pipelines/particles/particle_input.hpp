// The caller's particles of one step, checked once against the schema and put in schema order.
// A field comes whole (rows of its components, row-major) or one array per component, as codes
// keep positions (x, y and z arrays, a structure of arrays): fields named "position/x",
// "position/y", "position/z" (or "position/0", "position/1", "position/2"); any field of several
// components may be given so. The write reads such a field where it copies rows anyway (the
// routing to partitions), so the caller never interleaves it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/schema.hpp"
#include "pipelines/dataset.hpp"

namespace lodex {

struct InputColumn {
  const void* rows = nullptr;        // row-major rows (given whole), else nullptr
  std::vector<const void*> parts;    // given per component: one array of n values each
  bool per_component() const { return !parts.empty(); }
};

struct StepInput {
  std::vector<InputColumn> columns;  // schema order
  uint64_t n = 0;                    // rows of every field
};

// Every schema field once (whole or per component, not both), the schema's type and component
// count, a common length, data present: else InvalidArgument naming the field.
StepInput step_input(const Schema& schema, std::span<const FieldView> views);

// Rows `perm[0..n)` (rows 0..n-1 when perm is null) of field `f`, row-major into `out`.
void gather_input(const StepInput& in, const Schema& schema, size_t f, const uint32_t* perm, uint64_t n, void* out);

// Coordinate a of row i of the positions, as double, for each layout and type.
template <typename T>
struct RowMajorPositions {
  const T* p;
  double operator()(uint64_t i, int a) const { return static_cast<double>(p[3 * i + a]); }
};
template <typename T>
struct ComponentPositions {
  const T* p[3];
  double operator()(uint64_t i, int a) const { return static_cast<double>(p[a][i]); }
};

// f(get) with the accessor of the positions' layout and type: loops over rows compile once per
// case instead of testing the layout at every coordinate.
template <typename F>
void with_positions(const StepInput& in, const Schema& schema, F&& f) {
  const InputColumn& c = in.columns[schema.position_index()];
  auto go = [&](auto zero) {
    using T = decltype(zero);
    if (c.per_component())
      f(ComponentPositions<T>{
          {static_cast<const T*>(c.parts[0]), static_cast<const T*>(c.parts[1]), static_cast<const T*>(c.parts[2])}});
    else f(RowMajorPositions<T>{static_cast<const T*>(c.rows)});
  };
  if (schema.field(schema.position_index()).dtype == DType::kF8) go(double{});
  else go(float{});
}

}  // namespace lodex
