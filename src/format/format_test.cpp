// Tests of the on-disk structures: particle data file heads, spatial metadata and the manifest.
// Round trips compare every value; every corruption and truncation must fail with kFormat.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "core/checksum.hpp"
#include "core/error.hpp"
#include "format/series_file.hpp"
#include "format/bitmap_index.hpp"
#include "format/manifest.hpp"
#include "format/particle_file.hpp"
#include "format/spatial_metadata.hpp"
#include "format/truncation.hpp"
#include "layout/lod_order.hpp"

namespace lodex {
namespace {

// ---------------------------------------------------------------- particle data file

ParticleFileHead make_head(uint64_t n, uint32_t bits) {
  ParticleFileHead h;
  h.num_particles = n;
  h.level_scale = 2;
  h.brick_bits = bits;
  h.brick_box = Box{{-1, 0, 2.5}, {1, 0.1, 3}};
  h.seed = 0xfedcba9876543210ull;
  h.fields = {{"position", DType::kF8, 3}, {"energy", DType::kF4, 1}, {"id", DType::kI8, 1}, {"tag", DType::kU1, 5}};
  h.level_ends = lod_level_ends(n, 2, 100);
  const uint64_t nb = h.num_bricks();
  uint64_t prev = 0;
  for (uint64_t end : h.level_ends) {
    for (uint64_t m = 0; m < nb; ++m) h.segment_starts.push_back(prev + (end - prev) * m / nb);
    prev = end;
  }
  h.segment_starts.push_back(n);
  h.segment_checksums.resize(h.fields.size() * h.num_segments());
  for (size_t i = 0; i < h.segment_checksums.size(); ++i) h.segment_checksums[i] = i * 0x9e3779b97f4a7c15ull + 1;
  assign_column_offsets(h);
  return h;
}

void expect_heads_equal(const ParticleFileHead& a, const ParticleFileHead& b) {
  EXPECT_EQ(a.num_particles, b.num_particles);
  EXPECT_EQ(a.level_scale, b.level_scale);
  EXPECT_EQ(a.brick_bits, b.brick_bits);
  EXPECT_EQ(a.brick_box, b.brick_box);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.fields, b.fields);
  EXPECT_EQ(a.column_offsets, b.column_offsets);
  EXPECT_EQ(a.level_ends, b.level_ends);
  EXPECT_EQ(a.segment_starts, b.segment_starts);
  EXPECT_EQ(a.segment_checksums, b.segment_checksums);
}

// Both decoding steps, as a reader runs them on a head held in memory.
ParticleFileHead decode_both(const std::vector<uint8_t>& bytes, size_t size, uint64_t file_size) {
  const uint64_t hs =
      decode_particle_header_size(bytes.data(), std::min<size_t>(size, kParticleHeaderBytes), file_size, "test.lpd");
  if (hs != size) fail(ErrorCode::kFormat, "head size ", hs, " differs from ", size);
  return decode_particle_head(bytes.data(), size, file_size, "test.lpd");
}

TEST(ParticleFile, ColumnOffsetsAreAlignedAndDisjoint) {
  const ParticleFileHead h = make_head(1000, 1);
  ASSERT_EQ(h.column_offsets.size(), 4u);
  const uint64_t nseg = h.num_segments();
  EXPECT_EQ(nseg, 5u * 8u);   // levels 63, 125, 250, 500, 1000
  EXPECT_EQ(h.head_bytes(), 128 + 4 * 64 + 5 * 8 + (nseg + 1) * 8 + 4 * nseg * 8 + 8);
  uint64_t end = h.head_bytes();
  for (size_t f = 0; f < 4; ++f) {
    EXPECT_EQ(h.column_offsets[f] % kColumnAlignment, 0u) << f;
    EXPECT_GE(h.column_offsets[f], end) << f;
    EXPECT_LT(h.column_offsets[f] - end, kColumnAlignment) << "needless gap before field " << f;
    EXPECT_EQ(h.column_bytes(f), 1000 * h.fields[f].row_bytes());
    end = h.column_offsets[f] + h.column_bytes(f);
  }
  EXPECT_EQ(h.file_bytes(), end);
  EXPECT_EQ(h.column_bytes(3), 5000u);
}

// The writers' runs cover every column byte once, in file order, along segment boundaries, with
// the padding written by the run ending each column, and shares within one segment of even.
TEST(ParticleFile, ColumnSlicesCoverEveryByteOnceAndBalance) {
  for (uint64_t n : {1ull, 7ull, 1000ull, 100000ull})
    for (uint32_t bits : {0u, 1u, 2u})
      for (uint32_t writers : {1u, 2u, 3u, 5u, 8u, 13u}) {
        SCOPED_TRACE(testing::Message() << n << " particles, " << bits << " brick bits, " << writers << " writers");
        const ParticleFileHead h = make_head(n, bits);
        const auto slices = slice_columns(h, writers);
        ASSERT_EQ(slices.size(), writers);
        uint64_t at = h.column_offsets[0], biggest_segment = 0, total = 0;
        std::vector<uint64_t> share(writers, 0);
        for (uint32_t k = 0; k < writers; ++k)
          for (const SegmentRun& r : slices[k]) {
            const uint64_t rb = h.fields[r.field].row_bytes();
            ASSERT_LT(r.first, r.end);
            ASSERT_LE(r.end, h.num_segments());
            EXPECT_EQ(h.column_offsets[r.field] + h.segment_starts[r.first] * rb, at) << "runs out of file order";
            at = h.column_offsets[r.field] + h.segment_starts[r.end] * rb;
            EXPECT_EQ(r.padding, r.end == h.num_segments());
            if (r.padding) at = r.field + 1 < h.fields.size() ? h.column_offsets[r.field + 1] : h.file_bytes();
            for (uint64_t s = r.first; s < r.end; ++s)
              biggest_segment = std::max(biggest_segment, (h.segment_starts[s + 1] - h.segment_starts[s]) * rb);
            share[k] += (h.segment_starts[r.end] - h.segment_starts[r.first]) * rb;
          }
        EXPECT_EQ(at, h.file_bytes());
        for (size_t f = 0; f < h.fields.size(); ++f) total += h.column_bytes(f);
        for (uint32_t k = 0; k < writers; ++k)
          EXPECT_LE(share[k], total / writers + biggest_segment + 1) << "writer " << k;
      }
  EXPECT_THROW(slice_columns(make_head(10, 0), 0), Error);
}

TEST(ParticleFile, HeadRoundTrip) {
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{1000}}) {
    for (uint32_t bits : {0u, 1u, 2u}) {
      if (n == 0 && bits) continue;
      SCOPED_TRACE(testing::Message() << n << " particles, " << bits << " brick bits");
      const ParticleFileHead h = make_head(n, bits);
      const std::vector<uint8_t> bytes = encode_particle_head(h);
      ASSERT_EQ(bytes.size(), h.head_bytes());
      EXPECT_EQ(std::memcmp(bytes.data(), kParticleFileMagic, 8), 0);
      EXPECT_EQ(decode_particle_header_size(bytes.data(), kParticleHeaderBytes, h.file_bytes(), "x"), h.head_bytes());
      expect_heads_equal(decode_both(bytes, bytes.size(), h.file_bytes()), h);
      EXPECT_EQ(encode_particle_head(decode_both(bytes, bytes.size(), h.file_bytes())), bytes);
    }
  }
}

