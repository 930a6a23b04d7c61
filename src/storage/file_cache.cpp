#include "storage/file_cache.hpp"

namespace lodex {

File& FileCache::get(const std::string& path) {
  auto it = map_.find(path);
  if (it != map_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return it->second.file;
  }
  return insert(confinement_.open(path));   // may throw; the cache is unchanged then
}

File& FileCache::insert(File file) {
  const std::string path = file.path();
  ++opens_;
  auto it = map_.find(path);
  if (it != map_.end()) {   // replaces the handle it had
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    it->second.file = std::move(file);
    return it->second.file;
  }
  if (map_.size() >= capacity_) {
    map_.erase(lru_.back());
    lru_.pop_back();
  }
  lru_.push_front(path);
  auto [pos, _] = map_.emplace(path, Entry{std::move(file), lru_.begin()});
  return pos->second.file;
}

void FileCache::clear() {
  map_.clear();
  lru_.clear();
}

}  // namespace lodex
