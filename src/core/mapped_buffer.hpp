// A grow-only, uninitialized byte buffer reused across calls, like ScratchBuffer, whose pages are
// a shared anonymous mapping (mmap MAP_SHARED | MAP_ANONYMOUS) instead of heap memory: the same
// pages can then be mapped a second time (mremap with an old size of 0), which is how a language
// binding hands these bytes out through a mapping of its own that it can revoke (replace by fresh
// pages) without touching them. Zero-copy input keeps its rows in one (WriteScratch::buffers).
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/error.hpp"

namespace lodex {

// A new number each call, unique in the process: names an allocation (MappedBuffer, SharedWindow)
// so that a pointer into it can be told from one into a later allocation at the same address.
inline uint64_t next_allocation_id() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

// `bytes` of fresh anonymous pages, MAP_SHARED or MAP_PRIVATE (`sharing`); kIo naming `what`
// when the system refuses them. Given back with munmap.
inline uint8_t* map_anonymous(size_t bytes, int sharing, const char* what) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, sharing | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) fail(ErrorCode::kIo, "mmap of ", bytes, " bytes for ", what, " failed");
  return static_cast<uint8_t*>(p);
}

class MappedBuffer {
 public:
  MappedBuffer() = default;
  ~MappedBuffer() { unmap(); }
  MappedBuffer(const MappedBuffer&) = delete;
  MappedBuffer& operator=(const MappedBuffer&) = delete;

  // At least `bytes` bytes, contents unspecified. Invalidates earlier pointers when it grows.
  uint8_t* reserve(size_t bytes) {
    if (bytes > capacity_ || !data_) {
      unmap();   // free first: never hold both the old and the new block
      const size_t want = bytes ? bytes : 1;
      data_ = map_anonymous(want, MAP_SHARED, "the step's buffers");
      capacity_ = want;
      id_ = next_allocation_id();
    }
    return data_;
  }
  // Which allocation reserve returned last, unique in the process (0 before the first): equal
  // for two reserves only when the second reused the same pages.
  uint64_t id() const { return id_; }

 private:
  void unmap() {
    if (data_) munmap(data_, capacity_);
    data_ = nullptr;
    capacity_ = 0;
  }
  uint8_t* data_ = nullptr;
  size_t capacity_ = 0;
  uint64_t id_ = 0;
};

}  // namespace lodex
