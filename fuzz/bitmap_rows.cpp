// Fuzz target: the rows of one bin of a bitmap index — a Roaring bitmap (portable serialization)
// or raw row ids — past every checksum. The input is a u32 count, a u16 of extra rows, a flags
// byte (bit 0: raw ids) and the bin's bytes. The bytes are first checked by the Roaring check
// alone (format/roaring_check.hpp): a bitmap it accepts must read back through CRoaring with the
// checked cardinality and maximum, as ascending values, else the target aborts. Then they are sealed into a
// whole index (encode_bitmap_index computes every checksum: the bin's, its bin table's, the
// component table's, the header's) of count + extra rows (at most 2^18) — the bin, then a bin
// of rows 0 .. extra-1 — and that index is decoded as a value query reads it.
#include <roaring/roaring.hh>

#include <algorithm>
#include <optional>
#include <vector>

#include "format/roaring_check.hpp"
#include "fuzz/fuzz_target.hpp"
#include "fuzz/index_decode.hpp"

namespace {

constexpr size_t kPrefix = 7;
constexpr uint64_t kMaxRows = uint64_t{1} << 18;   // keeps an execution small

// The check and CRoaring must agree on every bitmap the check accepts.
std::optional<lodex::RoaringShape> checked_shape(const uint8_t* p, size_t n) {
  using namespace lodex;
  RoaringShape s;
  try {
    s = check_roaring_portable(p, n, "fuzz bitmap");
  } catch (const Error&) {
    return std::nullopt;
  }
  // Not the size: a bitmap may be written more than one valid way (the run cookie without runs),
  // and CRoaring's size is that of its own way (bin_bitmap refuses the others).
  const Roaring r = Roaring::readSafe(reinterpret_cast<const char*>(p), n);
  if (r.cardinality() != s.cardinality || (s.cardinality && r.maximum() != s.maximum)) std::abort();
  std::vector<uint32_t> values(s.cardinality);   // exactly the checked cardinality: ASan sees any overflow
  r.toUint32Array(values.data());
  for (size_t i = 1; i < values.size(); ++i)
    if (values[i] <= values[i - 1]) std::abort();
  return s;
}

// Rows 0 .. n-1 as a bin: a Roaring bitmap of one run per container.
lodex::StoredRows filler_rows(uint32_t n) {
  Roaring r;
  r.addRange(0, n);
  r.runOptimize();
  lodex::StoredRows out;
  out.bytes.resize(r.getSizeInBytes(true));
  r.write(reinterpret_cast<char*>(out.bytes.data()), true);
  return out;
}

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  if (size < kPrefix) return;
  uint32_t count;
  uint16_t extra16;
  std::memcpy(&count, data, 4);
  std::memcpy(&extra16, data + 4, 2);
  uint32_t extra = extra16;
  const bool raw = data[6] & 1;
  StoredRows bin;
  bin.bytes.assign(data + kPrefix, data + size);
  bin.raw = raw;
  // An accepted bitmap gets its own count and rows enough to hold it (up to kMaxRows), so that
  // the index decode below accepts it too.
  if (const auto s = raw ? std::nullopt : checked_shape(bin.bytes.data(), bin.bytes.size()))
    if (s->maximum < kMaxRows) {
      count = static_cast<uint32_t>(s->cardinality);
      extra = std::max<uint32_t>(extra, s->maximum + 1 - std::min(count, s->maximum + 1));
    }
  if (bin.bytes.empty() || count == 0 || uint64_t{count} + extra > kMaxRows) return;
  EncodedComponent comp;
  comp.bins.resize(extra ? 2 : 1);
  comp.bins[0].vmin = comp.bins[0].vmax = 0;
  comp.bins[0].count = count;
  comp.bitmaps.push_back(std::move(bin));
  if (extra) {
    comp.bins[1].vmin = comp.bins[1].vmax = 1;
    comp.bins[1].count = extra;
    comp.bitmaps.push_back(filler_rows(extra));
  }
  comp.bitmaps.emplace_back();   // no NaN rows
  BitmapIndexHead head;
  head.rows = uint64_t{count} + extra;
  head.dtype = DType::kF4;
  head.binning = BinningSpec{};
  head.field = "energy";
  const std::vector<uint8_t> file = encode_bitmap_index(head, {comp});
  fuzz::decode_whole_index(file.data(), file.size());
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
