#include "format/spatial_metadata.hpp"

#include <cmath>

#include <cstring>

#include "core/bytes.hpp"
#include "core/checksum.hpp"

namespace lodex {

namespace {
constexpr size_t kMetaHeaderBytes = 40;
constexpr size_t kMaxComponentsTotal = 1 << 20;

void put_box(ByteWriter& w, const Box& b) {
  for (double v : b.inclusive_min) w.put<double>(v);
  for (double v : b.exclusive_max) w.put<double>(v);
}
Box get_box(ByteReader& r, const char* what) {
  Box b;
  for (double& v : b.inclusive_min) v = r.get<double>(what);
  for (double& v : b.exclusive_max) v = r.get<double>(what);
  return b;
}

void put_record(ByteWriter& w, const DataFileRecord& f, uint32_t nc) {
  if (f.min.size() != nc || f.max.size() != nc)
    fail(ErrorCode::kInternal, "record of ", f.file_name, " has ", f.min.size(), " minima for ", nc, " components");
  w.put_fixed_string(f.file_name, kFileNameBytes);
  w.put<uint32_t>(f.partition);
  w.put<int32_t>(f.aggregator_rank);
  put_box(w, f.partition_box);
  put_box(w, f.bounds);
  w.put<uint64_t>(f.count);
  w.put<uint64_t>(f.file_bytes);
  w.put<uint64_t>(f.head_checksum);
  for (uint32_t c = 0; c < nc; ++c) {
    w.put<double>(f.min[c]);
    w.put<double>(f.max[c]);
  }
}

DataFileRecord get_record(ByteReader& r, uint32_t nc) {
  DataFileRecord f;
  f.file_name = r.get_fixed_string(kFileNameBytes, "file name");
  if (f.file_name.empty() || f.file_name.find('/') != std::string::npos || f.file_name[0] == '.')
    r.corrupt(cat("file name '", f.file_name, "' is not a plain file name"));
  f.partition = r.get<uint32_t>("partition");
  f.aggregator_rank = r.get<int32_t>("aggregator rank");
  f.partition_box = get_box(r, "partition box");
  f.bounds = get_box(r, "bounds");
  f.count = r.get<uint64_t>("count");
  f.file_bytes = r.get<uint64_t>("file bytes");
  f.head_checksum = r.get<uint64_t>("head checksum");
  f.min.resize(nc);
  f.max.resize(nc);
  for (uint32_t c = 0; c < nc; ++c) {
    f.min[c] = r.get<double>("component min");
    f.max[c] = r.get<double>("component max");
  }
  // What the writer guarantees of every record: a finite partition box with extent, and finite
  // bounds with min <= max around a file's particles. A record breaking them was forged or
  // damaged past its checksums; reading by it would drop particles silently.
  if (!f.partition_box.finite() || f.partition_box.empty())
    r.corrupt(cat("record of '", f.file_name, "': partition box ", to_string(f.partition_box),
                  " is not finite with min < max"));
  if (f.count > 0)
    for (int a = 0; a < 3; ++a)
      if (!std::isfinite(f.bounds.inclusive_min[a]) || !std::isfinite(f.bounds.exclusive_max[a]) ||
          f.bounds.inclusive_min[a] > f.bounds.exclusive_max[a])
        r.corrupt(cat("record of '", f.file_name, "': particle bounds ", to_string(f.bounds),
                      " are not finite with min <= max"));
  return f;
}
}  // namespace

uint64_t SpatialMetadata::total_particles() const {
  uint64_t n = 0;
  for (const auto& f : files) n += f.count;
  return n;
}

size_t data_file_record_bytes(uint32_t nc) { return kFileNameBytes + 8 + 96 + 24 + 16 * size_t{nc}; }

void encode_data_file_record(const DataFileRecord& r, uint32_t nc, std::vector<uint8_t>& out) {
  ByteWriter w;
  put_record(w, r, nc);
  out.insert(out.end(), w.bytes().begin(), w.bytes().end());
}

DataFileRecord decode_data_file_record(const uint8_t* data, size_t size, uint32_t nc, const std::string& what) {
  ByteReader r(data, size, what);
  return get_record(r, nc);
}

std::vector<uint8_t> encode_spatial_metadata(const SpatialMetadata& m) {
  ByteWriter w;
  w.put_bytes(kSpatialMetaMagic, 8);
  w.put<uint32_t>(kSpatialMetaVersion);
  w.put<uint32_t>(static_cast<uint32_t>(m.files.size()));
  w.put<uint32_t>(m.num_components);
  w.put<uint32_t>(0);
  w.put<int64_t>(m.step);
  w.put<uint64_t>(m.total_particles());
  for (const auto& f : m.files) put_record(w, f, m.num_components);
  w.put<uint64_t>(checksum64(w.bytes().data(), w.size()));
  return std::move(w.bytes());
}

SpatialMetadata decode_spatial_metadata(const uint8_t* data, size_t size, const std::string& what) {
  ByteReader r(data, size, what);
  if (size < kMetaHeaderBytes + 8) r.corrupt(cat("truncated: ", size, " bytes is shorter than the header"));
  if (!ends_with_checksum(data, size)) r.corrupt("checksum mismatch: the file is damaged or truncated");
  if (std::memcmp(data, kSpatialMetaMagic, 8) != 0) r.corrupt("not a lodex spatial metadata file (bad magic)");
  r.skip(8, "magic");
  const uint32_t version = r.get<uint32_t>("version");
  if (version != kSpatialMetaVersion)
    r.corrupt(cat("version ", version, " is not supported (this lodex reads ", kSpatialMetaVersion, ")"));
  SpatialMetadata m;
  const uint32_t nfiles = r.get<uint32_t>("num_files");
  m.num_components = r.get<uint32_t>("num_components");
  r.skip(4, "reserved");
  m.step = r.get<int64_t>("step");
  const uint64_t total = r.get<uint64_t>("total_particles");
  if (m.num_components > kMaxComponentsTotal) r.corrupt(cat("num_components ", m.num_components, " is implausible"));
  const size_t rec = data_file_record_bytes(m.num_components);
  if (size - 8 - kMetaHeaderBytes != rec * uint64_t{nfiles})
    r.corrupt(cat(nfiles, " records of ", rec, " bytes do not fill the ", size - 8 - kMetaHeaderBytes,
                  " bytes after the header"));
  m.files.reserve(nfiles);
  for (uint32_t i = 0; i < nfiles; ++i) m.files.push_back(get_record(r, m.num_components));
  if (m.total_particles() != total)
    r.corrupt(cat("records hold ", m.total_particles(), " particles, header says ", total));
  return m;
}

}  // namespace lodex
