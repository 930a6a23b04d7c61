#include "format/roaring_check.hpp"

#include <bit>
#include <cstring>
#include <vector>

#include "core/bytes.hpp"
#include "core/error.hpp"

namespace lodex {

namespace {

constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
constexpr uint32_t kNoOffsetThreshold = 4;   // with runs, offsets are stored from 4 containers on
constexpr uint32_t kMaxArray = 4096;
constexpr uint32_t kBitsetWords = 1024;
constexpr uint32_t kMaxContainers = 1u << 16;

struct ContainerHead {
  uint16_t key = 0;
  uint32_t cardinality = 0;
  bool runs = false;
  uint32_t offset = 0;
};

// ---- the header: cookie, container count, run flags, keys and cardinalities, offsets ----
std::vector<ContainerHead> read_heads(ByteReader& r) {
  const uint32_t cookie = r.get<uint32_t>("cookie");
  uint32_t n = 0;
  std::vector<uint8_t> run_flags;
  const bool with_runs = (cookie & 0xFFFF) == kCookieRuns;
  if (with_runs) {
    n = (cookie >> 16) + 1;
    const uint8_t* flags = r.take((n + 7) / 8, "run flags");
    run_flags.assign(flags, flags + (n + 7) / 8);
    if (n % 8 && (run_flags.back() >> (n % 8)) != 0) r.corrupt("run flags set past the last container");
  } else if (cookie == kCookieNoRuns) {
    n = r.get<uint32_t>("container count");
    if (n > kMaxContainers) r.corrupt(cat("a Roaring bitmap of ", n, " containers (at most 65536)"));
  } else {
    r.corrupt(cat("not a Roaring bitmap (cookie ", cookie, ")"));
  }
  if (n > r.remaining() / 4) r.corrupt(cat("truncated Roaring bitmap: ", n, " container headers"));
  std::vector<ContainerHead> heads(n);
  for (uint32_t i = 0; i < n; ++i) {
    heads[i].key = r.get<uint16_t>("container key");
    heads[i].cardinality = uint32_t{r.get<uint16_t>("container cardinality")} + 1;
    heads[i].runs = with_runs && (run_flags[i / 8] >> (i % 8) & 1);
    if (i > 0 && heads[i].key <= heads[i - 1].key)
      r.corrupt(cat("Roaring container keys not ascending (", heads[i - 1].key, " then ", heads[i].key, ")"));
  }
  const bool offsets = !with_runs || n >= kNoOffsetThreshold;
  for (uint32_t i = 0; offsets && i < n; ++i) heads[i].offset = r.get<uint32_t>("container offset");
  if (!offsets)
    for (ContainerHead& h : heads) h.offset = UINT32_MAX;   // not stored: not checked
  return heads;
}

// ---- the containers; each returns its largest value ----
uint16_t check_runs(ByteReader& r, const ContainerHead& h, uint32_t i) {
  const uint16_t count = r.get<uint16_t>("run count");
  if (count == 0) r.corrupt(cat("Roaring container ", i, " holds no runs"));
  const uint8_t* p = r.take(size_t{count} * 4, "runs");
  uint64_t values = 0;
  int64_t last_end = -2;
  for (uint32_t k = 0; k < count; ++k) {
    uint16_t start, length;
    std::memcpy(&start, p + 4 * k, 2);
    std::memcpy(&length, p + 4 * k + 2, 2);
    const uint32_t end = uint32_t{start} + length;
    if (end > 0xFFFF) r.corrupt(cat("Roaring container ", i, ": a run from ", start, " past 65535"));
    if (int64_t{start} <= last_end + 1)
      r.corrupt(cat("Roaring container ", i, ": runs out of order, overlapping or touching"));
    values += uint64_t{length} + 1;
    last_end = end;
  }
  if (values != h.cardinality)
    r.corrupt(cat("Roaring container ", i, ": runs of ", values, " values, cardinality ", h.cardinality));
  return static_cast<uint16_t>(last_end);
}

uint16_t check_array(ByteReader& r, const ContainerHead& h, uint32_t i) {
  const uint8_t* p = r.take(size_t{h.cardinality} * 2, "array container");
  uint16_t prev = 0;
  for (uint32_t k = 0; k < h.cardinality; ++k) {
    uint16_t v;
    std::memcpy(&v, p + 2 * k, 2);
    if (k > 0 && v <= prev) r.corrupt(cat("Roaring container ", i, ": array values not ascending or repeated"));
    prev = v;
  }
  return prev;
}

uint16_t check_bitset(ByteReader& r, const ContainerHead& h, uint32_t i) {
  const uint8_t* p = r.take(size_t{kBitsetWords} * 8, "bitset container");
  uint64_t bits = 0;
  int top = -1;
  for (uint32_t w = 0; w < kBitsetWords; ++w) {
    uint64_t word;
    std::memcpy(&word, p + 8 * w, 8);
    bits += static_cast<uint64_t>(std::popcount(word));
    if (word) top = static_cast<int>(64 * w + 63 - std::countl_zero(word));
  }
  if (bits != h.cardinality)
    r.corrupt(cat("Roaring container ", i, ": a bitset of ", bits, " bits, cardinality ", h.cardinality));
  return static_cast<uint16_t>(top);
}

}  // namespace

RoaringShape check_roaring_portable(const uint8_t* data, size_t size, const std::string& what) {
  ByteReader r(data, size, what);
  const std::vector<ContainerHead> heads = read_heads(r);
  RoaringShape s;
  s.containers = static_cast<uint32_t>(heads.size());
  for (uint32_t i = 0; i < heads.size(); ++i) {
    const ContainerHead& h = heads[i];
    if (h.offset != UINT32_MAX && h.offset != r.position())
      r.corrupt(cat("Roaring container ", i, " is at byte ", r.position(), ", its offset says ", h.offset));
    const uint16_t top = h.runs                       ? check_runs(r, h, i)
                         : h.cardinality <= kMaxArray ? check_array(r, h, i)
                                                      : check_bitset(r, h, i);
    s.cardinality += h.cardinality;
    s.maximum = uint32_t{h.key} << 16 | top;
  }
  if (r.remaining() != 0) r.corrupt(cat(r.remaining(), " bytes past the last Roaring container"));
  return s;
}

}  // namespace lodex
