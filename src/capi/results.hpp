// Read results handed to C callers: columns of particles (lodex_columns).
#pragma once

#include "capi/handles.hpp"

namespace lodex::capi {

// A new caller-owned lodex_columns holding `cols` (registered as live).
lodex_columns* new_columns(std::vector<FieldColumn> cols);

}  // namespace lodex::capi
