// C API: particle groups (lodex.h, "Particle groups"): definition, writes, reads, refinement.
#include "capi/handles.hpp"
#include "capi/results.hpp"

using namespace lodex;
using namespace lodex::capi;

namespace {

struct Definition {
  Schema schema;
  ParticleDomain domain;
  PartitionSpec partition;
  LodParams lod;
};

Definition definition(const lodex_field_def* fields, size_t num_fields, const double* domain,
                      const lodex_partition* partition, const lodex_lod_params* lod) {
  Definition d;
  if (num_fields > 0 && !fields) fail(ErrorCode::kInvalidArgument, "fields is NULL but num_fields is ", num_fields);
  std::vector<FieldSpec> specs;
  for (size_t i = 0; i < num_fields; ++i) specs.push_back(field_spec(fields[i], cat("fields[", i, "]").c_str()));
  d.schema = Schema(specs);
  d.domain = particle_box(domain, "domain");
  d.partition = PartitionSpec{PartitionMode::kGrid, {1, 1, 1}, 0};   // the default of every language
  if (partition) {
    if (partition->mode < LODEX_PARTITION_FACTOR || partition->mode > LODEX_PARTITION_ADAPTIVE)
      fail(ErrorCode::kInvalidArgument, "partition mode ", partition->mode,
           " is not LODEX_PARTITION_FACTOR, _GRID or _ADAPTIVE");
    d.partition.mode = static_cast<PartitionMode>(partition->mode);
    d.partition.dims = {partition->dims[0], partition->dims[1], partition->dims[2]};
    d.partition.particles_per_file = partition->particles_per_file;
  }
  if (lod) d.lod = LodParams{lod->scale, lod->level0_max, lod->brick_target, lod->seed};
  return d;
}

ReadRequest request_of(const lodex_read_request* r) {
  ReadRequest out;
  if (!r) return out;
  if (r->box) out.box = particle_box(r->box, "request box");
  out.fields = names(r->fields, r->num_fields, "request fields");
  if (r->level < -1) fail(ErrorCode::kInvalidArgument, "request level ", r->level, " is below -1 (none)");
  if (r->level >= 0) out.level = static_cast<uint32_t>(r->level);
  if (r->fraction != 0) out.fraction = r->fraction;
  out.lod = LodRequest{r->lod_readers, r->lod_P, r->lod_S};
  if (r->split != LODEX_SPLIT_SPATIAL && r->split != LODEX_SPLIT_BYTES)
    fail(ErrorCode::kInvalidArgument, "request split ", r->split, " is not LODEX_SPLIT_SPATIAL or LODEX_SPLIT_BYTES");
  out.split = r->split == LODEX_SPLIT_BYTES ? ReadSplit::kBytes : ReadSplit::kSpatial;
  return out;
}

void profile_of(const WriteProfile& p, lodex_write_profile* out) {
  *out = lodex_write_profile{p.step,      p.ranks, p.aggregators, p.files,
                             p.particles, p.bytes, p.total_s,     p.blocked_s > 0 ? p.blocked_s : p.total_s};
}

void stats_of(const ReadStats& s, lodex_read_stats* out) {
  *out = lodex_read_stats{s.files_opened, s.bytes_read, s.bytes_returned, s.particles, s.metadata_bytes,
                          s.head_bytes,   s.requests,   s.candidates,     s.seconds,   s.levels};
}

// A collective read's C-level checks, agreed on before the engine's own collectives start.
template <typename Body>
int read_call(const lodex_particles* token, void* out, Body&& body) {
  return guarded([&] {
    const lodex_particles* g = live(token, Kind::kParticles, "group");
    InputCheck check;
    check.require(out != nullptr, "out is NULL");
    body(check, *g);
  });
}

}  // namespace

namespace {

// The group a pending step belongs to (its handle still live), and its pending step number.
template <typename F>
void with_pending_group(const lodex_pending* p, F&& f) {
  if (p->grid) f(*live(p->grid, Kind::kGrid, "the pending step's grid")->group);
  else if (p->series) f(*live(p->series, Kind::kSeries, "the pending step's series")->group);
  else f(*live(p->group, Kind::kParticles, "the pending step's group")->group);
}

}  // namespace

