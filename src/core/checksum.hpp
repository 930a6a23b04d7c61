// 64-bit checksums of on-disk blocks: XXH3-64 (libxxhash), ~30 GB/s, so checksumming every
// column costs far less than writing it. Python tests verify with the `xxhash` package.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lodex {

uint64_t checksum64(const void* data, size_t bytes);
// XXH3-64 with a seed: the same bytes give another checksum under another seed.
uint64_t checksum64(const void* data, size_t bytes, uint64_t seed);

// Whether the last 8 bytes of data[0, bytes) are the checksum64 of the bytes before them (the way
// every lodex header and table ends). bytes >= 8.
bool ends_with_checksum(const void* data, size_t bytes);

}  // namespace lodex
