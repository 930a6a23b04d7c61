// IDX "zip" blocks as OpenVisus writes them (zlib stream, default level): one place for the
// serial writer (idx_writer.cpp) and the parallel one (grid_writer.cpp).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace lodex {

// Compresses `bytes` of block `block` into `out` (resized to fit); returns the payload size.
inline uint64_t zip_block(const uint8_t* raw, uint64_t bytes, std::vector<uint8_t>& out, uint64_t block) {
  uLongf len = compressBound(static_cast<uLong>(bytes));
  out.resize(len);
  const int rc = ::compress2(out.data(), &len, raw, static_cast<uLong>(bytes), Z_DEFAULT_COMPRESSION);
  if (rc != Z_OK) fail(ErrorCode::kInternal, "zlib cannot compress block ", block, ": ", zError(rc));
  out.resize(len);
  return len;
}

}  // namespace lodex
