// The bytes of a dataset's asynchronous steps in flight (particles, grids, series), and the budget
// that bounds them (DatasetOptions::max_pending_bytes). A rank counts, for each pending step, the
// bytes it passed to that step's write; a new asynchronous write first completes the oldest
// pending steps until its own bytes fit, and a step larger than the budget by itself is written
// within its call. The entries are added and removed by collective calls, so every rank holds
// them in the same order (the bytes differ from rank to rank).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "pipelines/group_types.hpp"

namespace lodex {

struct PendingBudget {
  struct Entry {
    const void* owner = nullptr;      // the group whose step it is (one pending step per group)
    uint64_t bytes = 0;               // this rank's bytes of it
    std::function<void()> complete;   // the group's wait_pending (collective; removes the entry)
  };
  std::vector<Entry> entries;   // oldest first

  uint64_t held() const {
    uint64_t total = 0;
    for (const Entry& e : entries) total += e.bytes;
    return total;
  }
  void add(const void* owner, uint64_t bytes, std::function<void()> complete) {
    entries.push_back({owner, bytes, std::move(complete)});
  }
  void remove(const void* owner) {
    std::erase_if(entries, [owner](const Entry& e) { return e.owner == owner; });
  }
  std::vector<uint64_t> sizes() const {
    std::vector<uint64_t> out;
    for (const Entry& e : entries) out.push_back(e.bytes);
    return out;
  }
};

// Pure: how many of the oldest pending steps (`pending`, their bytes, oldest first) must complete
// so that `bytes` more stay within `limit` (all of them when even that is not enough).
inline size_t steps_to_complete(std::span<const uint64_t> pending, uint64_t bytes, uint64_t limit) {
  uint64_t held = 0;
  for (uint64_t b : pending) held += b;
  size_t k = 0;
  while (k < pending.size() && held + bytes > limit) held -= pending[k++];
  return k;
}

// The bytes of a write's fields on this rank (rows x components x item size, summed).
inline uint64_t view_bytes(std::span<const FieldView> views) {
  uint64_t total = 0;
  for (const FieldView& v : views) total += v.rows * v.components * dtype_size(v.dtype);
  return total;
}

}  // namespace lodex
