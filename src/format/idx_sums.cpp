#include "format/idx_sums.hpp"

#include <array>
#include <cstring>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "core/error.hpp"

namespace lodex {

namespace {
constexpr char kMagic[8] = {'L', 'D', 'X', 'S', 'U', 'M', 'S', '\n'};
constexpr uint32_t kVersion = 1;
}  // namespace

std::string idx_sums_path(const std::string& idx_path, const std::string& time_dir) {
  std::string base = idx_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".idx") == 0) base.resize(base.size() - 4);
  return base + ".checksums/" + time_dir + "blocks.xxh3";
}

uint64_t idx_sums_identity(const std::array<uint64_t, 3>& dims, const std::string& bitmask, int bits_per_block,
                           uint64_t blocks_per_file, const std::vector<IdxField>& fields, int64_t step) {
  std::string text = std::to_string(dims[0]) + ' ' + std::to_string(dims[1]) + ' ' + std::to_string(dims[2]) + '\n' +
                     bitmask + '\n' + std::to_string(bits_per_block) + '\n' + std::to_string(blocks_per_file) + '\n' +
                     std::to_string(step) + '\n';
  for (const IdxField& f : fields)
    text += f.name + ' ' + dtype_name(f.dtype) + ' ' + std::to_string(f.components) + '\n';
  return checksum64(text.data(), text.size());
}

uint64_t idx_block_sum(const void* bytes, uint64_t size, uint64_t block, uint32_t field, uint32_t flags) {
  std::array<uint8_t, 16> where{};
  std::memcpy(where.data(), &block, 8);
  std::memcpy(where.data() + 8, &field, 4);
  std::memcpy(where.data() + 12, &flags, 4);
  const uint64_t sum = checksum64(bytes, size, checksum64(where.data(), where.size()));
  return sum == 0 ? 1 : sum;
}

std::vector<uint8_t> encode_idx_sums_header(const IdxSumsHeader& h) {
  ByteWriter w;
  w.put_bytes(kMagic, sizeof kMagic);
  w.put<uint32_t>(kVersion);
  w.put<uint32_t>(h.fields);
  w.put<uint64_t>(h.blocks);
  w.put<uint64_t>(h.identity);
  w.put<uint64_t>(0);   // reserved
  w.put<uint64_t>(checksum64(w.bytes().data(), w.size()));
  return std::move(w.bytes());
}

void check_idx_sums_header(const uint8_t* data, size_t size, uint64_t file_size, const IdxSumsHeader& expected,
                           const std::string& what) {
  if (size < kIdxSumsHeaderBytes)
    fail(ErrorCode::kFormat, what, " is truncated: ", size, " bytes, its header alone has ", kIdxSumsHeaderBytes);
  if (std::memcmp(data, kMagic, sizeof kMagic) != 0)
    fail(ErrorCode::kFormat, what, " is not a lodex block-checksum file");
  if (!ends_with_checksum(data, kIdxSumsHeaderBytes))
    fail(ErrorCode::kFormat, what, ": its header does not match its checksum (damaged)");
  ByteReader r(data, kIdxSumsHeaderBytes, what);
  r.skip(sizeof kMagic, "magic");
  const uint32_t version = r.get<uint32_t>("version");
  if (version != kVersion)
    fail(ErrorCode::kUnsupported, what, " has version ", version, "; this lodex reads ", kVersion);
  IdxSumsHeader got;
  got.fields = r.get<uint32_t>("fields");
  got.blocks = r.get<uint64_t>("blocks");
  got.identity = r.get<uint64_t>("identity");
  if (got.identity != expected.identity || got.fields != expected.fields || got.blocks != expected.blocks)
    fail(ErrorCode::kFormat, what, " holds the checksums of another IDX dataset or time step (", got.fields,
         " fields of ", got.blocks, " blocks, layout ", got.identity, "; expected ", expected.fields, " of ",
         expected.blocks, ", layout ", expected.identity, "): the block files or this file were moved or replaced");
  if (file_size != idx_sums_bytes(expected))
    fail(ErrorCode::kFormat, what, " has ", file_size, " bytes; ", expected.fields, " fields of ", expected.blocks,
         " blocks take ", idx_sums_bytes(expected));
}

}  // namespace lodex