TEST(ParticleFile, EncodeRejectsInconsistentTables) {
  ParticleFileHead h = make_head(100, 1);
  h.segment_starts.pop_back();
  EXPECT_EQ(code_of([&] { encode_particle_head(h); }), ErrorCode::kInternal);
}

TEST(ParticleFile, EveryFlippedBitOfTheHeadIsRejected) {
  const ParticleFileHead h = make_head(1000, 1);
  std::vector<uint8_t> bytes = encode_particle_head(h);
  size_t accepted = 0, unnamed = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
      std::string msg;
      const ErrorCode c = code_of([&] { decode_both(bytes, bytes.size(), h.file_bytes()); }, &msg);
      if (c != ErrorCode::kFormat && accepted++ < 10)
        ADD_FAILURE() << "byte " << i << " bit " << bit << ": " << error_code_name(c);
      if (c == ErrorCode::kFormat && msg.find("test.lpd") == std::string::npos && unnamed++ < 10)
        ADD_FAILURE() << "the message does not name the file: " << msg;
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
    }
  EXPECT_EQ(accepted, 0u);
  EXPECT_EQ(unnamed, 0u);
  EXPECT_NO_THROW(decode_both(bytes, bytes.size(), h.file_bytes()));
}

TEST(ParticleFile, EveryTruncationIsRejected) {
  const ParticleFileHead h = make_head(1000, 2);
  const std::vector<uint8_t> bytes = encode_particle_head(h);
  for (size_t len = 0; len < bytes.size(); ++len) {
    if (len < kParticleHeaderBytes) {
      ASSERT_EQ(code_of([&] { decode_particle_header_size(bytes.data(), len, h.file_bytes(), "t"); }),
                ErrorCode::kFormat)
          << len;
    }
    ASSERT_EQ(code_of([&] { decode_particle_head(bytes.data(), len, h.file_bytes(), "t"); }), ErrorCode::kFormat)
        << len;
  }
  // A file shorter than its columns (or its tables) fails, whatever its length.
  for (uint64_t fs = 0; fs < h.file_bytes(); fs += (fs < 4096 ? 1 : 61))
    ASSERT_EQ(code_of([&] { decode_both(bytes, bytes.size(), fs); }), ErrorCode::kFormat) << fs;
  std::string msg;
  EXPECT_EQ(code_of([&] { decode_both(bytes, bytes.size(), h.file_bytes() - 1); }, &msg), ErrorCode::kFormat);
  EXPECT_NE(msg.find("outside the file"), std::string::npos) << msg;
  EXPECT_NO_THROW(decode_both(bytes, bytes.size(), h.file_bytes() + 100));
}

// Corrupt values with valid checksums: the decoder must validate contents, not only checksums.
void fix_header_checksum(std::vector<uint8_t>& b) {
  const uint64_t c = checksum64(b.data(), 120);
  std::memcpy(b.data() + 120, &c, 8);
}
void fix_tables_checksum(std::vector<uint8_t>& b) {
  const uint64_t c = checksum64(b.data() + 128, b.size() - 128 - 8);
  std::memcpy(b.data() + b.size() - 8, &c, 8);
}
template <typename T>
void put(std::vector<uint8_t>& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

TEST(ParticleFile, InconsistentContentsWithValidChecksumsAreRejected) {
  const ParticleFileHead base = make_head(1000, 1);
  const uint64_t fb = base.file_bytes();
  using Mut = std::function<void(std::vector<uint8_t>&)>;
  const size_t f0 = 128;   // field entry 0: name[32], dtype, pad[3], components, offset, bytes, reserved
  const size_t levels = 128 + 4 * 64, segs = levels + 5 * 8;
  const std::vector<std::pair<const char*, Mut>> header_cases = {
      {"magic", [](auto& b) { b[3] = 'Q'; }},
      {"version", [](auto& b) { put<uint32_t>(b, 8, 2); }},
      {"header bytes", [](auto& b) { put<uint32_t>(b, 12, 64); }},
      {"no fields", [](auto& b) { put<uint32_t>(b, 24, 0); }},
      {"too many fields", [](auto& b) { put<uint32_t>(b, 24, 5000); }},
      {"levels > 64", [](auto& b) { put<uint32_t>(b, 28, 65); }},
      {"no levels", [](auto& b) { put<uint32_t>(b, 28, 0); }},
      {"brick bits", [](auto& b) { put<uint32_t>(b, 32, 11); }},
      {"level scale", [](auto& b) { put<uint32_t>(b, 36, 1); }},
      {"tables offset", [](auto& b) { put<uint64_t>(b, 96, 136); }},
      {"tables bytes", [](auto& b) { put<uint64_t>(b, 104, 8); }},
      {"particle count", [](auto& b) { put<uint64_t>(b, 16, 999); }},
      {"zero particles", [](auto& b) { put<uint64_t>(b, 16, 0); }},
  };
  for (const auto& [name, mut] : header_cases) {
    std::vector<uint8_t> b = encode_particle_head(base);
    mut(b);
    fix_header_checksum(b);
    EXPECT_EQ(code_of([&] { decode_both(b, b.size(), fb); }), ErrorCode::kFormat) << name;
  }
  const std::vector<std::pair<const char*, Mut>> table_cases = {
      {"name not NUL-terminated", [&](auto& b) { std::memset(b.data() + f0, 'a', 32); }},
      {"dtype code 0", [&](auto& b) { b[f0 + 32] = 0; }},
      {"dtype code 42", [&](auto& b) { b[f0 + 32] = 42; }},
      {"dtype f8 -> f4", [&](auto& b) { b[f0 + 32] = 1; }},
      {"0 components", [&](auto& b) { put<uint32_t>(b, f0 + 36, 0); }},
      {"components 3 -> 2", [&](auto& b) { put<uint32_t>(b, f0 + 36, 2); }},
      {"column in the tables", [&](auto& b) { put<uint64_t>(b, f0 + 40, 128); }},
      {"column past the end", [&](auto& b) { put<uint64_t>(b, f0 + 40, fb); }},
      {"column offset overflows", [&](auto& b) { put<uint64_t>(b, f0 + 40, ~uint64_t{0} - 8); }},
      {"column bytes", [&](auto& b) { put<uint64_t>(b, f0 + 48, 8); }},
      {"level ends decrease", [&](auto& b) { put<uint64_t>(b, levels, 200); }},
      {"last level short", [&](auto& b) { put<uint64_t>(b, levels + 32, 999); }},
      {"level beyond count", [&](auto& b) { put<uint64_t>(b, levels + 32, 1001); }},
      {"segment start 0 not 0", [&](auto& b) { put<uint64_t>(b, segs, 1); }},
      {"segments decrease", [&](auto& b) { put<uint64_t>(b, segs + 8 * 3, 0); }},
      {"segment past count", [&](auto& b) { put<uint64_t>(b, segs + 8 * 40, 1001); }},
      {"level boundary", [&](auto& b) { put<uint64_t>(b, segs + 8 * 8, 64); }},
  };
  for (const auto& [name, mut] : table_cases) {
    std::vector<uint8_t> b = encode_particle_head(base);
    mut(b);
    fix_tables_checksum(b);
    std::string msg;
    EXPECT_EQ(code_of([&] { decode_both(b, b.size(), fb); }, &msg), ErrorCode::kFormat) << name;
    EXPECT_NE(msg.find("test.lpd"), std::string::npos) << name << ": " << msg;
  }
}

// ---------------------------------------------------------------- spatial metadata

DataFileRecord record(uint32_t p, uint64_t count, uint32_t nc) {
  DataFileRecord r;
  r.file_name = "p" + std::to_string(p) + ".lpd";
  r.partition = p;
  r.aggregator_rank = static_cast<int32_t>(p * 3);
  r.partition_box = Box{{0.5 * p, 0, 0}, {0.5 * p + 0.5, 1, 1}};
  r.bounds = Box{{0.5 * p + 0.01, 0.02, 0.03}, {0.5 * p + 0.49, 0.98, 0.97}};
  r.count = count;
  r.file_bytes = 4096 + count * 41;
  r.head_checksum = 0xabcdef0123456789ull ^ p;
  for (uint32_t c = 0; c < nc; ++c) {
    r.min.push_back(-1.5 * c - p);
    r.max.push_back(2.25 * c + p + 0.1);
  }
  return r;
}

SpatialMetadata make_meta() {
  SpatialMetadata m;
  m.step = 12345678901ll;
  m.num_components = 5;
  m.files = {record(0, 100, 5), record(3, 0, 5), record(7, 123456789012ull, 5)};
  return m;
}

void expect_records_equal(const DataFileRecord& a, const DataFileRecord& b) {
  EXPECT_EQ(a.file_name, b.file_name);
  EXPECT_EQ(a.partition, b.partition);
  EXPECT_EQ(a.aggregator_rank, b.aggregator_rank);
  EXPECT_EQ(a.partition_box, b.partition_box);
  EXPECT_EQ(a.bounds, b.bounds);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.file_bytes, b.file_bytes);
  EXPECT_EQ(a.head_checksum, b.head_checksum);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
}

