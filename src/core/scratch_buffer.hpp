// A grow-only, uninitialized byte buffer reused across calls. Fresh allocations of tens of MiB
// cost a page fault per 4 KiB on first touch (and a memset when value-initialized); pipelines
// that write step after step keep one of these instead.
//
// A buffer of kMapFrom bytes or more is a private anonymous mapping of its own, not a heap block.
// Its size may vary a little from step to step (a ring sized by a step's largest chunk), and a
// heap block freed and allocated again a few bytes larger cannot reuse its own hole once a later
// allocation sits after it: the heap grows by the whole new block and the old hole stays resident
// (a ring of 884 KiB did that in about 1 run of 16, 0.11 x of the step's bytes at once). A mapping
// goes back to the system whole when it is replaced. (Under AddressSanitizer every buffer is a heap
// block, so that reads and writes past its end are caught.)
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

#include "core/mapped_buffer.hpp"

namespace lodex {

class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  ~ScratchBuffer() { release(); }
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;

  // At least `bytes` bytes, contents unspecified. Invalidates earlier pointers when it grows.
  uint8_t* reserve(size_t bytes) {
    if (bytes > capacity_ || !data_) {
      release();   // free first: never hold both the old and the new block
      const size_t want = bytes ? bytes : 1;
      if (want < kMapFrom || kSanitized) {
        data_ = new uint8_t[want];
        capacity_ = want;
      } else {
        const size_t pages = (want + kPage - 1) / kPage * kPage;
        data_ = map_anonymous(pages, MAP_PRIVATE, "a scratch buffer");
        capacity_ = pages;
        mapped_ = true;
      }
    }
    return data_;
  }

 private:
  static constexpr size_t kMapFrom = 64 * 1024, kPage = 4096;
#if defined(__SANITIZE_ADDRESS__)
  static constexpr bool kSanitized = true;
#else
  static constexpr bool kSanitized = false;
#endif
  void release() {
    if (mapped_) munmap(data_, capacity_);
    else delete[] data_;
    data_ = nullptr;
    capacity_ = 0;
    mapped_ = false;
  }
  uint8_t* data_ = nullptr;
  size_t capacity_ = 0;
  bool mapped_ = false;
};

}  // namespace lodex
