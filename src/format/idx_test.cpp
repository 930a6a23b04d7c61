// Tests of the IDX header, block table and file names. The expected headers are what OpenVisus
// 2.2.149 (PyPI) wrote for the same parameters with CreateIdx.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "format/idx.hpp"
#include "format/idx_sums.hpp"
#include "support/expect_error.hpp"

namespace lodex {
namespace {

IdxHeader header(std::vector<IdxField> fields, int ndims, std::array<int64_t, 3> max, const std::string& bits, int bpb,
                 int64_t bpf, const std::string& tmpl) {
  IdxHeader h;
  h.ndims = ndims;
  h.box_max = max;
  h.fields = std::move(fields);
  h.bits = bits;
  h.bits_per_block = bpb;
  h.blocks_per_file = bpf;
  h.filename_template = tmpl;
  return h;
}

const char* kTail = "(missing_blocks)\n0\n(arco)\n0\n";

TEST(IdxHeader, EncodesExactlyWhatOpenVisusWrites) {
  const IdxHeader two = header({{"temp", DType::kF4, 1}, {"id", DType::kI4, 1}}, 3, {15, 15, 15}, "V012012012012", 10,
                               2, "./two/%04x.bin");
  EXPECT_EQ(encode_idx_header(two),
            std::string("(version)\n6\n(box)\n0 15 0 15 0 15\n(fields)\n"
                        "temp float32 default_layout(hzorder) default_value(0) min(0) max(0) \n"
                        "+ id int32 default_layout(hzorder) default_value(0) min(0) max(0) \n"
                        "(bits)\nV012012012012\n(bitsperblock)\n10\n(blocksperfile)\n2\n(interleave block)\n0\n"
                        "(filename_template)\n./two/%04x.bin\n") +
                kTail);
  const IdxHeader vec = header({{"v", DType::kF4, 3}}, 3, {15, 15, 15}, "V012012012012", 12, 1, "./vec/%04x.bin");
  EXPECT_NE(
      encode_idx_header(vec).find("v float32[3] default_layout(hzorder) default_value(0) min(0 0 0) max(0 0 0) \n"),
      std::string::npos);
  IdxHeader time = header({{"data", DType::kF4, 1}}, 3, {15, 15, 15}, "V012012012012", 12, 1, "./time/%04x.bin");
  time.time = IdxTime{"0", "2", "time_%02d/"};
  EXPECT_NE(encode_idx_header(time).find("(interleave block)\n0\n(time)\n0 2 time_%02d/\n(filename_template)\n"),
            std::string::npos);
  const IdxHeader u2 = header({{"data", DType::kU1, 1}}, 2, {31, 31, 0}, "V0101010101", 10, 1, "./u2/%04x.bin");
  EXPECT_EQ(encode_idx_header(u2),
            std::string("(version)\n6\n(box)\n0 31 0 31\n(fields)\n"
                        "data uint8 default_layout(hzorder) default_value(0) min(0) max(0) \n"
                        "(bits)\nV0101010101\n(bitsperblock)\n10\n(blocksperfile)\n1\n(interleave block)\n0\n"
                        "(filename_template)\n./u2/%04x.bin\n") +
                kTail);
}

TEST(IdxHeader, DecodesOwnOpenVisusAndPidxSpellings) {
  IdxHeader two = header({{"temp", DType::kF4, 1}, {"id", DType::kI4, 2}}, 3, {15, 15, 7}, "V012012012012", 10, 2,
                         "./two/%04x.bin");
  two.time = IdxTime{"0", "2", "time_%02d/"};
  const IdxHeader back = decode_idx_header(encode_idx_header(two), "two.idx");
  EXPECT_EQ(back.ndims, 3);
  EXPECT_EQ(back.dims(), (std::array<uint64_t, 3>{16, 16, 8}));
  ASSERT_EQ(back.fields.size(), 2u);
  EXPECT_EQ(back.fields[1].name, "id");
  EXPECT_EQ(back.fields[1].dtype, DType::kI4);
  EXPECT_EQ(back.fields[1].components, 2u);
  EXPECT_TRUE(back.fields[0].hz_layout);
  EXPECT_EQ(back.bits, "V012012012012");
  EXPECT_EQ(back.bits_per_block, 10);
  EXPECT_EQ(back.blocks_per_file, 2);
  ASSERT_TRUE(back.time.has_value());
  EXPECT_EQ(back.time->pattern, "time_%02d/");
  EXPECT_EQ(back.filename_template, "./two/%04x.bin");
  // PIDX: version 6.1, a 5-D box, n*type fields, its own keys, comments and blank lines.
  const IdxHeader pidx = decode_idx_header(
      "(version)\n6.1\n# a comment\n\n(box)\n0 63 0 63 0 31 0 0 0 0\n(fields)\nvar_0 1*float32 + var_1 3*float64\n"
      "(bits)\nV01210210210210210\n(bitsperblock)\n15\n(blocksperfile)\n256\n(filename_template)\n./b4/%03x.bin\n"
      "(io mode)\nidx\n(endian)\nlittle\n",
      "pidx.idx");
  EXPECT_EQ(pidx.ndims, 3);
  EXPECT_EQ(pidx.dims(), (std::array<uint64_t, 3>{64, 64, 32}));
  ASSERT_EQ(pidx.fields.size(), 2u);
  EXPECT_EQ(pidx.fields[1].dtype, DType::kF8);
  EXPECT_EQ(pidx.fields[1].components, 3u);
  EXPECT_EQ(pidx.other.size(), 2u);
  // Multi-line field lists, row-major hints, bare "compressed", 0 bitsperblock, -1 blocksperfile.
  const IdxHeader misc = decode_idx_header(
      "(version)\n6\n(box)\n0 15 0 15\n(fields)\na float64 compressed format(1)\n+ b uint16[2] default_layout()\n"
      "(bits)\nV01010101\n(bitsperblock)\n0\n(blocksperfile)\n-1\n(filename_template)\n./m/%04x.bin\n",
      "misc.idx");
  EXPECT_EQ(misc.ndims, 2);
  EXPECT_EQ(misc.fields[0].compression, "zip");
  EXPECT_FALSE(misc.fields[0].hz_layout);
  EXPECT_FALSE(misc.fields[1].hz_layout);
  EXPECT_EQ(misc.bits_per_block, 8);    // min(maxh, 16)
  EXPECT_EQ(misc.blocks_per_file, 1);   // every block (2^(8-8) = 1) in one file
}

TEST(IdxHeader, BadHeadersNameTheFileAndTheProblem) {
  const std::string ok =
      "(version)\n6\n(box)\n0 15 0 15 0 15\n(fields)\nd float32\n(bits)\nV012012012012\n(bitsperblock)\n12\n"
      "(blocksperfile)\n1\n(filename_template)\n./d/%04x.bin\n";
  EXPECT_NO_THROW(decode_idx_header(ok, "d.idx"));
  auto broken = [&](const std::string& from, const std::string& to) {
    std::string s = ok;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  struct Case {
    std::string from, to;
    ErrorCode code;
    std::string says;   // a part of the message specific to this problem
  };
  const std::vector<Case> cases = {
      {"(bits)\nV012012012012", "(bits)\nV0120120120", ErrorCode::kFormat, "does not cover the box"},
      {"(bits)\nV012012012012", "(bits)\nV012012012013", ErrorCode::kFormat, "only axes 0 (x), 1 (y) and 2 (z)"},
      {"d float32", "d float31", ErrorCode::kFormat, "has type 'float31'"},
      {"d float32", "d", ErrorCode::kFormat, "needs a name and a type"},
      {"0 15 0 15 0 15", "0 15 0 15 0", ErrorCode::kFormat, "2 to 10 integers"},
      {"0 15 0 15 0 15", "0 15 9 3 0 15", ErrorCode::kFormat, "empty or negative axis"},
      {"(version)\n6", "(version)\n5", ErrorCode::kUnsupported, "version 5"},
      {"(blocksperfile)\n1", "(blocksperfile)\nmany", ErrorCode::kFormat, "(blocksperfile) is 'many'"},
      {"(bitsperblock)\n12\n", "", ErrorCode::kFormat, "missing one of"},
      {"(filename_template)\n./d/%04x.bin\n", "(filename_template)\n\n", ErrorCode::kUnsupported,
       "empty (filename_template)"},
  };
  for (const Case& c : cases) {
    const std::string msg = expect_error(c.code, [&] { decode_idx_header(broken(c.from, c.to), "broken.idx"); });
    EXPECT_NE(msg.find("broken.idx"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.says), std::string::npos) << "'" << c.says << "' not in: " << msg;
  }
  EXPECT_THROW(decode_idx_header("text\n" + ok, "x.idx"), Error);
}

TEST(IdxTable, RoundTripsBigEndianAndChecksBounds) {
  std::vector<IdxBlockEntry> e(4 * 2);
  e[0] = {360, 2048, 0};   // right after the table: 40 + 8 x 40
  e[1] = {2408, 2048, kIdxCodecZip};
  e[5] = {(uint64_t{1} << 32) + 8, 100, kIdxRowMajor};   // a 64-bit offset
  std::vector<uint8_t> bytes;
  encode_idx_table(e, bytes);
  ASSERT_EQ(bytes.size(), idx_table_bytes(4, 2));
  ASSERT_EQ(bytes.size(), 40u + 8 * 40);
  // Entry 0: words 0, 0, 360, 0, 2048, 0 big-endian.
  EXPECT_EQ(bytes[40 + 10], 0x01);
  EXPECT_EQ(bytes[40 + 11], 0x68);
  EXPECT_EQ(bytes[40 + 18], 0x08);
  EXPECT_EQ(bytes[40 + 40 + 23], kIdxCodecZip);
  const auto back = decode_idx_table(bytes.data(), bytes.size(), 4, 2, (uint64_t{1} << 33), "f.bin");
  ASSERT_EQ(back.size(), 8u);
  EXPECT_EQ(back[0].offset, 360u);
  EXPECT_EQ(back[1].flags, kIdxCodecZip);
  EXPECT_EQ(back[5].offset, (uint64_t{1} << 32) + 8);
  EXPECT_FALSE(back[2].present());
  // A block past the end of the file, and a table cut short.
  const std::string m =
      expect_error(ErrorCode::kFormat, [&] { decode_idx_table(bytes.data(), bytes.size(), 4, 2, 3000, "f.bin"); });
  EXPECT_NE(m.find("f.bin"), std::string::npos);
  EXPECT_NE(m.find("block slot 1 of field 0"), std::string::npos) << m;
  expect_error(ErrorCode::kFormat, [&] { decode_idx_table(bytes.data(), 100, 4, 2, 1 << 20, "f.bin"); });
  std::vector<IdxBlockEntry> inside{{40, 8, 0}};   // points into the table itself
  bytes.clear();
  encode_idx_table(inside, bytes);
  expect_error(ErrorCode::kFormat, [&] { decode_idx_table(bytes.data(), bytes.size(), 1, 1, 1000, "g.bin"); });
}

TEST(IdxNames, FilesAreNamedByTheirFirstBlock) {
  EXPECT_EQ(idx_block_file("/d", "./name/%04x.bin", "", 0, 8), "/d/name/0000.bin");
  EXPECT_EQ(idx_block_file("/d", "./name/%04x.bin", "", 9, 8), "/d/name/0008.bin");
  EXPECT_EQ(idx_block_file("/d", "./name/%04x.bin", "", 16, 8), "/d/name/0010.bin");
  EXPECT_EQ(idx_block_file("/d", "./b4/%03x.bin", "", 300, 128), "/d/b4/100.bin");
  EXPECT_EQ(idx_block_file("/d", "./b4/%03x.bin", "", 0x80, 128), "/d/b4/080.bin");
  // The time directory goes before the leftmost group.
  EXPECT_EQ(idx_block_file("/d", "./time/%04x.bin", idx_time_dir(IdxTime{"0", "2", "time_%02d/"}, 1), 2, 1),
            "/d/time/time_01/0002.bin");
  // Address bits beyond the groups: more groups of the leftmost width in front.
  EXPECT_EQ(idx_block_file("/d", "./n/%04x.bin", "", 0x12345, 1), "/d/n/0001/2345.bin");
  EXPECT_EQ(idx_block_file("/d", "./n/%02x/%04x.bin", "", 0x1234567, 1), "/d/n/01/23/4567.bin");
  EXPECT_EQ(idx_block_file("", "./n/%04x.bin", "", 1, 1), "./n/0001.bin");
  EXPECT_EQ(idx_block_file("/d", "/abs/%04x.bin", "", 1, 1), "/abs/0001.bin");
  EXPECT_THROW(idx_block_file("/d", "./n/%d.bin", "", 1, 1), Error);
  EXPECT_THROW(idx_block_file("/d", "./n/plain.bin", "", 1, 1), Error);
  EXPECT_EQ(idx_time_dir(IdxTime{"0", "9", "time%09d/"}, 42), "time000000042/");
  EXPECT_EQ(idx_time_dir(std::nullopt, 3), "");
  EXPECT_THROW(idx_time_dir(IdxTime{"0", "1", "t_%s/"}, 1), Error);
}

TEST(IdxSums, HeaderRoundTripsAndNamesWhatIsWrong) {
  const std::vector<IdxField> fields{{"p", DType::kF4, 1, "", true}, {"u", DType::kF8, 3, "", true}};
  const IdxSumsHeader h{idx_sums_identity({4, 4, 2}, "V012012", 4, 8, fields, 3), 8, 2};
  std::vector<uint8_t> bytes = encode_idx_sums_header(h);
  ASSERT_EQ(bytes.size(), kIdxSumsHeaderBytes);
  EXPECT_EQ(idx_sums_bytes(h), 48u + 8 * 16);
  EXPECT_EQ(idx_sums_offset(h, 1, 2), 48u + 8 * 10);
  check_idx_sums_header(bytes.data(), bytes.size(), idx_sums_bytes(h), h, "s");
  // Another step, bitmask, block size or field: another identity.
  EXPECT_NE(h.identity, idx_sums_identity({4, 4, 2}, "V012012", 4, 8, fields, 4));
  EXPECT_NE(h.identity, idx_sums_identity({4, 4, 2}, "V012021", 4, 8, fields, 3));
  EXPECT_NE(h.identity, idx_sums_identity({4, 4, 2}, "V012012", 5, 8, fields, 3));
  EXPECT_NE(h.identity, idx_sums_identity({4, 4, 2}, "V012012", 4, 8, {fields[1], fields[0]}, 3));
  EXPECT_NE(h.identity, idx_sums_identity({4, 3, 2}, "V012012", 4, 8, fields, 3));
  IdxSumsHeader other = h;
  other.identity ^= 1;
  expect_error(ErrorCode::kFormat, [&] { check_idx_sums_header(bytes.data(), 48, idx_sums_bytes(h), other, "s"); });
  expect_error(ErrorCode::kFormat, [&] { check_idx_sums_header(bytes.data(), 48, idx_sums_bytes(h) - 8, h, "s"); });
  expect_error(ErrorCode::kFormat, [&] { check_idx_sums_header(bytes.data(), 40, idx_sums_bytes(h), h, "s"); });
  for (size_t i = 0; i < bytes.size(); ++i) {   // every single-bit flip of the header is caught
    for (int bit = 0; bit < 8; ++bit) {
      bytes[i] ^= static_cast<uint8_t>(1 << bit);
      EXPECT_THROW(check_idx_sums_header(bytes.data(), 48, idx_sums_bytes(h), h, "s"), Error) << i << " " << bit;
      bytes[i] ^= static_cast<uint8_t>(1 << bit);
    }
  }
}

TEST(IdxSums, BlockSumsDependOnBytesBlockFieldAndFlags) {
  std::vector<uint8_t> block(256, 7);
  const uint64_t s = idx_block_sum(block.data(), block.size(), 5, 1, 0);
  EXPECT_NE(s, 0u);
  EXPECT_NE(s, idx_block_sum(block.data(), block.size(), 6, 1, 0));
  EXPECT_NE(s, idx_block_sum(block.data(), block.size(), 5, 0, 0));
  EXPECT_NE(s, idx_block_sum(block.data(), block.size(), 5, 1, 0x10));
  EXPECT_NE(s, idx_block_sum(block.data(), block.size() - 1, 5, 1, 0));
  for (size_t i = 0; i < block.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      block[i] ^= static_cast<uint8_t>(1 << bit);
      EXPECT_NE(s, idx_block_sum(block.data(), block.size(), 5, 1, 0));
      block[i] ^= static_cast<uint8_t>(1 << bit);
    }
  EXPECT_EQ(idx_sums_path("/d/g.idx", ""), "/d/g.checksums/blocks.xxh3");
  EXPECT_EQ(idx_sums_path("/d/g.idx", "time_01/"), "/d/g.checksums/time_01/blocks.xxh3");
}

}  // namespace
}  // namespace lodex