TEST(SpatialMetadata, RoundTrip) {
  const SpatialMetadata m = make_meta();
  const std::vector<uint8_t> bytes = encode_spatial_metadata(m);
  EXPECT_EQ(bytes.size(), 40 + 3 * data_file_record_bytes(5) + 8);
  const SpatialMetadata d = decode_spatial_metadata(bytes.data(), bytes.size(), "s.lsm");
  EXPECT_EQ(d.step, m.step);
  EXPECT_EQ(d.num_components, 5u);
  EXPECT_EQ(d.total_particles(), 100 + 123456789012ull);
  ASSERT_EQ(d.files.size(), 3u);
  for (size_t i = 0; i < 3; ++i) expect_records_equal(d.files[i], m.files[i]);

  SpatialMetadata empty;
  empty.step = 0;
  const auto eb = encode_spatial_metadata(empty);
  const SpatialMetadata ed = decode_spatial_metadata(eb.data(), eb.size(), "e.lsm");
  EXPECT_TRUE(ed.files.empty());
  EXPECT_EQ(ed.num_components, 0u);
}

TEST(SpatialMetadata, SingleRecordRoundTrip) {
  const DataFileRecord r = record(9, 77, 5);
  std::vector<uint8_t> out = {1, 2};   // appends
  encode_data_file_record(r, 5, out);
  ASSERT_EQ(out.size(), 2 + data_file_record_bytes(5));
  expect_records_equal(decode_data_file_record(out.data() + 2, out.size() - 2, 5, "rec"), r);
  EXPECT_EQ(code_of([&] { decode_data_file_record(out.data() + 2, out.size() - 3, 5, "rec"); }), ErrorCode::kFormat);
  EXPECT_EQ(code_of([&] { encode_data_file_record(r, 4, out); }), ErrorCode::kInternal);
}

TEST(SpatialMetadata, EveryFlippedBitAndTruncationIsRejected) {
  std::vector<uint8_t> bytes = encode_spatial_metadata(make_meta());
  size_t accepted = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
      if (code_of([&] { decode_spatial_metadata(bytes.data(), bytes.size(), "s.lsm"); }) != ErrorCode::kFormat &&
          accepted++ < 10)
        ADD_FAILURE() << "byte " << i << " bit " << bit << " accepted";
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
    }
  EXPECT_EQ(accepted, 0u);
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::string msg;
    ASSERT_EQ(code_of([&] { decode_spatial_metadata(bytes.data(), len, "s.lsm"); }, &msg), ErrorCode::kFormat) << len;
    ASSERT_NE(msg.find("s.lsm"), std::string::npos) << msg;
  }
  std::vector<uint8_t> longer = bytes;
  longer.insert(longer.end() - 8, 16, 0);   // extra bytes with a valid checksum
  const uint64_t c = checksum64(longer.data(), longer.size() - 8);
  std::memcpy(longer.data() + longer.size() - 8, &c, 8);
  EXPECT_EQ(code_of([&] { decode_spatial_metadata(longer.data(), longer.size(), "s.lsm"); }), ErrorCode::kFormat);
}

TEST(SpatialMetadata, FileNamesMustBePlain) {
  EXPECT_EQ(code_of([] { record(0, 1, 1); }), ErrorCode::kOk);
  for (const char* bad : {"a/b.lpd", "/p0.lpd", "../p0.lpd", ".hidden", ""}) {
    SpatialMetadata m = make_meta();
    m.files[1].file_name = bad;
    const auto bytes = encode_spatial_metadata(m);
    std::string msg;
    EXPECT_EQ(code_of([&] { decode_spatial_metadata(bytes.data(), bytes.size(), "s.lsm"); }, &msg), ErrorCode::kFormat)
        << bad;
    EXPECT_NE(msg.find("plain file name"), std::string::npos) << msg;
  }
  SpatialMetadata m = make_meta();
  m.files[0].file_name = std::string(64, 'x');   // does not fit the 64-byte slot with its NUL
  EXPECT_EQ(code_of([&] { encode_spatial_metadata(m); }), ErrorCode::kInternal);
  m.files[0].file_name = std::string(63, 'x');
  const auto ok = encode_spatial_metadata(m);
  EXPECT_EQ(decode_spatial_metadata(ok.data(), ok.size(), "s").files[0].file_name, std::string(63, 'x'));
}

