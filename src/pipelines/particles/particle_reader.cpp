// Full reads of a particle step: the spatial metadata names the files; each file's head is
// validated against its metadata record, and every segment read is checked against its checksum.
#include <algorithm>
#include <cstring>

#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/particle_query.hpp"
#include "layout/particle_domain.hpp"
#include "mpi/comm.hpp"
#include "storage/file_cache.hpp"

namespace lodex {

namespace {
constexpr uint64_t kMaxMetadataBytes = uint64_t{1} << 30;
}

ParticleGroup::ParticleGroup(std::shared_ptr<DatasetState> ds, std::string name)
    : ds_(std::move(ds)), name_(std::move(name)) {}

const ParticleGroupMeta& group_meta(const DatasetState& st, const std::string& name) {
  const ParticleGroupMeta* g = st.manifest.find_particles(name);
  if (!g) fail(ErrorCode::kInternal, "group '", name, "' vanished from the manifest");
  return *g;
}

const StepRecord& step_record(const ParticleGroupMeta& g, int64_t step) {
  if (const StepRecord* r = g.find_step(step)) return *r;
  std::string have;
  for (const auto& s : g.steps) have += (have.empty() ? "" : ", ") + std::to_string(s.step);
  fail(ErrorCode::kNotFound, "step ", step, " is not committed in group '", g.name,
       "' (steps: ", have.empty() ? "none" : have, ")");
}

const std::string& ParticleGroup::name() const { return name_; }
const Schema& ParticleGroup::schema() const { return group_meta(*ds_, name_).schema; }
Box ParticleGroup::domain() const { return group_meta(*ds_, name_).extent(); }
Box ParticleGroup::step_domain(int64_t step) const {
  const ParticleGroupMeta& g = group_meta(*ds_, name_);
  return g.step_domain(step_record(g, step));
}
bool ParticleGroup::auto_domain() const { return group_meta(*ds_, name_).auto_domain; }
const Periodic& ParticleGroup::periodic() const { return group_meta(*ds_, name_).periodic; }
const PartitionSpec& ParticleGroup::partition() const { return group_meta(*ds_, name_).partition; }
const WriteProfile& ParticleGroup::profile() const { return profile_; }
const ReadStats& ParticleGroup::last_read_stats() const { return read_stats_; }

std::vector<int64_t> ParticleGroup::steps() const {
  std::vector<int64_t> out;
  for (const auto& s : group_meta(*ds_, name_).steps) out.push_back(s.step);
  return out;
}

LoadedMetadata load_metadata(const DatasetState& ds, const std::string& name, int64_t step) {
  ds.require_open();
  const ParticleGroupMeta& g = group_meta(ds, name);
  const StepRecord& rec = step_record(g, step);
  LoadedMetadata out;
  out.step_dir = join_path(ds.path, rec.directory);
  out.confinement = ds.confinement;
  const std::string path = join_path(out.step_dir, "spatial.lsm");
  const std::vector<uint8_t> bytes = ds.confinement.read_whole(path, kMaxMetadataBytes);
  if (checksum64(bytes.data(), bytes.size()) != rec.metadata_checksum)
    fail(ErrorCode::kFormat, "'", path, "' does not match the checksum the manifest recorded for step ", step,
         " (damaged or replaced)");
  out.meta = decode_spatial_metadata(bytes.data(), bytes.size(), "'" + path + "'");
  out.bytes = bytes.size();
  uint32_t comps = 0;
  for (const auto& f : g.schema.fields()) comps += f.components;
  const SpatialMetadata& meta = out.meta;
  if (meta.step != step || meta.num_components != comps || meta.total_particles() != rec.particles ||
      meta.files.size() != rec.files)
    fail(ErrorCode::kFormat, "'", path, "' disagrees with the manifest (step, components, particles or files)");
  // The writer takes each record's bounds from its positions' min/max: the two copies must agree.
  uint32_t pos = 0;
  for (size_t f = 0; f < g.schema.position_index(); ++f) pos += g.schema.field(f).components;
  for (const DataFileRecord& r : meta.files)
    for (int a = 0; a < 3 && r.count > 0; ++a)
      if (!(r.bounds.inclusive_min[a] == r.min[pos + a] && r.bounds.exclusive_max[a] == r.max[pos + a]))
        fail(ErrorCode::kFormat, "'", path, "' record of '", r.file_name, "': particle bounds ", to_string(r.bounds),
             " disagree with its position ranges on axis ", "xyz"[a], " (", r.min[pos + a], " .. ", r.max[pos + a],
             ")");
  return out;
}

namespace {
// Sets up the query collectively; a metadata error on one rank is raised on every rank.
// input_error: the binding's, raised on every rank at the query's first agreement (nothing loaded).
std::unique_ptr<ParticleQuery> make_query(const DatasetState& ds, const std::string& name, int64_t step,
                                          const ReadRequest& request, bool sampled, MPI_Comm comm,
                                          const std::optional<Error>& input_error) {
  LoadedMetadata loaded;
  std::optional<Error> error;
  if (!input_error) {
    try {
      loaded = load_metadata(ds, name, step);
    } catch (...) {
      error = current_error();
    }
  }
  const ParticleGroupMeta& g = group_meta(ds, name);
  return std::make_unique<ParticleQuery>(std::move(loaded.step_dir), loaded.confinement, g.schema, g.lod,
                                         std::move(loaded.meta), loaded.bytes, request, sampled, comm, error,
                                         input_error);
}

void add(ReadStats& to, const ReadStats& s) {
  to.files_opened += s.files_opened;
  to.bytes_read += s.bytes_read;
  to.metadata_bytes += s.metadata_bytes;
  to.head_bytes += s.head_bytes;
  to.requests += s.requests;
  to.seconds += s.seconds;
}
}  // namespace

SpatialMetadata ParticleGroup::metadata(int64_t step) const { return load_metadata(*ds_, name_, step).meta; }

std::vector<FieldColumn> ParticleGroup::read(int64_t step, const std::vector<std::string>& fields) const {
  ReadRequest r;
  r.fields = fields;
  return read(step, r, MPI_COMM_NULL);
}

void refuse_periodic_images(const Box& box, const ParticleGroupMeta& g, const char* what) {
  if (const int a = reaches_past_periodic(box, g.domain, g.periodic); a >= 0)
    fail(ErrorCode::kInvalidArgument, "box ", to_string(box), " reaches past the periodic domain ", to_string(g.domain),
         " on axis ", "xyz"[a], "; ", what, " takes a box inside it (a read returns the periodic images)");
}

namespace {

// The request as the step's domain reads it: a box reaching the domain's maximum holds it, and
// on periodic axes the parts of the box on each image of the domain (one image: the box itself).
struct DomainRead {
  ReadRequest request;
  std::vector<BoxImage> images;
};
DomainRead domain_read(const ParticleGroupMeta& g, int64_t step, const ReadRequest& request) {
  DomainRead d{request, {}};
  if (!request.box) return d;
  validate_box(*request.box);
  const Box domain = g.step_domain(step_record(g, step));
  const Box closed = closed_at_domain_max(*request.box, domain, g.periodic);
  d.request.box = closed;
  if (g.any_periodic()) d.images = periodic_images(closed, domain, g.periodic);
  if (d.images.size() == 1 && d.images[0].shift == Vec3{0, 0, 0}) d.images.clear();
  return d;
}

// Columns of several reads end to end; the positions of read i moved by shifts[i].
std::vector<FieldColumn> join_images(std::vector<std::vector<FieldColumn>> parts, const std::vector<BoxImage>& images,
                                     size_t position) {
  std::vector<FieldColumn> out(parts[0].size());
  for (size_t f = 0; f < out.size(); ++f) {
    out[f].spec = parts[0][f].spec;
    uint64_t rows = 0;
    for (const auto& p : parts) rows += p[f].rows;
    const uint64_t rb = out[f].spec.row_bytes();
    out[f].bytes.allocate(rows * rb);
    out[f].rows = rows;
    uint64_t at = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
      const FieldColumn& c = parts[i][f];
      if (c.rows) std::memcpy(out[f].bytes.data() + at * rb, c.bytes.data(), c.rows * rb);
      if (f == position) {
        auto shift = [&](auto* v) {
          for (uint64_t r = 0; r < c.rows; ++r)
            for (int a = 0; a < 3; ++a)
              v[3 * (at + r) + a] += static_cast<std::remove_reference_t<decltype(*v)>>(images[i].shift[a]);
        };
        if (out[f].spec.dtype == DType::kF8) shift(reinterpret_cast<double*>(out[f].bytes.data()));
        else shift(reinterpret_cast<float*>(out[f].bytes.data()));
      }
      at += c.rows;
    }
  }
  return out;
}

// The request of a refinement or split: a box reaching the domain's maximum holds it; the
// images of a periodic domain are read()'s alone.
ReadRequest closed_request(const ParticleGroupMeta& g, int64_t step, const ReadRequest& request, const char* what) {
  if (request.box) refuse_periodic_images(*request.box, g, what);
  return domain_read(g, step, request).request;
}

}  // namespace

