// What the bitmap index build (index_build.cpp) and the value query (value_query.cpp) share.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/schema.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

// Seconds elapsed since `t0`, a wall_seconds() reading.
inline double since(double t0) { return wall_seconds() - t0; }

// Every name in `fields` is a field of `schema` (NotFoundError naming it; `what`: what the field was
// asked for, "index" or "return").
inline void check_query_fields(const Schema& schema, const std::vector<std::string>& fields, const char* what) {
  for (const auto& name : fields)
    if (!schema.has(name))
      fail(ErrorCode::kNotFound, "no field '", name, "' to ", what, "; fields: ", schema.describe());
}

}  // namespace lodex