TEST(SpatialMetadata, HeaderTotalMustMatchRecords) {
  std::vector<uint8_t> bytes = encode_spatial_metadata(make_meta());
  put<uint64_t>(bytes, 32, 5);   // total_particles
  const uint64_t c = checksum64(bytes.data(), bytes.size() - 8);
  std::memcpy(bytes.data() + bytes.size() - 8, &c, 8);
  std::string msg;
  EXPECT_EQ(code_of([&] { decode_spatial_metadata(bytes.data(), bytes.size(), "s.lsm"); }, &msg), ErrorCode::kFormat);
  EXPECT_NE(msg.find("header says 5"), std::string::npos) << msg;
}

// ---------------------------------------------------------------- manifest

Manifest make_manifest() {
  Manifest m;
  m.created_by = "lodex test";
  ParticleGroupMeta e;
  e.name = "electrons";
  e.schema = Schema({{"position", DType::kF8, 3}, {"energy", DType::kF4, 1}, {"id", DType::kI8, 1}});
  e.domain = Box{{-1, 0.1, 0}, {1, 2.7, 1e-3}};
  e.partition = {PartitionMode::kFactor, {2, 1, 4}};
  e.lod = LodParams{3, 100, 2000, 0x8000000000000005ull};
  for (int64_t s : {0, 5, 10}) {
    StepRecord r;
    r.step = s;
    r.particles = 1000 + s;
    r.files = 4;
    r.bytes = 123456789012ull + s;
    r.directory = "electrons/step-00000000" + std::to_string(s);
    r.metadata_checksum = ~uint64_t(s);
    r.writer_ranks = 64;
    e.steps.push_back(r);
  }
  ParticleGroupMeta ions;
  ions.name = "ions-2_b";
  ions.schema = Schema({{"q", DType::kI2, 2}, {"position", DType::kF4, 3}});
  ions.domain = Box{{0, 0, 0}, {1, 1, 1}};
  ions.partition = {PartitionMode::kGrid, {4, 4, 2}};
  ParticleGroupMeta dust;
  dust.name = "dust";
  dust.schema = Schema({{"position", DType::kF8, 3}});
  dust.domain = Box{{0, 0, 0}, {2, 2, 2}};
  dust.partition = {PartitionMode::kAdaptive, {1, 1, 1}, 2000000};
  m.particle_groups = {e, ions, dust};
  return m;
}

TEST(Manifest, RoundTrip) {
  const Manifest m = make_manifest();
  const std::string text = encode_manifest(m);
  const Manifest d = decode_manifest(text, "manifest.json");
  EXPECT_EQ(d.format_version, kManifestVersion);
  EXPECT_EQ(d.created_by, "lodex test");
  ASSERT_EQ(d.particle_groups.size(), 3u);
  for (const auto& g : m.particle_groups) {
    SCOPED_TRACE(g.name);
    const ParticleGroupMeta* h = d.find_particles(g.name);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->schema, g.schema);
    EXPECT_EQ(h->schema.describe(), g.schema.describe());
    EXPECT_EQ(h->domain, g.domain);
    EXPECT_EQ(h->partition.mode, g.partition.mode);
    EXPECT_EQ(h->partition.dims, g.partition.dims);
    EXPECT_EQ(h->partition.particles_per_file, g.partition.particles_per_file);
    EXPECT_EQ(h->lod.scale, g.lod.scale);
    EXPECT_EQ(h->lod.level0_max, g.lod.level0_max);
    EXPECT_EQ(h->lod.brick_target, g.lod.brick_target);
    EXPECT_EQ(h->lod.seed, g.lod.seed);
    ASSERT_EQ(h->steps.size(), g.steps.size());
    for (size_t i = 0; i < g.steps.size(); ++i) {
      const StepRecord &a = h->steps[i], &b = g.steps[i];
      EXPECT_EQ(a.step, b.step);
      EXPECT_EQ(a.particles, b.particles);
      EXPECT_EQ(a.files, b.files);
      EXPECT_EQ(a.bytes, b.bytes);
      EXPECT_EQ(a.directory, b.directory);
      EXPECT_EQ(a.metadata_checksum, b.metadata_checksum);
      EXPECT_EQ(a.writer_ranks, b.writer_ranks);
    }
  }
  EXPECT_EQ(d.find_particles("electrons")->find_step(5)->particles, 1005u);
  EXPECT_EQ(d.find_particles("electrons")->find_step(6), nullptr);
  EXPECT_EQ(d.find_particles("nope"), nullptr);
  EXPECT_EQ(d.find_particles("dust")->partition.mode, PartitionMode::kAdaptive);
  EXPECT_EQ(d.find_particles("dust")->partition.particles_per_file, 2000000u);
  EXPECT_EQ(encode_manifest(d), text);   // stable
}

// A manifest with step lists of every shape: many steps, indexes of both binnings, an empty list,
// grid steps with and without block checksums, names that sort apart from their order here.
Manifest busy_manifest() {
  Manifest m = make_manifest();
  ParticleGroupMeta& e = m.particle_groups[0];
  for (int64_t s = 11; s < 300; ++s) {
    StepRecord r = e.steps.back();
    r.step = s;
    r.particles = 7 * s;
    r.directory = "electrons/step-" + std::to_string(s);
    if (s % 3 == 0)
      r.indexes = {{"energy", {Binning::kPrecision, 3}, static_cast<uint64_t>(100 + s)},
                   {"id", {Binning::kEqualWeight, 8}, 5}};
    e.steps.push_back(r);
  }
  for (const char* name : {"zeta", "alpha"}) {
    GridMeta g;
    g.name = name;
    g.fields = {{"t", DType::kF4, 1}};
    g.dims = {4, 4, 4};
    g.bitmask = "V012012";
    for (int64_t s = 0; s < 5; ++s) {
      GridStepRecord r;
      r.step = s;
      r.files = 2;
      r.bytes = static_cast<uint64_t>(1000 + s);
      r.writer_ranks = 4;
      r.block_checksums = s % 2 == 0;
      g.steps.push_back(r);
    }
    m.grids.push_back(g);
  }
  return m;
}

TEST(Manifest, EncodingIsTheJsonLibrarysOwnLayout) {
  // The step lists are spliced in as text: the result must be exactly what nlohmann::json writes
  // for the same document, so re-dumping what it parses gives it back byte for byte.
  for (const Manifest& m : {make_manifest(), busy_manifest()}) {
    const std::string text = encode_manifest(m);
    EXPECT_EQ(nlohmann::json::parse(text).dump(1) + "\n", text);
    EXPECT_EQ(encode_manifest(m), text);   // again, from the cached step texts
  }
}

