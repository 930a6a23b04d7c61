#include "core/dtype.hpp"

#include "core/error.hpp"

namespace lodex {

namespace {
struct DTypeInfo {
  DType type;
  const char* name;
  size_t size;
};
constexpr DTypeInfo kTypes[] = {
    {DType::kF4, "f4", 4}, {DType::kF8, "f8", 8}, {DType::kI1, "i1", 1}, {DType::kU1, "u1", 1}, {DType::kI2, "i2", 2},
    {DType::kU2, "u2", 2}, {DType::kI4, "i4", 4}, {DType::kU4, "u4", 4}, {DType::kI8, "i8", 8}, {DType::kU8, "u8", 8},
};
const DTypeInfo& info(DType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i;
  fail(ErrorCode::kInternal, "unknown dtype code ", static_cast<int>(t));
}
}  // namespace

size_t dtype_size(DType t) { return info(t).size; }
const char* dtype_name(DType t) { return info(t).name; }
bool dtype_is_float(DType t) { return t == DType::kF4 || t == DType::kF8; }

DType parse_dtype(std::string_view name) {
  for (const auto& i : kTypes)
    if (name == i.name) return i.type;
  fail(ErrorCode::kInvalidArgument, "unknown dtype '", name,
       "': expected one of f4, f8, i1, u1, i2, u2, i4, u4, i8, u8");
}

bool dtype_from_code(uint8_t code, DType* out) {
  for (const auto& i : kTypes)
    if (static_cast<uint8_t>(i.type) == code) {
      *out = i.type;
      return true;
    }
  return false;
}

}  // namespace lodex
