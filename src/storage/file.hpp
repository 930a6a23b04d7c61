// Files: pread/pwrite loops that finish short transfers and retry EINTR, with errors that name
// the file, the offset and the operating system's reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/uio.h>
#include <vector>

namespace lodex {

class File {
 public:
  enum class Mode {
    kRead,
    kCreate /* create or truncate, write */,
    kReadWrite,
    kShare /* create if missing, write, keep others' bytes */
  };

  File() = default;
  File(const std::string& path, Mode mode);
  ~File();
  File(File&& o) noexcept;
  File& operator=(File&& o) noexcept;
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  int descriptor() const { return fd_; }
  void pwrite_all(const void* data, size_t bytes, uint64_t offset);
  // Gathers several buffers into consecutive bytes starting at `offset` (pwritev loop).
  void pwritev_all(std::vector<iovec> parts, uint64_t offset);
  void pread_all(void* data, size_t bytes, uint64_t offset) const;   // short file -> FormatError
  // Scatters consecutive bytes starting at `offset` into several buffers (preadv loop).
  void preadv_all(std::vector<iovec> parts, uint64_t offset) const;
  uint64_t size() const;
  void truncate(uint64_t size);   // sets the file's length
  void sync();
  void close();

 private:
  int fd_ = -1;
  std::string path_;
};

// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, rename over `path`,
// fsync of the directory. A crash leaves either the old file or the new one, never a mix; when it
// throws, the old file (or no file) is in place, even if only the directory's fsync failed.
void atomic_replace(const std::string& path, const void* bytes, size_t size);
// rename(2): IOFailure naming both paths.
void rename_file(const std::string& from, const std::string& to);

// All of a file; more than max_bytes is a FormatError naming it.
std::vector<uint8_t> read_whole_file(const std::string& path, uint64_t max_bytes);
std::vector<uint8_t> read_whole_file(const File& f, uint64_t max_bytes);
bool path_exists(const std::string& path);
// The canonical path (links resolved) of an existing path; "" if it cannot be resolved.
std::string real_path(const std::string& path);
bool is_directory(const std::string& path);
void make_directory(const std::string& path);          // one level; error if it exists
void make_directories(const std::string& path);        // like mkdir -p
void remove_tree(const std::string& path);             // rm -r, no error if missing
// The names in a directory, sorted (none when it does not exist).
std::vector<std::string> list_directory(const std::string& path);
void sync_directory(const std::string& path);
std::string join_path(const std::string& a, const std::string& b);
std::string parent_path(const std::string& p);

}  // namespace lodex