TEST(Manifest, CachedStepTextFollowsEveryChange) {
  Manifest m = busy_manifest();
  const std::string before = encode_manifest(m);
  Manifest copy = m;   // shares the cached texts
  StepRecord& r = copy.particle_groups[0].steps[40];
  r.indexes.push_back({"position", {Binning::kPrecision, 2}, 77});
  r.particles += 1;
  copy.grids[1].steps[3].block_checksums = !copy.grids[1].steps[3].block_checksums;
  const Manifest d = decode_manifest(encode_manifest(copy), "manifest.json");
  const StepRecord* got = d.find_particles("electrons")->find_step(r.step);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->particles, r.particles);
  ASSERT_NE(got->find_index("position"), nullptr);
  EXPECT_EQ(got->find_index("position")->bytes, 77u);
  EXPECT_EQ(d.find_grid("alpha")->steps[3].block_checksums, copy.grids[1].steps[3].block_checksums);
  EXPECT_EQ(encode_manifest(m), before);   // the original is untouched
}

TEST(Manifest, AValueSpelledLikeAStepListStaysAValue) {
  Manifest m = make_manifest();
  m.created_by = "\x01lodex-steps-0";
  const Manifest d = decode_manifest(encode_manifest(m), "manifest.json");
  EXPECT_EQ(d.created_by, m.created_by);
  EXPECT_EQ(d.find_particles("electrons")->steps.size(), 3u);
}

TEST(Manifest, MalformedInputNamesTheKeyPath) {
  using json = nlohmann::json;
  const json good = json::parse(encode_manifest(make_manifest()));
  struct Case {
    const char* path;   // expected in the message
    std::function<void(json&)> mut;
  };
  const std::string E = "/groups/electrons";
  const std::vector<Case> cases = {
      {"format", [](json& j) { j["format"] = "other"; }},
      {"format", [](json& j) { j["format"] = 5; }},
      {"missing key 'format_version'", [](json& j) { j.erase("format_version"); }},
      {"format_version", [](json& j) { j["format_version"] = 2; }},
      {"format_version", [](json& j) { j["format_version"] = "1"; }},
      {"created_by", [](json& j) { j["created_by"] = 5; }},
      {"missing key 'groups'", [](json& j) { j.erase("groups"); }},
      {"groups", [](json& j) { j["groups"] = json::array(); }},
      {"groups/electrons/kind", [&](json& j) { j[json::json_pointer(E + "/kind")] = "mesh"; }},
      {"groups/electrons: missing key 'schema'", [](json& j) { j["groups"]["electrons"].erase("schema"); }},
      {"groups/electrons/schema", [&](json& j) { j[json::json_pointer(E + "/schema")] = "position"; }},
      {"groups/electrons/schema/1/dtype", [&](json& j) { j[json::json_pointer(E + "/schema/1/dtype")] = "f16"; }},
      {"groups/electrons/schema/1/components", [&](json& j) { j[json::json_pointer(E + "/schema/1/components")] = 0; }},
      {"groups/electrons/schema/1/components",
       [&](json& j) { j[json::json_pointer(E + "/schema/1/components")] = -1; }},
      {"groups/electrons/schema/1/name", [&](json& j) { j[json::json_pointer(E + "/schema/1/name")] = 7; }},
      {"groups/electrons/schema", [&](json& j) { j[json::json_pointer(E + "/schema/0/name")] = "pos"; }},
      {"groups/electrons/domain", [&](json& j) { j[json::json_pointer(E + "/domain/1")] = json::array({1, 1}); }},
      {"groups/electrons/domain", [&](json& j) { j[json::json_pointer(E + "/domain/1/0")] = -1; }},
      {"groups/electrons/domain", [&](json& j) { j[json::json_pointer(E + "/domain/0/2")] = "0"; }},
      {"groups/electrons/partition/mode", [&](json& j) { j[json::json_pointer(E + "/partition/mode")] = "auto"; }},
      {"groups/electrons/partition/dims",
       [&](json& j) { j[json::json_pointer(E + "/partition/dims")] = json::array({1, 1}); }},
      {"groups/electrons/partition/dims", [&](json& j) { j[json::json_pointer(E + "/partition/dims/2")] = 0; }},
      {"groups/electrons/lod", [&](json& j) { j[json::json_pointer(E + "/lod/scale")] = 1; }},
      {"groups/dust/partition: missing key 'particles_per_file'",
       [](json& j) { j["groups"]["dust"]["partition"].erase("particles_per_file"); }},
      {"groups/dust/partition/particles_per_file",
       [](json& j) { j["groups"]["dust"]["partition"]["particles_per_file"] = 0; }},
      {"groups/electrons/lod: missing key 'seed'", [](json& j) { j["groups"]["electrons"]["lod"].erase("seed"); }},
      {"groups/electrons/steps", [&](json& j) { j[json::json_pointer(E + "/steps")] = json::object(); }},
      {"groups/electrons/steps/0/step", [&](json& j) { j[json::json_pointer(E + "/steps/0/step")] = -1; }},
      {"groups/electrons/steps/0/step", [&](json& j) { j[json::json_pointer(E + "/steps/0/step")] = 1.5; }},
      {"groups/electrons/steps/1/step", [&](json& j) { j[json::json_pointer(E + "/steps/1/step")] = 0; }},
      {"groups/electrons/steps/2/step", [&](json& j) { j[json::json_pointer(E + "/steps/2/step")] = 1; }},
      {"groups/electrons/steps/0/particles", [&](json& j) { j[json::json_pointer(E + "/steps/0/particles")] = -3; }},
      {"groups/electrons/steps/0/particles", [&](json& j) { j[json::json_pointer(E + "/steps/0/particles")] = "3"; }},
      {"groups/electrons/steps/0/directory",
       [&](json& j) { j[json::json_pointer(E + "/steps/0/directory")] = "../x"; }},
      {"groups/electrons/steps/0/directory",
       [&](json& j) { j[json::json_pointer(E + "/steps/0/directory")] = "a/../../b"; }},
      {"groups/electrons/steps/0/directory",
       [&](json& j) { j[json::json_pointer(E + "/steps/0/directory")] = "/abs"; }},
      {"groups/electrons/steps/0/directory", [&](json& j) { j[json::json_pointer(E + "/steps/0/directory")] = ""; }},
      {"groups/electrons/steps/0: missing key 'writer_ranks'",
       [](json& j) { j["groups"]["electrons"]["steps"][0].erase("writer_ranks"); }},
      {"groups/electrons/steps/0: expected an object", [&](json& j) { j[json::json_pointer(E + "/steps/0")] = 5; }},
      {"groups/bad name", [](json& j) { j["groups"]["bad name"] = j["groups"]["electrons"]; }},
  };
  for (const Case& c : cases) {
    json j = good;
    c.mut(j);
    std::string msg;
    EXPECT_EQ(code_of([&] { decode_manifest(j.dump(), "run/manifest.json"); }, &msg), ErrorCode::kFormat)
        << c.path << " in " << j.dump();
    EXPECT_NE(msg.find(c.path), std::string::npos) << "'" << c.path << "' not in: " << msg;
    EXPECT_EQ(msg.rfind("run/manifest.json", 0), 0u) << msg;
  }
  for (const char* text : {"", "{", "not json", "[]", "null", "{\"format\": \"lodex\"", "\x01"}) {
    std::string msg;
    EXPECT_EQ(code_of([&] { decode_manifest(text, "m.json"); }, &msg), ErrorCode::kFormat) << text;
    EXPECT_NE(msg.find("m.json"), std::string::npos) << msg;
  }
  EXPECT_EQ(code_of([&] { decode_manifest(good.dump(), "m.json"); }), ErrorCode::kOk);
}

