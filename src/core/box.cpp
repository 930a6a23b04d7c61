#include "core/box.hpp"

#include "core/error.hpp"

namespace lodex {

std::string to_string(const Box& b) {
  return cat("[(", b.inclusive_min[0], ", ", b.inclusive_min[1], ", ", b.inclusive_min[2], "), (", b.exclusive_max[0],
             ", ", b.exclusive_max[1], ", ", b.exclusive_max[2], "))");
}

}  // namespace lodex
