// The Hilbert curve through the cells of a 2^bits-sided cube in 1 to 3 dimensions (J. Skilling,
// "Programming the Hilbert curve", AIP Conf. Proc. 707, 2004: the transpose form, Gray-coded).
// Consecutive positions along the curve are cells that share a face, so things laid out in
// curve order sit near their spatial neighbours (series chunks on disk, Tian et al. 2013 §III). Pure.
#pragma once

#include <array>
#include <cstdint>

namespace lodex {

// The position along the curve of cell `p` (each used coordinate < 2^bits; dims 1–3, bits 1–21).
uint64_t hilbert_index(const std::array<uint32_t, 3>& p, int dims, int bits);

// The smallest bits with 2^bits >= extent (0 for extent <= 1).
int bits_for(uint64_t extent);

}  // namespace lodex