TEST(Manifest, GroupNames) {
  for (const std::string& ok : std::vector<std::string>{"electrons", "a", "A_b-9", "x-", std::string(64, 'g')})
    EXPECT_EQ(code_of([&] { check_group_name(ok); }), ErrorCode::kOk) << ok;
  for (const std::string& bad :
       std::vector<std::string>{"", "-x", "a/b", "a.b", "a b", "..", "é", std::string(65, 'g')})
    EXPECT_EQ(code_of([&] { check_group_name(bad); }), ErrorCode::kInvalidArgument) << bad;
}

}  // namespace
}  // namespace lodex

// ---- Bitmap index files ----
namespace lodex {
namespace {

std::vector<uint32_t> iota_rows(uint32_t from, uint32_t to) {
  std::vector<uint32_t> v;
  for (uint32_t r = from; r < to; ++r) v.push_back(r);
  return v;
}

// Two bins and NaN rows: a run of 200 rows (a Roaring bitmap), 3 rows (raw ids), 7 NaN rows.
std::vector<uint8_t> small_index(BitmapIndexHead& head) {
  head.rows = 210;
  head.dtype = DType::kF4;
  head.binning = {Binning::kPrecision, 2};
  head.data_head_checksum = 1234;
  head.field = "energy";
  EncodedComponent c;
  c.bins = {{1.0, 1.5, 200, 0, 0, 0}, {2.0, 2.0, 3, 0, 0, 0}};
  const auto a = iota_rows(0, 200), b = iota_rows(200, 203), nan = iota_rows(203, 210);
  c.bitmaps = {encode_bin_rows(a.data(), a.size()), encode_bin_rows(b.data(), b.size()),
               encode_bin_rows(nan.data(), nan.size())};
  c.nan_rows = 7;
  return encode_bitmap_index(head, {c});
}

// Decodes everything the way a reader does; throws on any problem. Returns each entry's rows.
std::vector<std::vector<uint32_t>> decode_all(const std::vector<uint8_t>& bytes) {
  BitmapIndexHead h =
      decode_index_header(bytes.data(), std::min<size_t>(bytes.size(), kIndexHeaderBytes), bytes.size(), "t");
  const uint64_t tb = h.component_table_bytes();
  if (kIndexHeaderBytes + tb > bytes.size()) throw Error(ErrorCode::kFormat, "short");
  decode_index_components(bytes.data() + kIndexHeaderBytes, tb, h, "t");
  std::vector<std::vector<uint32_t>> out;
  for (uint32_t c = 0; c < h.components.size(); ++c) {
    const IndexComponent& ic = h.components[c];
    const auto bins = decode_index_bins(bytes.data() + ic.table_offset, ic.table_bytes(), h, c, "t");
    for (const IndexBin& e : bins) {
      if (e.bytes && bitmap_checksum(bytes.data() + e.offset, e.bytes) != e.checksum)
        throw Error(ErrorCode::kFormat, "bitmap");
      out.emplace_back();
      append_bin_rows(bytes.data() + e.offset, e, h.rows, out.back(), "t");
      if (bin_bitmap(bytes.data() + e.offset, e, h.rows, "t").cardinality() != e.count)
        throw Error(ErrorCode::kFormat, "count");
    }
  }
  return out;
}

TEST(BitmapIndex, RoundTrip) {
  BitmapIndexHead head;
  const std::vector<uint8_t> bytes = small_index(head);
  ASSERT_EQ(bytes.size(), head.file_bytes);
  BitmapIndexHead h = decode_index_header(bytes.data(), kIndexHeaderBytes, bytes.size(), "t");
  EXPECT_EQ(h.rows, 210u);
  EXPECT_EQ(h.field, "energy");
  EXPECT_EQ(h.binning.param, 2u);
  EXPECT_EQ(h.data_head_checksum, 1234u);
  decode_index_components(bytes.data() + kIndexHeaderBytes, h.component_table_bytes(), h, "t");
  ASSERT_EQ(h.components.size(), 1u);
  EXPECT_EQ(h.components[0].bins, 2u);
  EXPECT_EQ(h.components[0].nan_rows, 7u);
  EXPECT_EQ(h.components[0].min, 1.0);
  EXPECT_EQ(h.components[0].max, 2.0);
  const auto bins =
      decode_index_bins(bytes.data() + h.components[0].table_offset, h.components[0].table_bytes(), h, 0, "t");
  ASSERT_EQ(bins.size(), 3u);
  EXPECT_EQ(bins[0].vmax, 1.5);
  EXPECT_EQ(bins[1].count, 3u);
  EXPECT_EQ(bins[2].count, 7u);
  EXPECT_FALSE(bins[0].raw);   // a run: Roaring is smaller
  EXPECT_TRUE(bins[1].raw);    // three ids: raw is smaller
  EXPECT_EQ(bins[1].bytes, 12u);
  const auto rows = decode_all(bytes);
  EXPECT_EQ(rows[0], iota_rows(0, 200));
  EXPECT_EQ(rows[1], iota_rows(200, 203));
  EXPECT_EQ(rows[2], iota_rows(203, 210));
  EXPECT_EQ(index_file_name("p000003.lpd", "energy"), "p000003.energy.lbx");
}

// Stored rows that pass their checksum (a writer bug, not a flipped bit) are still checked.
TEST(BitmapIndex, StoredRowsAreValidated) {
  auto entry = [](const std::vector<uint32_t>& ids, uint64_t count) {
    IndexBin e;
    e.raw = true;
    e.count = count;
    e.bytes = 4 * ids.size();
    return e;
  };
  std::vector<uint32_t> out;
  const std::vector<uint32_t> good{1, 5, 9}, unsorted{5, 1, 9}, repeated{1, 1, 9}, too_big{1, 5, 10};
  append_bin_rows(reinterpret_cast<const uint8_t*>(good.data()), entry(good, 3), 10, out, "t");
  EXPECT_EQ(out, good);
  for (const auto* bad : {&unsorted, &repeated, &too_big})
    EXPECT_EQ(
        code_of([&] { append_bin_rows(reinterpret_cast<const uint8_t*>(bad->data()), entry(*bad, 3), 10, out, "t"); }),
        ErrorCode::kFormat);
  EXPECT_EQ(
      code_of([&] { append_bin_rows(reinterpret_cast<const uint8_t*>(good.data()), entry(good, 2), 10, out, "t"); }),
      ErrorCode::kFormat);   // 12 bytes for 2 rows
  // A Roaring bitmap whose cardinality differs from its entry's count.
  const StoredRows r = encode_bin_rows(std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.data(), 12);
  ASSERT_FALSE(r.raw);
  IndexBin e;
  e.count = 11;
  e.bytes = r.bytes.size();
  EXPECT_EQ(code_of([&] { bin_bitmap(r.bytes.data(), e, 100, "t"); }), ErrorCode::kFormat);
  e.count = 12;
  EXPECT_EQ(bin_bitmap(r.bytes.data(), e, 100, "t").cardinality(), 12u);
  EXPECT_EQ(code_of([&] { bin_bitmap(r.bytes.data(), e, 11, "t"); }), ErrorCode::kFormat);   // row 11 >= 11 rows
}

TEST(BitmapIndex, EveryFlippedByteAndEveryTruncationIsCaught) {
  BitmapIndexHead head;
  const std::vector<uint8_t> good = small_index(head);
  decode_all(good);
  for (size_t i = 0; i < good.size(); ++i) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0x10;
    EXPECT_THROW(decode_all(bad), Error) << "byte " << i;
  }
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> bad(good.begin(), good.begin() + n);
    EXPECT_THROW(decode_all(bad), Error) << "truncated to " << n;
  }
}

}  // namespace
}  // namespace lodex

