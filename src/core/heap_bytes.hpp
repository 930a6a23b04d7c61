// A malloc'd byte buffer that is never zero-filled (reads overwrite every byte they keep) and
// can be shrunk in place and handed over to another owner (numpy) that frees it with free().
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include <sys/mman.h>

#include "core/error.hpp"

namespace lodex {

class HeapBytes {
 public:
  HeapBytes() = default;
  HeapBytes(HeapBytes&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  HeapBytes& operator=(HeapBytes&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  HeapBytes(const HeapBytes&) = delete;
  HeapBytes& operator=(const HeapBytes&) = delete;
  ~HeapBytes() { std::free(data_); }

  // Replaces the contents with n uninitialized bytes.
  void allocate(size_t n) {
    std::free(std::exchange(data_, nullptr));
    size_ = 0;
    data_ = static_cast<uint8_t*>(std::malloc(n ? n : 1));
    if (!data_) fail(ErrorCode::kIo, "out of memory allocating ", n, " bytes for a read");
    size_ = n;
    if (n >= kHugeFrom) {   // as numpy does: fewer page faults when the read fills it (a hint only)
      const uintptr_t a = (reinterpret_cast<uintptr_t>(data_) + 4095) & ~uintptr_t{4095};
      const uintptr_t b = (reinterpret_cast<uintptr_t>(data_) + n) & ~uintptr_t{4095};
      if (b > a) ::madvise(reinterpret_cast<void*>(a), b - a, MADV_HUGEPAGE);
    }
  }
  // Keeps the first n bytes (n <= size()).
  void shrink(size_t n) {
    if (n >= size_) return;
    if (void* p = std::realloc(data_, n ? n : 1)) data_ = static_cast<uint8_t*>(p);
    size_ = n;
  }
  // Gives up ownership: the caller frees the pointer with std::free.
  uint8_t* release() {
    size_ = 0;
    return std::exchange(data_, nullptr);
  }
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  static constexpr size_t kHugeFrom = size_t{4} << 20;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace lodex