extern "C" {

int lodex_partition_init(lodex_partition* p) {
  return guarded([&] {
    if (!p) fail(ErrorCode::kInvalidArgument, "partition is NULL");
    *p = lodex_partition{LODEX_PARTITION_GRID, {1, 1, 1}, 0};
  });
}

int lodex_lod_params_init(lodex_lod_params* lod) {
  return guarded([&] {
    if (!lod) fail(ErrorCode::kInvalidArgument, "lod is NULL");
    const LodParams d;
    *lod = lodex_lod_params{d.scale, d.level0_max, d.brick_target, d.seed};
  });
}

int lodex_particles_define(lodex_dataset* ds, const char* name, const lodex_field_def* fields, size_t num_fields,
                           const double domain[6], const lodex_partition* partition, const lodex_lod_params* lod,
                           lodex_particles** out) {
  lodex_domain d{{0, 0, 0, 1, 1, 1}, {0, 0, 0}, 0};   // a fixed box without periodic axes
  if (domain) std::copy(domain, domain + 6, d.box);
  return lodex_particles_define_domain(ds, name, fields, num_fields, domain ? &d : nullptr, partition, lod, out);
}

int lodex_domain_init(lodex_domain* d, const double box[6]) {
  return guarded([&] {
    if (!d) fail(ErrorCode::kInvalidArgument, "domain is NULL");
    *d = lodex_domain{{0, 0, 0, 1, 1, 1}, {0, 0, 0}, box ? 0 : 1};
    if (box) std::copy(box, box + 6, d->box);
  });
}

int lodex_particles_define_domain(lodex_dataset* ds, const char* name, const lodex_field_def* fields, size_t num_fields,
                                  const lodex_domain* domain, const lodex_partition* partition,
                                  const lodex_lod_params* lod, lodex_particles** out) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    InputCheck check;
    Definition d;
    check.require(out != nullptr, "out is NULL");
    check.require(name != nullptr, "name is NULL");
    check.attempt([&] {
      static constexpr double kUnit[6] = {0, 0, 0, 1, 1, 1};   // an automatic domain has no box
      // The fields are checked first, then the domain (NULL: "domain is NULL").
      d = definition(fields, num_fields, !domain ? nullptr : domain->automatic ? kUnit : domain->box, partition, lod);
      if (domain->automatic) d.domain = ParticleDomain::auto_domain();
      for (int a = 0; a < 3; ++a) d.domain.periodic[a] = domain->periodic[a] != 0;
    });
    ParticleGroup& g = ds->ds->particles(name ? name : "", d.schema, d.domain, d.partition, d.lod, check.error());
    *out = group_handle(ds->particles, ds, g, Kind::kParticles);
  });
}

int lodex_particles_domain_kind(const lodex_particles* g, int32_t periodic[3], int32_t* automatic) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    if (!periodic || !automatic) fail(ErrorCode::kInvalidArgument, "periodic or automatic is NULL");
    for (int a = 0; a < 3; ++a) periodic[a] = g->group->periodic()[a] ? 1 : 0;
    *automatic = g->group->auto_domain() ? 1 : 0;
  });
}

int lodex_particles_step_domain(const lodex_particles* g, int64_t step, double box[6]) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    if (!box) fail(ErrorCode::kInvalidArgument, "box is NULL");
    const Box b = g->group->step_domain(step);
    for (int a = 0; a < 3; ++a) box[a] = b.inclusive_min[a], box[3 + a] = b.exclusive_max[a];
  });
}

int lodex_particles_open(lodex_dataset* ds, const char* name, lodex_particles** out) {
  return guarded([&] {
    ds = live(ds, Kind::kDataset, "ds");
    if (!out) fail(ErrorCode::kInvalidArgument, "out is NULL");
    *out = group_handle(ds->particles, ds, ds->ds->particles(text(name, "name")), Kind::kParticles);
  });
}

