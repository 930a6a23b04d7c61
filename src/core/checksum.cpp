#include "core/checksum.hpp"

#include <cstring>

#if LODEX_HAVE_XXH_DISPATCH
#include <xxh_x86dispatch.h>
#else
#include <xxhash.h>
#endif

namespace lodex {

uint64_t checksum64(const void* data, size_t bytes) {
#if LODEX_HAVE_XXH_DISPATCH
  return XXH3_64bits_dispatch(data, bytes);   // the fastest vector unit this CPU has
#else
  return XXH3_64bits(data, bytes);
#endif
}

uint64_t checksum64(const void* data, size_t bytes, uint64_t seed) {
#if LODEX_HAVE_XXH_DISPATCH
  return XXH3_64bits_withSeed_dispatch(data, bytes, seed);
#else
  return XXH3_64bits_withSeed(data, bytes, seed);
#endif
}

bool ends_with_checksum(const void* data, size_t bytes) {
  uint64_t stored;
  std::memcpy(&stored, static_cast<const uint8_t*>(data) + bytes - 8, 8);
  return checksum64(data, bytes - 8) == stored;
}

}  // namespace lodex
