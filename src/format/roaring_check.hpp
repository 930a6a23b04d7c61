// The portable serialization of a Roaring bitmap, checked container by container before CRoaring
// reads it. CRoaring 0.2 (the one the supported systems ship) checks only that its reads stay
// within the buffer: a bitset holding more bits than its stored cardinality makes it write past
// the array it extracts into, and unsorted, repeated or overlapping values, keys out of order and
// runs past 65535 give wrong answers. Pure: the bytes in, their shape or a FormatError out.
// Layout (the Roaring format specification): a cookie (12347 with run containers: the container
// count - 1 in its high 16 bits, then a bit per container flagging runs; 12346 without: a u32
// count), per container a u16 key and a u16 cardinality - 1, per container a u32 offset (without
// run containers, or with at least 4 containers), then the containers: runs (a u16 count, then
// u16 start and length - 1 pairs), arrays (cardinality <= 4096: ascending u16 values) or bitsets
// (cardinality > 4096: 1024 u64 words).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace lodex {

struct RoaringShape {
  uint64_t cardinality = 0;   // values in the bitmap
  uint32_t maximum = 0;       // the largest (0 when empty)
  uint32_t containers = 0;
};

// Checks that `size` bytes hold exactly one valid bitmap: a known cookie; at most 65,536 containers
// whose keys strictly ascend; offsets (where stored) pointing at each container; arrays sorted,
// without repeats, of the stored cardinality <= 4096; bitsets whose popcount is the stored
// cardinality; runs ascending, apart (neither overlapping nor touching), within 16 bits, adding
// up to the stored cardinality; nothing past the last container. FormatError naming `what`.
RoaringShape check_roaring_portable(const uint8_t* data, size_t size, const std::string& what);

}  // namespace lodex