int lodex_particles_field_count(const lodex_particles* g, size_t* count) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    if (!count) fail(ErrorCode::kInvalidArgument, "count is NULL");
    *count = g->group->schema().size();
  });
}

int lodex_particles_field(const lodex_particles* g, size_t index, lodex_field_def* out) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    if (!out) fail(ErrorCode::kInvalidArgument, "out is NULL");
    const Schema& s = g->group->schema();
    if (index >= s.size()) fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", s.size(), " fields");
    to_c(s.field(index), out);
  });
}

int lodex_particles_domain(const lodex_particles* g, double box[6]) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    if (!box) fail(ErrorCode::kInvalidArgument, "box is NULL");
    Box b = g->group->domain();
    if (!(b.inclusive_min[0] <= b.exclusive_max[0])) b = Box{};   // an automatic domain before its first step
    for (int a = 0; a < 3; ++a) box[a] = b.inclusive_min[a], box[3 + a] = b.exclusive_max[a];
  });
}

int lodex_particles_steps(const lodex_particles* g, int64_t* steps, size_t capacity, size_t* count) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    copy_steps(g->group->steps(), steps, capacity, count);
  });
}

// A write's C arguments as the engine takes them; a conversion error goes into `check`, which the
// engine's agreement raises on every rank.
struct WriteArgs {
  InputCheck check;
  std::vector<FieldView> views;
  std::optional<Box> patch;
};
WriteArgs write_args(const lodex_field_data* fields, size_t num_fields, const double* patch) {
  WriteArgs a;
  a.check.attempt([&] { a.views = field_views(fields, num_fields); });
  a.check.attempt([&] {
    if (patch) a.patch = particle_box(patch, "patch");
  });
  return a;
}

int lodex_particles_write(lodex_particles* g, int64_t step, const lodex_field_data* fields, size_t num_fields,
                          const double* patch) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    WriteArgs a = write_args(fields, num_fields, patch);
    g->group->write(step, a.views, a.patch, a.check.error());   // an argument error is raised on every rank
  });
}

int lodex_particles_write_async(lodex_particles* g, int64_t step, const lodex_field_data* fields, size_t num_fields,
                                const double* patch, unsigned flags, lodex_pending** out) {
  return guarded([&] {
    lodex_particles* const token = g;
    g = live(g, Kind::kParticles, "group");
    WriteArgs a = write_args(fields, num_fields, patch);
    a.check.attempt([&] {
      if (flags & ~unsigned{LODEX_WRITE_NO_COPY})
        fail(ErrorCode::kInvalidArgument, "flags ", flags, " has bits other than LODEX_WRITE_NO_COPY");
    });
    if (out) *out = nullptr;
    g->group->write_async(step, a.views, a.patch, !(flags & LODEX_WRITE_NO_COPY), a.check.error());
    if (out) {
      auto p = std::make_unique<lodex_pending>();
      p->group = token;
      p->step = step;
      *out = register_handle(p.get(), Kind::kPending);
      p.release();
    }
  });
}

int lodex_pending_wait(lodex_pending* p) {
  return guarded([&] {
    p = live(p, Kind::kPending, "pending step");
    with_pending_group(p, [&](auto& g) { g.wait_step(p->step); });
  });
}

int lodex_pending_done(const lodex_pending* p, int* done) {
  return guarded([&] {
    p = live(p, Kind::kPending, "pending step");
    int& d = not_null(done, "done");
    with_pending_group(p, [&](const auto& g) { d = g.step_written(p->step); });
  });
}

int lodex_pending_free(lodex_pending* p) {
  if (!p) return LODEX_OK;
  return guarded([&] { delete release_handle(p, Kind::kPending, "pending step"); });
}