std::vector<FieldColumn> ParticleGroup::read(int64_t step, const ReadRequest& request, MPI_Comm comm,
                                             const std::optional<Error>& input_error) const {
  std::optional<Error> error = input_error;
  DomainRead d{request, {}};
  if (!error) {
    try {
      d = domain_read(group_meta(*ds_, name_), step, request);
    } catch (...) {
      error = current_error();   // raised on every rank by the read's first agreement
    }
  }
  if (d.images.empty()) return read_one(step, d.request, comm, error);
  // Every rank reads the same images in turn (a collective read each): the request is the same on
  // every rank, so are its images.
  std::vector<std::vector<FieldColumn>> parts;
  ReadStats total;
  for (const BoxImage& im : d.images) {
    ReadRequest r = d.request;
    r.box = im.box;
    parts.push_back(read_one(step, r, comm, error));
    const ReadStats& s = read_stats_;
    add(total, s);
    total.bytes_returned += s.bytes_returned;
    total.particles += s.particles;
    total.candidates += s.candidates;
    total.levels = std::max(total.levels, s.levels);
  }
  read_stats_ = total;
  const Schema& schema = group_meta(*ds_, name_).schema;
  const std::string& position_name = schema.field(schema.position_index()).name;
  size_t position = parts[0].size();   // none: the positions were not asked for
  for (size_t f = 0; f < parts[0].size(); ++f)
    if (parts[0][f].spec.name == position_name) position = f;
  return join_images(std::move(parts), d.images, position);
}

