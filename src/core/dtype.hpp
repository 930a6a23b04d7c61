// Element types of particle fields, named as numpy names them ("f8", "i4", ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lodex {

// The numeric values are stored on disk: never renumber.
enum class DType : uint8_t {
  kF4 = 1,
  kF8 = 2,
  kI1 = 3,
  kU1 = 4,
  kI2 = 5,
  kU2 = 6,
  kI4 = 7,
  kU4 = 8,
  kI8 = 9,
  kU8 = 10,
};

size_t dtype_size(DType t);
const char* dtype_name(DType t);
bool dtype_is_float(DType t);
DType parse_dtype(std::string_view name);           // throws InvalidArgument naming the choices
bool dtype_from_code(uint8_t code, DType* out);    // false for an unknown on-disk code

}  // namespace lodex