int lodex_particles_buffers(lodex_particles* g, int64_t step, uint64_t count, const double* patch, unsigned flags,
                            lodex_buffers** out) {
  return guarded([&] {
    lodex_particles* const token = g;
    g = live(g, Kind::kParticles, "group");
    if (out) *out = nullptr;
    InputCheck check;
    std::optional<Box> box;
    check.require(out != nullptr, "out is NULL");
    check.attempt([&] {
      if (patch) box = particle_box(patch, "patch");
      if (flags & ~unsigned{LODEX_BUFFERS_POSITION_COMPONENTS})
        fail(ErrorCode::kInvalidArgument, "flags ", flags, " has bits other than LODEX_BUFFERS_POSITION_COMPONENTS");
    });
    g->group->open_buffers(step, count, box, flags & LODEX_BUFFERS_POSITION_COMPONENTS, check.error());
    auto b = std::make_unique<lodex_buffers>();
    b->group = token;
    b->step = step;
    *out = register_handle(b.get(), Kind::kBuffers);
    b.release();
  });
}

namespace {

// The group of open buffers, refusing buffers already committed or no longer open.
ParticleGroup& open_group(const lodex_buffers* b) {
  ParticleGroup& g = *live(b->group, Kind::kParticles, "the buffers' group")->group;
  if (b->committed)
    fail(ErrorCode::kInvalidArgument, "the buffers of step ", b->step, " of group '", g.name(),
         "' were committed already; their memory belongs to the step");
  if (g.buffers_step() != b->step)
    fail(ErrorCode::kInvalidArgument, "the buffers of step ", b->step, " of group '", g.name(), "' are no longer open");
  return g;
}

}  // namespace

int lodex_buffers_field(lodex_buffers* b, const char* name, int32_t dtype, uint32_t components, void** data) {
  return guarded([&] {
    b = live(b, Kind::kBuffers, "buffers");
    void*& out = not_null(data, "data");
    out = nullptr;
    const std::string field = text(name, "name");
    const DType asked = dtype_of(dtype, cat("field '", field, "'").c_str());
    const ParticleGroup::Buffer f = open_group(b).buffer(field);
    if (asked != f.dtype || components != f.components)
      fail(ErrorCode::kInvalidArgument, "field '", field, "' is ", dtype_name(f.dtype), " with ", f.components,
           f.components == 1 ? " component" : " components", " per particle; asked as ", dtype_name(asked), " with ",
           components);
    out = f.data;
  });
}

int lodex_buffers_in_window(const lodex_buffers* b, int* in_window) {
  return guarded([&] {
    b = live(b, Kind::kBuffers, "buffers");
    int& out = not_null(in_window, "in_window");
    out = open_group(b).buffers_in_window() ? 1 : 0;
  });
}

static int commit_buffers(lodex_buffers* b, bool async, lodex_pending** out) {
  return guarded([&] {
    b = live(b, Kind::kBuffers, "buffers");
    if (out) *out = nullptr;
    ParticleGroup& g = open_group(b);
    b->committed = true;   // whatever the outcome: a failed commit discards the step
    g.commit_buffers(async);
    if (out) {
      auto p = std::make_unique<lodex_pending>();
      p->group = b->group;
      p->step = b->step;
      *out = register_handle(p.get(), Kind::kPending);
      p.release();
    }
  });
}

int lodex_buffers_commit(lodex_buffers* b) { return commit_buffers(b, false, nullptr); }

int lodex_buffers_commit_async(lodex_buffers* b, lodex_pending** out) { return commit_buffers(b, true, out); }

int lodex_buffers_free(lodex_buffers* b) {
  if (!b) return LODEX_OK;
  return guarded([&] {
    std::unique_ptr<lodex_buffers> owned(release_handle(b, Kind::kBuffers, "buffers"));
    if (owned->committed) return;
    // Not committed: the step is discarded (its group may be gone with a closed dataset).
    try {
      ParticleGroup& g = *live(owned->group, Kind::kParticles, "the buffers' group")->group;
      if (g.buffers_step() == owned->step) g.discard_buffers();
    } catch (const Error&) {
    }
  });
}

int lodex_particles_profile(const lodex_particles* g, lodex_write_profile* out, const char** json) {
  return guarded([&] {
    auto* h = const_cast<lodex_particles*>(live(g, Kind::kParticles, "group"));
    if (!out) fail(ErrorCode::kInvalidArgument, "out is NULL");
    profile_of(h->group->profile(), out);
    if (json) {
      h->profile_json = h->group->profile().to_json();
      *json = h->profile_json.c_str();
    }
  });
}

