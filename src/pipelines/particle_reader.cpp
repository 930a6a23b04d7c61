// Full reads of a particle step: the spatial metadata names the files; each file's head is
// validated against its metadata record, and every segment read is checked against its checksum.
#include <algorithm>
#include <cstring>

#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "pipelines/dataset_state.hpp"
#include "storage/file_cache.hpp"

namespace lodex {

namespace {
constexpr uint64_t kMaxMetadataBytes = uint64_t{1} << 30;
}

ParticleGroup::ParticleGroup(std::shared_ptr<DatasetState> ds, std::string name)
    : ds_(std::move(ds)), name_(std::move(name)) {}

namespace {
const ParticleGroupMeta& group_meta(const DatasetState& st, const std::string& name) {
  const ParticleGroupMeta* g = st.manifest.find_particles(name);
  if (!g) fail(ErrorCode::kInternal, "group '", name, "' vanished from the manifest");
  return *g;
}

const StepRecord& step_record(const ParticleGroupMeta& g, int64_t step) {
  if (const StepRecord* r = g.find_step(step)) return *r;
  std::string have;
  for (const auto& s : g.steps) have += (have.empty() ? "" : ", ") + std::to_string(s.step);
  fail(ErrorCode::kNotFound, "step ", step, " is not committed in group '", g.name, "' (steps: ",
       have.empty() ? "none" : have, ")");
}
}  // namespace

const std::string& ParticleGroup::name() const { return name_; }
const Schema& ParticleGroup::schema() const { return group_meta(*ds_, name_).schema; }
const Box& ParticleGroup::domain() const { return group_meta(*ds_, name_).domain; }
const PartitionSpec& ParticleGroup::partition() const { return group_meta(*ds_, name_).partition; }
const WriteProfile& ParticleGroup::profile() const { return profile_; }
const ReadStats& ParticleGroup::last_read_stats() const { return read_stats_; }

std::vector<int64_t> ParticleGroup::steps() const {
  std::vector<int64_t> out;
  for (const auto& s : group_meta(*ds_, name_).steps) out.push_back(s.step);
  return out;
}

SpatialMetadata ParticleGroup::metadata(int64_t step) const {
  ds_->require_open();
  const ParticleGroupMeta& g = group_meta(*ds_, name_);
  const StepRecord& rec = step_record(g, step);
  const std::string path = join_path(join_path(ds_->path, rec.directory), "spatial.lsm");
  const std::vector<uint8_t> bytes = read_whole_file(path, kMaxMetadataBytes);
  if (checksum64(bytes.data(), bytes.size()) != rec.metadata_checksum)
    fail(ErrorCode::kFormat, "'", path, "' does not match the checksum the manifest recorded for step ", step,
         " (damaged or replaced)");
  SpatialMetadata meta = decode_spatial_metadata(bytes.data(), bytes.size(), "'" + path + "'");
  uint32_t comps = 0;
  for (const auto& f : g.schema.fields()) comps += f.components;
  if (meta.step != step || meta.num_components != comps || meta.total_particles() != rec.particles ||
      meta.files.size() != rec.files)
    fail(ErrorCode::kFormat, "'", path, "' disagrees with the manifest (step, components, particles or files)");
  return meta;
}

std::vector<FieldColumn> ParticleGroup::read(int64_t step, const std::vector<std::string>& names) const {
  const ParticleGroupMeta& g = group_meta(*ds_, name_);
  std::vector<size_t> idx;
  if (names.empty()) {
    for (size_t i = 0; i < g.schema.size(); ++i) idx.push_back(i);
  } else {
    for (const auto& n : names) {
      const size_t i = g.schema.index_of(n);
      if (std::find(idx.begin(), idx.end(), i) != idx.end())
        fail(ErrorCode::kInvalidArgument, "field '", n, "' is requested twice");
      idx.push_back(i);
    }
  }
  const SpatialMetadata meta = metadata(step);
  const std::string dir = join_path(ds_->path, step_record(g, step).directory);
  ReadStats stats;
  std::vector<FieldColumn> out(idx.size());
  const uint64_t total = meta.total_particles();
  for (size_t k = 0; k < idx.size(); ++k) {
    out[k].spec = g.schema.field(idx[k]);
    out[k].rows = total;
    out[k].bytes.resize(total * out[k].spec.row_bytes());
  }
  FileCache files;
  uint64_t row0 = 0;
  for (const DataFileRecord& rec : meta.files) {
    const std::string path = join_path(dir, rec.file_name);
    File& f = files.get(path);
    const uint64_t size = f.size();
    if (size != rec.file_bytes)
      fail(ErrorCode::kFormat, "'", path, "' has ", size, " bytes; the spatial metadata says ", rec.file_bytes,
           " (truncated or replaced)");
    std::vector<uint8_t> head_bytes(kParticleHeaderBytes);
    if (size < kParticleHeaderBytes)
      fail(ErrorCode::kFormat, "'", path, "' is truncated: ", size, " bytes is shorter than the header");
    f.pread_all(head_bytes.data(), kParticleHeaderBytes, 0);
    const uint64_t head_size = decode_particle_header_size(head_bytes.data(), head_bytes.size(), size, "'" + path + "'");
    head_bytes.resize(head_size);
    f.pread_all(head_bytes.data() + kParticleHeaderBytes, head_size - kParticleHeaderBytes, kParticleHeaderBytes);
    stats.bytes_read += head_size;
    if (checksum64(head_bytes.data(), head_size) != rec.head_checksum)
      fail(ErrorCode::kFormat, "'", path, "' header does not match its spatial metadata checksum");
    const ParticleFileHead head = decode_particle_head(head_bytes.data(), head_size, size, "'" + path + "'");
    if (head.num_particles != rec.count || !(head.fields == g.schema.fields()))
      fail(ErrorCode::kFormat, "'", path, "' holds a different particle count or schema than its metadata says");
    const uint64_t nseg = head.num_segments();
    for (size_t k = 0; k < idx.size(); ++k) {
      const size_t fi = idx[k];
      const size_t rb = head.fields[fi].row_bytes();
      uint8_t* dst = out[k].bytes.data() + row0 * rb;
      f.pread_all(dst, head.column_bytes(fi), head.column_offsets[fi]);
      stats.bytes_read += head.column_bytes(fi);
      for (uint64_t s = 0; s < nseg; ++s) {
        const uint64_t a = head.segment_starts[s], b = head.segment_starts[s + 1];
        if (checksum64(dst + a * rb, (b - a) * rb) != head.segment_checksums[fi * nseg + s])
          fail(ErrorCode::kFormat, "'", path, "' field '", head.fields[fi].name, "' rows ", a, "-", b,
               " (bytes from ", head.column_offsets[fi] + a * rb, ") fail their checksum");
      }
    }
    row0 += rec.count;
  }
  stats.files_opened = files.opens();
  stats.particles = total;
  for (const auto& c : out) stats.bytes_returned += c.bytes.size();
  read_stats_ = stats;
  return out;
}

}  // namespace lodex
