#include "format/particle_file.hpp"

#include <algorithm>
#include <cstring>

#include "core/bytes.hpp"
#include "core/checksum.hpp"

namespace lodex {

namespace {

uint64_t tables_bytes(size_t num_fields, size_t num_levels, uint64_t num_segments) {
  return num_fields * kFieldEntryBytes + num_levels * 8 + (num_segments + 1) * 8 + num_fields * num_segments * 8 + 8;
}
}  // namespace

uint64_t ParticleFileHead::head_bytes() const {
  return kParticleHeaderBytes + tables_bytes(fields.size(), level_ends.size(), num_segments());
}

uint64_t ParticleFileHead::file_bytes() const {
  if (fields.empty()) return head_bytes();
  return column_offsets.back() + column_bytes(fields.size() - 1);
}

void assign_column_offsets(ParticleFileHead& head) {
  head.column_offsets.resize(head.fields.size());
  uint64_t at = align_up(head.head_bytes(), kColumnAlignment);
  for (size_t f = 0; f < head.fields.size(); ++f) {
    head.column_offsets[f] = at;
    at = align_up(at + head.column_bytes(f), kColumnAlignment);
  }
}

std::vector<std::vector<SegmentRun>> slice_columns(const ParticleFileHead& head, uint32_t writers) {
  if (writers < 1) fail(ErrorCode::kInternal, "a file needs at least one writer");
  const uint64_t nseg = head.num_segments();
  if (head.segment_starts.size() != nseg + 1 || head.column_offsets.size() != head.fields.size())
    fail(ErrorCode::kInternal, "particle file head tables have inconsistent sizes");
  std::vector<std::vector<SegmentRun>> out(writers);
  uint64_t total = 0;
  for (size_t f = 0; f < head.fields.size(); ++f) total += head.column_bytes(f);
  uint64_t before = 0;   // column bytes of the segments before the current one
  for (uint32_t f = 0; f < head.fields.size(); ++f) {
    const uint64_t rb = head.fields[f].row_bytes();
    for (uint64_t s = 0; s < nseg; ++s) {
      const uint64_t bytes = (head.segment_starts[s + 1] - head.segment_starts[s]) * rb;
      // The writer whose share [k/W, (k+1)/W) of the bytes holds this segment's middle byte.
      const unsigned __int128 middle = static_cast<unsigned __int128>(2 * before + bytes) * writers;
      const uint32_t k =
          total == 0 ? 0 : static_cast<uint32_t>(std::min<unsigned __int128>(middle / (2 * total), writers - 1));
      std::vector<SegmentRun>& runs = out[k];
      if (!runs.empty() && runs.back().field == f && runs.back().end == s) ++runs.back().end;
      else runs.push_back({f, s, s + 1, false});
      before += bytes;
    }
    for (auto& runs : out)   // the run holding the column's last segment writes its padding
      if (!runs.empty() && runs.back().field == f && runs.back().end == nseg) runs.back().padding = true;
  }
  return out;
}

std::vector<uint8_t> encode_particle_head(const ParticleFileHead& h) {
  const uint64_t nseg = h.num_segments();
  if (h.segment_starts.size() != nseg + 1 || h.segment_checksums.size() != h.fields.size() * nseg ||
      h.column_offsets.size() != h.fields.size())
    fail(ErrorCode::kInternal, "particle file head tables have inconsistent sizes");
  ByteWriter w;
  w.put_bytes(kParticleFileMagic, 8);
  w.put<uint32_t>(kParticleFileVersion);
  w.put<uint32_t>(kParticleHeaderBytes);
  w.put<uint64_t>(h.num_particles);
  w.put<uint32_t>(static_cast<uint32_t>(h.fields.size()));
  w.put<uint32_t>(static_cast<uint32_t>(h.level_ends.size()));
  w.put<uint32_t>(h.brick_bits);
  w.put<uint32_t>(h.level_scale);
  for (double v : h.brick_box.inclusive_min) w.put<double>(v);
  for (double v : h.brick_box.exclusive_max) w.put<double>(v);
  w.put<uint64_t>(h.seed);
  w.put<uint64_t>(kParticleHeaderBytes);
  w.put<uint64_t>(tables_bytes(h.fields.size(), h.level_ends.size(), nseg));
  w.put<uint64_t>(h.column_offsets.empty() ? align_up(h.head_bytes(), kColumnAlignment) : h.column_offsets[0]);
  w.put<uint64_t>(checksum64(w.bytes().data(), w.size()));
  for (size_t f = 0; f < h.fields.size(); ++f) {
    w.put_fixed_string(h.fields[f].name, 32);
    w.put<uint8_t>(static_cast<uint8_t>(h.fields[f].dtype));
    w.put<uint8_t>(0);
    w.put<uint8_t>(0);
    w.put<uint8_t>(0);
    w.put<uint32_t>(h.fields[f].components);
    w.put<uint64_t>(h.column_offsets[f]);
    w.put<uint64_t>(h.column_bytes(f));
    w.put<uint64_t>(0);
  }
  for (uint64_t v : h.level_ends) w.put<uint64_t>(v);
  for (uint64_t v : h.segment_starts) w.put<uint64_t>(v);
  for (uint64_t v : h.segment_checksums) w.put<uint64_t>(v);
  w.put<uint64_t>(checksum64(w.bytes().data() + kParticleHeaderBytes, w.size() - kParticleHeaderBytes));
  return std::move(w.bytes());
}

namespace {
struct FixedHeader {
  uint64_t num_particles;
  uint32_t num_fields, num_levels, brick_bits, level_scale;
  Box box;
  uint64_t seed, tables_offset, tables_size, data_offset;
};

FixedHeader read_fixed_header(ByteReader& r, uint64_t file_size) {
  char magic[8];
  for (char& c : magic) c = static_cast<char>(r.get<uint8_t>("magic"));
  if (std::memcmp(magic, kParticleFileMagic, 8) != 0)
    r.corrupt("not a lodex particle data file (bad magic at offset 0)");
  const uint32_t version = r.get<uint32_t>("format_version");
  if (version != kParticleFileVersion)
    r.corrupt(
        cat("format version ", version, " at offset 8 is not supported (this lodex reads ", kParticleFileVersion, ")"));
  const uint32_t hb = r.get<uint32_t>("header_bytes");
  if (hb != kParticleHeaderBytes) r.corrupt(cat("header_bytes at offset 12 is ", hb, ", expected 128"));
  FixedHeader h{};
  h.num_particles = r.get<uint64_t>("num_particles");
  h.num_fields = r.get<uint32_t>("num_fields");
  h.num_levels = r.get<uint32_t>("num_levels");
  h.brick_bits = r.get<uint32_t>("brick_bits");
  h.level_scale = r.get<uint32_t>("level_scale");
  for (double& v : h.box.inclusive_min) v = r.get<double>("brick_box");
  for (double& v : h.box.exclusive_max) v = r.get<double>("brick_box");
  h.seed = r.get<uint64_t>("seed");
  h.tables_offset = r.get<uint64_t>("tables_offset");
  h.tables_size = r.get<uint64_t>("tables_bytes");
  h.data_offset = r.get<uint64_t>("data_offset");
  const uint64_t stored = r.get<uint64_t>("header_checksum");
  if (checksum64(r.data(), 120) != stored) r.corrupt("header checksum mismatch (bytes 0-119)");
  if (h.num_fields < 1 || h.num_fields > kMaxFields)
    r.corrupt(cat("num_fields ", h.num_fields, " out of range 1..", kMaxFields));
  if (h.num_levels > kMaxLevels) r.corrupt(cat("num_levels ", h.num_levels, " exceeds ", kMaxLevels));
  if ((h.num_levels == 0) != (h.num_particles == 0))
    r.corrupt(cat(h.num_levels, " levels for ", h.num_particles, " particles"));
  if (h.brick_bits > kMaxBrickBits) r.corrupt(cat("brick_bits ", h.brick_bits, " exceeds ", kMaxBrickBits));
  if (h.level_scale < 2) r.corrupt(cat("level_scale ", h.level_scale, " is below 2"));
  if (h.tables_offset != kParticleHeaderBytes)
    r.corrupt(cat("tables_offset ", h.tables_offset, " is not ", kParticleHeaderBytes));
  const uint64_t nseg = uint64_t{h.num_levels} << (3 * h.brick_bits);
  if (h.tables_size != tables_bytes(h.num_fields, h.num_levels, nseg))
    r.corrupt(cat("tables_bytes ", h.tables_size, " does not match ", h.num_fields, " fields, ", h.num_levels,
                  " levels and ", nseg, " segments"));
  if (h.tables_offset + h.tables_size > file_size)
    r.corrupt(cat("tables end at byte ", h.tables_offset + h.tables_size, " past the file size ", file_size));
  return h;
}
}  // namespace

uint64_t decode_particle_header_size(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what) {
  ByteReader r(data, size, what);
  const FixedHeader h = read_fixed_header(r, file_size);
  return h.tables_offset + h.tables_size;
}

ParticleFileHead decode_particle_head(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what) {
  ByteReader r(data, size, what);
  const FixedHeader fh = read_fixed_header(r, file_size);
  if (size < fh.tables_offset + fh.tables_size)
    r.corrupt(cat("head needs ", fh.tables_offset + fh.tables_size, " bytes, got ", size));
  if (!ends_with_checksum(data + fh.tables_offset, fh.tables_size))
    r.corrupt(
        cat("table checksum mismatch (bytes ", fh.tables_offset, "-", fh.tables_offset + fh.tables_size - 1, ")"));
  ParticleFileHead h;
  h.num_particles = fh.num_particles;
  h.level_scale = fh.level_scale;
  h.brick_bits = fh.brick_bits;
  h.brick_box = fh.box;
  h.seed = fh.seed;
  r.seek(fh.tables_offset, "field table");
  std::vector<uint64_t> col_bytes;
  for (uint32_t f = 0; f < fh.num_fields; ++f) {
    FieldSpec spec;
    spec.name = r.get_fixed_string(32, "field name");
    const uint8_t code = r.get<uint8_t>("field dtype");
    if (!dtype_from_code(code, &spec.dtype))
      r.corrupt(cat("field '", spec.name, "' has unknown dtype code ", int{code}));
    r.skip(3, "field padding");
    spec.components = r.get<uint32_t>("field components");
    if (spec.components < 1 || spec.components > kMaxComponents)
      r.corrupt(cat("field '", spec.name, "' has ", spec.components, " components"));
    h.fields.push_back(spec);
    h.column_offsets.push_back(r.get<uint64_t>("column offset"));
    col_bytes.push_back(r.get<uint64_t>("column bytes"));
    r.skip(8, "field reserved");
  }
  for (uint32_t f = 0; f < fh.num_fields; ++f) {
    const uint64_t expect = h.num_particles * h.fields[f].row_bytes();
    if (h.num_particles != 0 && expect / h.num_particles != h.fields[f].row_bytes()) r.corrupt("column size overflows");
    if (col_bytes[f] != expect)
      r.corrupt(cat("field '", h.fields[f].name, "' column holds ", col_bytes[f], " bytes, expected ", expect, " for ",
                    h.num_particles, " particles"));
    if (h.column_offsets[f] < fh.tables_offset + fh.tables_size || h.column_offsets[f] > file_size ||
        file_size - h.column_offsets[f] < col_bytes[f])
      r.corrupt(cat("field '", h.fields[f].name, "' column [", h.column_offsets[f], ", +", col_bytes[f],
                    ") lies outside the file (", file_size, " bytes): truncated?"));
  }
  h.level_ends.resize(fh.num_levels);
  uint64_t prev = 0;
  for (auto& v : h.level_ends) {
    v = r.get<uint64_t>("level end");
    if (v <= prev || v > h.num_particles) r.corrupt("level ends are not increasing within the particle count");
    prev = v;
  }
  if (fh.num_levels && prev != h.num_particles) r.corrupt("last level does not end at the particle count");
  const uint64_t nseg = h.num_segments();
  h.segment_starts.resize(nseg + 1);
  prev = 0;
  for (auto& v : h.segment_starts) {
    v = r.get<uint64_t>("segment start");
    if (v < prev || v > h.num_particles) r.corrupt("segment starts are not non-decreasing within the particle count");
    prev = v;
  }
  if (h.segment_starts[0] != 0 || h.segment_starts[nseg] != h.num_particles)
    r.corrupt("segment table does not span all particles");
  for (uint32_t k = 0; k < fh.num_levels; ++k)
    if (h.segment_starts[(k + 1) * h.num_bricks()] != h.level_ends[k])
      r.corrupt(cat("segments of level ", k, " do not end at the level end"));
  h.segment_checksums.resize(fh.num_fields * nseg);
  for (auto& v : h.segment_checksums) v = r.get<uint64_t>("segment checksum");
  return h;
}

}  // namespace lodex