std::vector<FieldColumn> ParticleGroup::read_one(int64_t step, const ReadRequest& request, MPI_Comm comm,
                                                 const std::optional<Error>& input_error) const {
  const bool sampled = request.level.has_value() || request.fraction.has_value();
  auto q = make_query(*ds_, name_, step, request, sampled, comm, input_error);
  uint64_t t1 = UINT64_MAX;
  if (request.level) {
    t1 = q->level_target(*request.level);
  } else if (request.fraction) {
    t1 = fraction_target(*request.fraction, q->candidates());
  }
  ReadStats stats;
  add(stats, q->setup_stats());
  auto out = q->read(0, t1, stats);
  if (sampled) stats.levels = q->level_count();
  read_stats_ = stats;
  // A whole step read here must return every particle the manifest records: a shortfall means a
  // file's description was forged past its checksums.
  if (comm == MPI_COMM_NULL && !request.box && !sampled && !out.empty()) {
    const uint64_t want = step_record(group_meta(*ds_, name_), step).particles;
    if (out[0].rows != want)
      fail(ErrorCode::kFormat, "step ", step, " of group '", name_, "': the read found ", out[0].rows,
           " particles; the manifest records ", want);
  }
  return out;
}

std::vector<Box> ParticleGroup::spatial_split(int64_t step, const std::optional<Box>& box, uint32_t readers) const {
  if (readers < 1) fail(ErrorCode::kInvalidArgument, "readers must be at least 1, got ", readers);
  const ParticleGroupMeta& g = group_meta(*ds_, name_);
  ReadRequest r;
  r.box = box;
  const Box query = box ? *closed_request(g, step, r, "a spatial split").box : unbounded_box();
  const SpatialMetadata meta = metadata(step);
  return spatial_parts(meta, candidate_order(meta, query), query, readers, g.lod, g.schema.row_bytes());
}

std::unique_ptr<Refinement> ParticleGroup::refine(int64_t step, const ReadRequest& request, MPI_Comm comm,
                                                  const std::optional<Error>& input_error) const {
  if (!input_error && (request.level || request.fraction))
    fail(ErrorCode::kInvalidArgument, "a refinement goes through every level; do not give a level or fraction");
  std::optional<Error> error = input_error;
  ReadRequest r = request;
  if (!error) {
    try {
      r = closed_request(group_meta(*ds_, name_), step, request, "a refinement");
    } catch (...) {
      error = current_error();   // raised on every rank by the query's first agreement
    }
  }
  return std::make_unique<Refinement>(make_query(*ds_, name_, step, r, true, comm, error));
}

Refinement::Refinement(std::unique_ptr<ParticleQuery> q) : query_(std::move(q)) { query_->keep_partial_segments(); }
Refinement::~Refinement() = default;
uint32_t Refinement::levels() const { return query_->level_count(); }
uint32_t Refinement::next_level() const { return next_; }

std::vector<FieldColumn> Refinement::next() {
  if (done()) fail(ErrorCode::kInvalidArgument, "the refinement is complete: all ", levels(), " levels were read");
  ReadStats stats;
  if (next_ == 0) add(stats, query_->setup_stats());
  const uint64_t t0 = next_ == 0 ? 0 : level_prefix(query_->lod(), next_ - 1);
  // The last level takes whatever is left, however S rounds.
  const uint64_t t1 = next_ + 1 == levels() ? UINT64_MAX : level_prefix(query_->lod(), next_);
  auto out = query_->read(t0, std::min<uint64_t>(t1, query_->candidates()), stats);
  ++next_;
  stats_ = stats;
  return out;
}

}  // namespace lodex
