// A grow-only, uninitialized byte buffer reused across calls. Fresh allocations of tens of MiB
// cost a page fault per 4 KiB on first touch (and a memset when value-initialized); pipelines
// that write step after step keep one of these instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <sys/mman.h>

namespace lodex {

// Gives the whole pages of [data, data + bytes) back to the system while the allocation stays the
// caller's: a later touch finds zeroed pages (a page fault each), so for arrays whose contents are
// rewritten before they are read. Unlike freeing, this returns the memory even where malloc would
// keep it (glibc keeps freed blocks below its raised mmap threshold, per thread arena).
inline void release_pages(void* data, size_t bytes) {
  const uintptr_t a = (reinterpret_cast<uintptr_t>(data) + 4095) & ~uintptr_t{4095};
  const uintptr_t b = (reinterpret_cast<uintptr_t>(data) + bytes) & ~uintptr_t{4095};
  if (b > a) ::madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
}

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
  // Gives its pages back to the system between uses (release_pages): the buffer stays reserved.
  void release_pages() { lodex::release_pages(data_.get(), capacity_); }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t capacity_ = 0;
};

}  // namespace lodex
