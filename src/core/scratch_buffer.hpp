// A grow-only, uninitialized byte buffer reused across calls. Fresh allocations of tens of MiB
// cost a page fault per 4 KiB on first touch (and a memset when value-initialized); pipelines
// that write step after step keep one of these instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace lodex {

class ScratchBuffer {
 public:
  // At least `bytes` bytes, contents unspecified. Invalidates earlier pointers when it grows.
  uint8_t* reserve(size_t bytes) {
    if (bytes > capacity_) {
      data_.reset();   // free first: never hold both the old and the new block
      data_.reset(new uint8_t[bytes]);
      capacity_ = bytes;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t capacity_ = 0;
};

}  // namespace lodex