int lodex_read_request_init(lodex_read_request* r) {
  return guarded([&] {
    if (!r) fail(ErrorCode::kInvalidArgument, "request is NULL");
    const ReadRequest d;
    *r = lodex_read_request{nullptr, nullptr, 0, -1, 0.0, d.lod.readers, d.lod.P, d.lod.S, LODEX_SPLIT_SPATIAL};
  });
}

int lodex_particles_read(const lodex_particles* g, int64_t step, const lodex_read_request* request, MPI_Comm comm,
                         lodex_columns** out) {
  return read_call(g, out, [&](InputCheck& check, const lodex_particles& h) {
    ReadRequest r;
    check.attempt([&] { r = request_of(request); });
    *out = new_columns(h.group->read(step, r, comm, check.error()));   // an input error: raised on every rank
  });
}

int lodex_particles_read_f(const lodex_particles* g, int64_t step, const lodex_read_request* request, MPI_Fint comm,
                           lodex_columns** out) {
  return with_fortran_comm(comm, [&](MPI_Comm c_comm) { return lodex_particles_read(g, step, request, c_comm, out); });
}

int lodex_particles_read_stats(const lodex_particles* g, lodex_read_stats* out) {
  return guarded([&] {
    g = live(g, Kind::kParticles, "group");
    if (!out) fail(ErrorCode::kInvalidArgument, "out is NULL");
    stats_of(g->group->last_read_stats(), out);
  });
}

int lodex_particles_refine(const lodex_particles* g, int64_t step, const lodex_read_request* request, MPI_Comm comm,
                           lodex_refinement** out) {
  return read_call(g, out, [&](InputCheck& check, const lodex_particles& group) {
    ReadRequest r;
    check.attempt([&] { r = request_of(request); });
    auto h = std::make_unique<lodex_refinement>();
    h->ds = group.owner->ds;
    h->refinement = group.group->refine(step, r, comm, check.error());   // an input error: raised on every rank
    *out = register_handle(h.get(), Kind::kRefinement);
    h.release();
  });
}

int lodex_particles_refine_f(const lodex_particles* g, int64_t step, const lodex_read_request* request, MPI_Fint comm,
                             lodex_refinement** out) {
  return with_fortran_comm(comm,
                           [&](MPI_Comm c_comm) { return lodex_particles_refine(g, step, request, c_comm, out); });
}

int lodex_refinement_levels(const lodex_refinement* r, uint32_t* levels) {
  return guarded([&] {
    r = live(r, Kind::kRefinement, "refinement");
    if (!levels) fail(ErrorCode::kInvalidArgument, "levels is NULL");
    *levels = r->refinement->levels();
  });
}

int lodex_refinement_next_level(const lodex_refinement* r, uint32_t* level) {
  return guarded([&] {
    r = live(r, Kind::kRefinement, "refinement");
    if (!level) fail(ErrorCode::kInvalidArgument, "level is NULL");
    *level = r->refinement->next_level();
  });
}

int lodex_refinement_next(lodex_refinement* r, lodex_columns** out) {
  return guarded([&] {
    r = live(r, Kind::kRefinement, "refinement");
    // Collective: a rank that passed no `out` still reads its part, so no other rank waits.
    std::vector<FieldColumn> cols = r->refinement->next();
    if (!out) fail(ErrorCode::kInvalidArgument, "out is NULL");
    *out = new_columns(std::move(cols));
  });
}

int lodex_refinement_read_stats(const lodex_refinement* r, lodex_read_stats* out) {
  return guarded([&] {
    r = live(r, Kind::kRefinement, "refinement");
    if (!out) fail(ErrorCode::kInvalidArgument, "out is NULL");
    stats_of(r->refinement->last_read_stats(), out);
  });
}

int lodex_refinement_free(lodex_refinement* r) {
  if (!r) return LODEX_OK;
  return guarded([&] { delete release_handle(r, Kind::kRefinement, "refinement"); });
}

}  // extern "C"
