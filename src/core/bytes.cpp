#include "core/bytes.hpp"

namespace lodex {

void ByteWriter::put_fixed_string(std::string_view s, size_t width) {
  if (s.size() >= width) fail(ErrorCode::kInternal, "text '", s, "' does not fit a ", width, "-byte slot");
  const size_t at = buf_.size();
  buf_.resize(at + width, 0);
  std::memcpy(buf_.data() + at, s.data(), s.size());
}

void ByteWriter::put_bytes(const void* p, size_t n) {
  const size_t at = buf_.size();
  buf_.resize(at + n);
  if (n) std::memcpy(buf_.data() + at, p, n);
}

void ByteWriter::pad_to(size_t alignment) { buf_.resize((buf_.size() + alignment - 1) / alignment * alignment, 0); }

std::string ByteReader::get_fixed_string(size_t width, const char* field) {
  need(width, field);
  const char* p = reinterpret_cast<const char*>(data_ + pos_);
  size_t len = 0;
  while (len < width && p[len] != '\0') ++len;
  if (len == width) corrupt(cat(field, " is not NUL-terminated within ", width, " bytes"));
  pos_ += width;
  return std::string(p, len);
}

void ByteReader::seek(size_t pos, const char* field) {
  if (pos > size_) corrupt(cat(field, " points to byte ", base_ + pos, " past the end (", base_ + size_, ")"));
  pos_ = pos;
}

void ByteReader::need(size_t n, const char* field) const {
  if (n > size_ - pos_)
    corrupt(
        cat("truncated: ", field, " needs ", n, " bytes at offset ", base_ + pos_, ", only ", size_ - pos_, " remain"));
}

void ByteReader::corrupt(const std::string& why) const { fail(ErrorCode::kFormat, what_, ": ", why); }

}  // namespace lodex
