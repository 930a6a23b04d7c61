// Little-endian encoding helpers. ByteReader is the only way the format layer reads bytes: every
// read is bounds-checked and a failure names the structure, the field and the byte offset.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.hpp"

namespace lodex {

// v rounded up to a multiple of a (a > 0).
constexpr uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

static_assert(std::endian::native == std::endian::little,
              "lodex stores little-endian data and currently builds only on little-endian hosts");

class ByteWriter {
 public:
  template <typename T>
  void put(T value) {
    static_assert(std::is_arithmetic_v<T>);
    const size_t at = buf_.size();
    buf_.resize(at + sizeof(T));
    std::memcpy(buf_.data() + at, &value, sizeof(T));
  }
  // A fixed-width, NUL-padded text slot; the text must fit with at least one NUL.
  void put_fixed_string(std::string_view s, size_t width);
  void put_bytes(const void* p, size_t n);
  void pad_to(size_t alignment);
  size_t size() const { return buf_.size(); }
  std::vector<uint8_t>& bytes() { return buf_; }
  // Overwrites a value already written at `offset` (used for checksums and back-patched sizes).
  template <typename T>
  void patch(size_t offset, T value) {
    std::memcpy(buf_.data() + offset, &value, sizeof(T));
  }

 private:
  std::vector<uint8_t> buf_;
};

class ByteReader {
 public:
  // `what` names the structure in error messages, e.g. "data file run/p0.lpd".
  ByteReader(const uint8_t* data, size_t size, std::string what, uint64_t base_offset = 0)
      : data_(data), size_(size), what_(std::move(what)), base_(base_offset) {}

  template <typename T>
  T get(const char* field) {
    static_assert(std::is_arithmetic_v<T>);
    need(sizeof(T), field);
    T v;
    std::memcpy(&v, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string get_fixed_string(size_t width, const char* field);
  // The next n bytes, bounds-checked once (for tables of fixed-size entries decoded in bulk).
  const uint8_t* take(size_t n, const char* field) {
    need(n, field);
    pos_ += n;
    return data_ + pos_ - n;
  }
  void skip(size_t n, const char* field) {
    need(n, field);
    pos_ += n;
  }
  void seek(size_t pos, const char* field);
  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  const uint8_t* data() const { return data_; }
  [[noreturn]] void corrupt(const std::string& why) const;

 private:
  void need(size_t n, const char* field) const;

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::string what_;
  uint64_t base_;
};

}  // namespace lodex