// ---- Series window files ----

namespace lodex {
namespace {

// Four chunks of 1-4 blocks of 512 bytes (the last of each short), their block checksums and data.
std::vector<uint8_t> small_window(SeriesWindowHead& h) {
  h.series = "geos";
  h.first_step = 30;
  h.steps = 3;
  h.variables = 2;
  h.chunks = 2;
  h.block_bytes = 512;
  h.total_planes = 1 + 2 + 1 + 2;
  std::vector<uint8_t> data;
  std::vector<uint64_t> sums;
  for (int i = 0; i < 4; ++i) {
    SeriesChunkEntry e;
    e.planes = 1 + i % 2;
    e.bytes = 3 * e.planes * 24 * (i + 1);
    e.first_block = h.total_blocks;
    h.total_blocks += series_blocks(e.bytes, h.block_bytes);
    const size_t at = data.size();
    for (uint64_t b = 0; b < e.bytes; ++b) data.push_back(static_cast<uint8_t>(16 * i + b * 7));
    for (uint64_t b = 0; b < e.bytes; b += h.block_bytes)
      sums.push_back(checksum64(data.data() + at + b, std::min<uint64_t>(h.block_bytes, e.bytes - b)));
    h.entries.push_back(e);
  }
  h.data_offset = series_data_offset(2, 2, h.total_blocks);
  uint64_t at = h.data_offset;
  for (auto& e : h.entries) e.offset = at, at += e.bytes;
  h.file_bytes = at;
  std::vector<uint8_t> out = encode_series_head(h);
  EXPECT_EQ(out.size(), h.block_table_offset());
  for (uint64_t c : sums)
    for (int k = 0; k < 8; ++k) out.push_back(static_cast<uint8_t>(c >> (8 * k)));
  out.resize(h.data_offset, 0);
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// Decodes head and table, then checks every block against its checksum, as a reader would.
SeriesWindowHead decode_window(const std::vector<uint8_t>& bytes) {
  SeriesWindowHead h =
      decode_series_header(bytes.data(), std::min<size_t>(bytes.size(), kSeriesHeaderBytes), bytes.size(), "w");
  if (kSeriesHeaderBytes + h.table_bytes() > bytes.size()) throw Error(ErrorCode::kFormat, "short");
  decode_series_table(bytes.data() + kSeriesHeaderBytes, h.table_bytes(), h, "w");
  for (const auto& e : h.entries)
    for (uint64_t b = 0; b < series_blocks(e.bytes, h.block_bytes); ++b) {
      uint64_t expect;
      std::memcpy(&expect, bytes.data() + h.block_table_offset() + 8 * (e.first_block + b), 8);
      const uint64_t n = std::min<uint64_t>(h.block_bytes, e.bytes - b * h.block_bytes);
      if (checksum64(bytes.data() + e.offset + b * h.block_bytes, n) != expect)
        throw Error(ErrorCode::kFormat, "block");
    }
  return h;
}

TEST(SeriesFile, RoundTripAndEveryDamageCaught) {
  SeriesWindowHead h;
  const std::vector<uint8_t> good = small_window(h);
  const SeriesWindowHead d = decode_window(good);
  EXPECT_EQ(d.series, "geos");
  EXPECT_EQ(d.first_step, 30u);
  EXPECT_EQ(d.steps, 3u);
  ASSERT_EQ(d.entries.size(), 4u);
  EXPECT_EQ(d.entries[3].bytes, 576u);
  EXPECT_EQ(d.entries[3].planes, 2u);
  EXPECT_EQ(d.entries[3].first_block, 1u + 1 + 1);
  EXPECT_EQ(d.total_blocks, 1u + 1 + 1 + 2);
  EXPECT_EQ(d.block_bytes, 512u);
  EXPECT_EQ(d.data_offset % kSeriesDataAlignment, 0u);
  // Every byte of the header, the tables and the data flipped; every truncation.
  const size_t table_end = h.block_table_offset() + 8 * h.total_blocks;
  for (size_t i = 0; i < good.size(); ++i) {
    if (i >= table_end && i < h.data_offset) continue;   // padding
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0x08;
    EXPECT_THROW(decode_window(bad), Error) << "byte " << i;
  }
  for (size_t n = 0; n < good.size(); n += 7) {
    std::vector<uint8_t> bad(good.begin(), good.begin() + n);
    EXPECT_THROW(decode_window(bad), Error) << "truncated to " << n;
  }
  std::string msg;
  std::vector<uint8_t> v2 = good;
  v2[8] = 3;
  EXPECT_EQ(code_of([&] { decode_window(v2); }, &msg), ErrorCode::kFormat);
  EXPECT_NE(msg.find("checksum"), std::string::npos) << msg;   // the header checksum covers the version
}

// A read's part of the head: the header and one variable's entries, decoded from exactly those
// bytes; every byte of the entries flipped changes what is decoded (the reader compares it with
// the plan) or is refused (the reserved word).
TEST(SeriesFile, OneVariablesEntries) {
  SeriesWindowHead h;
  const std::vector<uint8_t> good = small_window(h);
  for (uint32_t v = 0; v < h.variables; ++v) {
    const auto with_header = series_head_ranges(h, v, true);
    ASSERT_EQ(with_header.size(), 2u);
    EXPECT_EQ(with_header[0], (std::pair<uint64_t, uint64_t>{0, kSeriesHeaderBytes}));
    const auto ranges = series_head_ranges(h, v, false);
    ASSERT_EQ(ranges.size(), 1u);
    EXPECT_EQ(ranges[0], with_header[1]);
    const auto [lo, hi] = ranges[0];
    EXPECT_EQ(lo, kSeriesHeaderBytes + 24u * v * h.chunks);
    EXPECT_EQ(hi - lo, 24u * h.chunks);
    const std::vector<SeriesChunkEntry> e = decode_series_entries(good.data() + lo, hi - lo, h, v, "w");
    ASSERT_EQ(e.size(), h.chunks);
    for (uint32_t c = 0; c < h.chunks; ++c) {
      const SeriesChunkEntry& want = h.entries[v * h.chunks + c];
      EXPECT_EQ(e[c].offset, want.offset);
      EXPECT_EQ(e[c].bytes, want.bytes);
      EXPECT_EQ(e[c].planes, want.planes);
    }
    for (uint64_t i = lo; i < hi; ++i) {
      std::vector<uint8_t> bad = good;
      bad[i] ^= 0x08;
      std::vector<SeriesChunkEntry> got;
      try {
        got = decode_series_entries(bad.data() + lo, hi - lo, h, v, "w");
      } catch (const Error& err) {
        EXPECT_EQ(err.code(), ErrorCode::kFormat);
        EXPECT_EQ((i - lo) % 24 / 4, 5u) << "byte " << i << " refused outside the reserved word";
        continue;
      }
      bool differs = false;
      for (uint32_t c = 0; c < h.chunks; ++c)
        differs |= got[c].offset != e[c].offset || got[c].bytes != e[c].bytes || got[c].planes != e[c].planes;
      EXPECT_TRUE(differs) << "byte " << i;
    }
    EXPECT_EQ(code_of([&] { decode_series_entries(good.data() + lo, hi - lo - 1, h, v, "w"); }), ErrorCode::kFormat);
  }
  EXPECT_EQ(code_of([&] { series_head_ranges(h, h.variables, true); }), ErrorCode::kInternal);
}

// ---------------------------------------------------------------- truncation (restarts)

Manifest steps_manifest() {
  Manifest m;
  ParticleGroupMeta p;
  p.name = "p";
  for (int64_t s : {0, 2, 4, 6, 8}) {
    StepRecord r;
    r.step = s;
    r.directory = "p/step-" + std::to_string(s);
    p.steps.push_back(r);
  }
  m.particle_groups.push_back(p);
  GridMeta g;
  g.name = "g";
  for (int64_t s = 0; s < 10; ++s) {
    GridStepRecord r;
    r.step = s;
    g.steps.push_back(r);
  }
  m.grids.push_back(g);
  SeriesMeta se;
  se.name = "s";
  se.windows = {{"w-0.lsw", {0, 1, 2}}, {"w-3.lsw", {3, 4, 5}}, {"w-6.lsw", {6, 8}}};
  m.series.push_back(se);
  return m;
}

TEST(Truncation, KeepsTheStepsUpToAfterInPlace) {
  Manifest m = steps_manifest();
  encode_manifest(m);   // fills the encoded-step caches
  const StepRecord* kept = &m.particle_groups[0].steps[1];
  const auto cache = kept->encoded;
  const Truncation t = plan_truncation(m, {"p", "g", "s"}, 5);
  ASSERT_EQ(t.groups.size(), 3u);
  EXPECT_EQ(t.groups[0].removed, (std::vector<int64_t>{6, 8}));   // 5 is no step: up to it stay
  EXPECT_EQ(t.groups[1].removed, (std::vector<int64_t>{6, 7, 8, 9}));
  EXPECT_EQ(t.groups[2].removed, (std::vector<int64_t>{6, 8}));
  EXPECT_EQ(std::string(t.groups[2].kind), "series");
  EXPECT_EQ(t.removed_steps(), 8u);
  apply_truncation(m, t);
  EXPECT_EQ(m.particle_groups[0].steps.size(), 3u);
  EXPECT_EQ(&m.particle_groups[0].steps[1], kept);   // kept records stay where they were
  EXPECT_EQ(kept->encoded, cache);
  EXPECT_EQ(m.grids[0].steps.back().step, 5);
  EXPECT_EQ(m.series[0].windows.size(), 2u);
  // The manifest encodes as one made with only the kept records (no cached text) does.
  Manifest fresh = steps_manifest();
  fresh.particle_groups[0].steps.resize(3);
  fresh.grids[0].steps.resize(6);
  fresh.series[0].windows.resize(2);
  EXPECT_EQ(encode_manifest(fresh), encode_manifest(m));
}

TEST(Truncation, EveryStepAndNothing) {
  Manifest m = steps_manifest();
  const Truncation all = plan_truncation(m, {"s", "p"}, kTruncateAll);
  EXPECT_EQ(all.groups[0].removed.size(), 8u);
  EXPECT_EQ(all.groups[1].removed.size(), 5u);
  const Truncation none = plan_truncation(m, {"g"}, 1000);
  EXPECT_EQ(none.removed_steps(), 0u);
  EXPECT_EQ(none.groups[0].keep, 10u);
}

TEST(Truncation, RefusesBadInputByName) {
  const Manifest m = steps_manifest();
  EXPECT_NE(
      expect_error(ErrorCode::kInvalidArgument, [&] { plan_truncation(m, {"p"}, -2); }).find("after=-2 is negative"),
      std::string::npos);
  EXPECT_NE(expect_error(ErrorCode::kNotFound, [&] { plan_truncation(m, {"q"}, 1); }).find("'q'"), std::string::npos);
  EXPECT_NE(expect_error(ErrorCode::kInvalidArgument, [&] { plan_truncation(m, {"g", "g"}, 1); }).find("twice"),
            std::string::npos);
  const std::string split = expect_error(ErrorCode::kInvalidArgument, [&] { plan_truncation(m, {"p", "s"}, 4); });
  EXPECT_NE(split.find("splits window w-3.lsw (steps 3, 4, 5)"), std::string::npos) << split;
  EXPECT_NE(split.find("truncate after 2 (removing the window) or after 5 (keeping it)"), std::string::npos) << split;
  const std::string first = expect_error(ErrorCode::kInvalidArgument, [&] { plan_truncation(m, {"s"}, 0); });
  EXPECT_NE(first.find("after -1 (removing the window) or after 2"), std::string::npos) << first;
  EXPECT_NE(
      expect_error(ErrorCode::kInvalidArgument, [&] { plan_truncation(m, {"s"}, 7); }).find("w-6.lsw (steps 6, 8)"),
      std::string::npos);   // 7 lies inside the window of 6 and 8
}

}  // namespace
}  // namespace lodex
