#include "core/checksum.hpp"

#include <xxhash.h>

namespace lodex {

uint64_t checksum64(const void* data, size_t bytes) { return XXH3_64bits(data, bytes); }

}  // namespace lodex
