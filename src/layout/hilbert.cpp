#include "layout/hilbert.hpp"

#include "core/error.hpp"

namespace lodex {

int bits_for(uint64_t extent) {
  int b = 0;
  while (b < 63 && (uint64_t{1} << b) < extent) ++b;
  return b;
}

uint64_t hilbert_index(const std::array<uint32_t, 3>& p, int dims, int bits) {
  if (dims < 1 || dims > 3 || bits < 0 || bits > 21)
    fail(ErrorCode::kInternal, "hilbert_index: ", dims, " dimensions of ", bits, " bits");
  if (bits == 0) return 0;
  std::array<uint32_t, 3> x = p;
  for (int i = 0; i < dims; ++i)
    if (x[i] >> bits) fail(ErrorCode::kInternal, "hilbert_index: coordinate ", x[i], " has more than ", bits, " bits");
  // Undo the curve's rotations and reflections, from the coarsest bit down.
  const uint32_t top = uint32_t{1} << (bits - 1);
  for (uint32_t q = top; q > 1; q >>= 1) {
    const uint32_t low = q - 1;
    for (int i = 0; i < dims; ++i) {
      if (x[i] & q) {
        x[0] ^= low;   // reflect
      } else {         // swap the low bits of x[0] and x[i]
        const uint32_t t = (x[0] ^ x[i]) & low;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  // Gray-encode the transposed index.
  for (int i = 1; i < dims; ++i) x[i] ^= x[i - 1];
  uint32_t t = 0;
  for (uint32_t q = top; q > 1; q >>= 1)
    if (x[dims - 1] & q) t ^= q - 1;
  for (int i = 0; i < dims; ++i) x[i] ^= t;
  // Interleave: bit j of x[0], x[1], ... from the most significant j.
  uint64_t h = 0;
  for (int j = bits - 1; j >= 0; --j)
    for (int i = 0; i < dims; ++i) h = (h << 1) | ((x[i] >> j) & 1u);
  return h;
}

}  // namespace lodex
