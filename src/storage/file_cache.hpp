// A bounded cache of open read handles keyed by path (PIDX-style file handle caching): reads
// that touch the same files step after step do not reopen them. Least recently used is closed
// first. Not thread-safe; one cache per reader.
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

#include "storage/confinement.hpp"
#include "storage/file.hpp"

namespace lodex {

class FileCache {
 public:
  explicit FileCache(size_t capacity = 64, Confinement confinement = {})
      : capacity_(capacity == 0 ? 1 : capacity), confinement_(std::move(confinement)) {}
  // The open handle for `path`, opening it under the confinement (and closing the least recently
  // used) if needed.
  File& get(const std::string& path);
  // Adds a file opened elsewhere (counted as an open), closing the least recently used if full.
  File& insert(File file);
  size_t capacity() const { return capacity_; }
  void clear();
  size_t size() const { return map_.size(); }
  size_t opens() const { return opens_; }   // files opened since construction

 private:
  struct Entry {
    File file;
    std::list<std::string>::iterator lru;
  };
  size_t capacity_;
  Confinement confinement_;
  size_t opens_ = 0;
  std::list<std::string> lru_;   // front = most recent
  std::unordered_map<std::string, Entry> map_;
};

}  // namespace lodex
