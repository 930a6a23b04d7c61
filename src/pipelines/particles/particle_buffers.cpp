// Zero-copy input (ParticleGroup::open_buffers): the caller fills this rank's rows of a step in
// memory handed out by the group, then commits them.
//   open    check the step, the count and the patch (no particles yet) and agree; where the step can
//           be planned before its particles exist, plan it and reserve the exchange: the fields
//           whose rows go to a same-node aggregator are handed out in its shared window
//   commit  planned: the rows checked, then the exchange, file writes and commit of an ordinary
//           step (particle_writer.cpp); otherwise an ordinary write of the rows
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/bytes.hpp"
#include "format/particle_file.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/particle_exchange.hpp"
#include "pipelines/particles/particle_input.hpp"
#include "pipelines/particles/particle_positions.hpp"
#include "pipelines/particles/particle_step.hpp"

namespace lodex {

namespace {

// open_buffers' check: the step, the count and the patch (no particles yet).
RankRecord check_open(StepWrite& w, uint64_t n, const std::optional<Box>& patch) {
  w.st.require_writable();
  if (w.step < 0) fail(ErrorCode::kInvalidArgument, "step ", w.step, " is negative");
  if (w.group.find_step(w.step))
    fail(ErrorCode::kAlreadyExists, "step ", w.step, " of group '", w.name,
         "' is already committed; steps are written once");
  if (n > UINT32_MAX) fail(ErrorCode::kUnsupported, n, " particles on one rank; at most 2^32-1 per call");
  StepInput none;
  const CheckedPositions checked = check_positions(none, w.group, patch, w.scratch.wrapped);
  w.n = n;
  w.my_patch = checked.patch;
  bool patch_given = checked.patch_given;
  if (!patch_given && w.st.comm.size() == 1 && w.group.partition.mode == PartitionMode::kFactor &&
      !w.group.auto_domain) {   // as check(): one writer of a factor partition has the whole domain
    w.my_patch = w.group.domain;
    patch_given = true;
  }
  RankRecord mine{};
  for (int a = 0; a < 3; ++a) {
    mine.box[a] = w.my_patch.inclusive_min[a];
    mine.box[3 + a] = w.my_patch.exclusive_max[a];
  }
  mine.count = n;
  mine.patch_given = patch_given;
  mine.step = w.step;
  return mine;
}

// Whether the step can be planned before its particles exist (the same answer on every rank): a
// fixed domain without periodic axes, a factor or grid partition, and a patch from every rank
// with particles; then the plan must be aligned (a rank's particles go to one partition).
bool plannable_before_data(const ParticleGroupMeta& g, const std::vector<RankRecord>& all) {
  if (g.auto_domain || g.periodic[0] || g.periodic[1] || g.periodic[2]) return false;
  if (g.partition.mode == PartitionMode::kAdaptive) return false;
  for (const RankRecord& r : all)
    if (r.count > 0 && !r.patch_given) return false;
  return true;
}

// This rank's own memory for the fields of `b` (all of them: the planned path then moves some into
// the window), 64-byte aligned, and the position components when asked for.
void own_rows(StepBuffers& b, const Schema& schema, MappedBuffer& memory) {
  const size_t nf = schema.size();
  size_t total = kColumnAlignment;
  for (size_t f = 0; f < nf; ++f) total += align_up(b.n * schema.field(f).row_bytes(), kColumnAlignment);
  const size_t part_bytes = align_up(b.n * dtype_size(schema.field(schema.position_index()).dtype), kColumnAlignment);
  if (b.position_components) total += 3 * part_bytes;
  uint8_t* base = memory.reserve(total);
  uint8_t* at =
      base + (align_up(reinterpret_cast<uintptr_t>(base), kColumnAlignment) - reinterpret_cast<uintptr_t>(base));
  b.rows.assign(nf, nullptr);
  b.memory.assign(nf, memory.id());
  b.memory_of_parts = memory.id();
  for (size_t f = 0; f < nf; ++f) {
    b.rows[f] = at;
    at += align_up(b.n * schema.field(f).row_bytes(), kColumnAlignment);
  }
  for (int a = 0; a < 3 && b.position_components; ++a) {
    b.parts[a] = at;
    at += part_bytes;
  }
}

// The planned path at open: the plan, this rank's one destination, the region laid out and the
// window reserved; the fields whose rows go to a same-node aggregator's window are handed out there.
bool plan_buffers(PendingParticleStep& s, StepBuffers& b, const std::vector<RankRecord>& all) {
  StepWrite& w = s.w;
  std::vector<RankInput> inputs = rank_inputs(all);
  w.domain = w.group.domain;
  for (const RankInput& in : inputs) w.rank_counts.push_back(in.count);
  w.plan = w.scratch.plans.plan(w.domain, w.group.partition, inputs);
  s.op.times().lap(kPlan);
  if (!w.plan->aligned) return false;
  Outgoing& out = w.outgoing;
  out.partitions = w.plan->sends_of(w.st.comm.rank());
  out.counts.assign(out.partitions.size(), w.n);
  for (size_t f = 0; f < w.schema().size() && !out.partitions.empty(); ++f) out.rows.push_back(b.rows[f]);
  set_up_exchange(s);
  s.op.run_locally([&] { s.exchange->exchange_counts(out, w.rank_counts); });   // aligned: no message
  // Collective over the node (the window), messages with the aggregators; a failure is this rank's
  // (its buffers stay its own memory), raised on every rank by the commit's agreement.
  s.op.run_locally([&] { s.exchange->prepare(out); });
  for (size_t f = 0; f < out.rows.size() && !s.op.failed(); ++f) {
    uint64_t bytes = 0;
    if (uint8_t* t = s.exchange->shared_target(out, 0, f, &bytes)) {
      out.rows[f] = b.rows[f] = t;
      b.memory[f] = w.scratch.window.id();
      b.in_window = true;
    }
  }
  return true;
}

// open_buffers: check + agree, then the planned path where it applies (else the commit is an
// ordinary write of the rows the caller filled in this rank's memory).
std::shared_ptr<StepBuffers> open_step_buffers(DatasetState& st, const std::string& name, WriteScratch& scratch,
                                               int64_t step, uint64_t n, const std::optional<Box>& patch,
                                               bool position_components, const std::optional<Error>& input_error) {
  auto s = std::make_shared<PendingParticleStep>(st, *st.manifest.find_particles(name), name, scratch, step);
  StepWrite& w = s->w;
  w.step_dir_rel = step_directory_name(name, step < 0 ? 0 : step);
  w.step_dir = join_path(st.path, w.step_dir_rel);
  const std::vector<RankRecord> all = s->op.agree<RankRecord>(input_error, [&] {
    const RankRecord r = check_open(w, n, patch);
    s->op.times().lap(kCheck);
    return r;
  });
  s->op.times().lap(kAgree);
  auto b = std::make_shared<StepBuffers>();
  b->step = step;
  b->n = n;
  b->patch = patch;
  b->position_components = position_components;
  own_rows(*b, w.schema(), scratch.buffers);
  if (!plannable_before_data(w.group, all)) return b;
  if (!plan_buffers(*s, *b, all)) return b;   // rank_inputs raises a disagreement on every rank
  b->planned = s;
  if (st.comm.rank() == 0)
    s->op.run_locally([&] {
      remove_tree(w.step_dir);   // leftovers of a step that never committed
      w.made_step_dir = true;
      make_directories(w.step_dir);
    });
  return b;
}

// The caller's rows as the views of an ordinary write.
std::vector<FieldView> buffer_views(const StepBuffers& b, const Schema& schema) {
  std::vector<FieldView> views;
  for (size_t f = 0; f < schema.size(); ++f) {
    const FieldSpec& spec = schema.field(f);
    if (f == schema.position_index() && b.position_components) {
      for (int a = 0; a < 3; ++a)
        views.push_back(FieldView{cat(spec.name, "/", "xyz"[a]), spec.dtype, 1, b.n, b.parts[a]});
      continue;
    }
    views.push_back(FieldView{spec.name, spec.dtype, spec.components, b.n, b.rows[f]});
  }
  return views;
}

// The planned path's check at commit, local: positions given per component interleaved into
// their rows, then finite, inside the domain and inside the patch given at open (the plan was made
// of it: a particle outside it would belong to another file).
void check_buffered(StepWrite& w, StepBuffers& b) {
  const Schema& schema = w.schema();
  const size_t pos = schema.position_index();
  StepInput in;
  in.n = b.n;
  in.columns.resize(schema.size());
  for (size_t f = 0; f < schema.size(); ++f) in.columns[f].rows = b.rows[f];
  if (b.position_components) {
    in.columns[pos] = InputColumn{nullptr, {b.parts[0], b.parts[1], b.parts[2]}};
    gather_input(in, schema, pos, nullptr, b.n, b.rows[pos]);
    in.columns[pos] = InputColumn{b.rows[pos], {}};
  }
  if (b.n == 0) return;
  const CheckedPositions checked = check_positions(in, w.group, w.my_patch, w.scratch.wrapped);
  if (checked.patch != w.my_patch)
    fail(ErrorCode::kInvalidArgument, "particles of this rank lie outside the patch ", to_string(w.my_patch),
         " its buffers were planned for: a step written through buffers needs a patch that holds its particles");
}

}  // namespace

std::optional<Error> ParticleGroup::open_buffers_error() const {
  if (!buffers_) return std::nullopt;
  return Error(ErrorCode::kInvalidArgument,
               cat("step ", buffers_->step, " of group '", name_, "' has buffers open: commit or discard them first"));
}

void ParticleGroup::open_buffers(int64_t step, uint64_t count, std::optional<Box> patch, bool position_components,
                                 const std::optional<Error>& input_error) {
  wait_pending();   // the rows of a pending step may lie where these buffers go
  const std::optional<Error> error = input_error ? input_error : open_buffers_error();
  buffers_ = open_step_buffers(*ds_, name_, free_scratch(), step, count, patch, position_components, error);
}

ParticleGroup::Buffer ParticleGroup::buffer(const std::string& name) const {
  if (!buffers_) fail(ErrorCode::kInvalidArgument, "group '", name_, "' has no buffers open");
  const Schema& s = schema();
  const StepBuffers& b = *buffers_;
  const size_t pos = s.position_index();
  const FieldSpec& p = s.field(pos);
  if (b.position_components)
    for (int a = 0; a < 3; ++a)
      if (name == cat(p.name, "/", "xyz"[a])) return Buffer{b.parts[a], b.n, p.dtype, 1, b.memory_of_parts};
  if (!s.has(name) || (b.position_components && s.index_of(name) == pos))
    fail(ErrorCode::kInvalidArgument, "the buffers of step ", b.step, " have no field '", name, "'; they have {",
         s.describe(), "}",
         b.position_components ? cat(" with '", p.name, "' as ", p.name, "/x, ", p.name, "/y, ", p.name, "/z") : "");
  const size_t f = s.index_of(name);
  return Buffer{b.rows[f], b.n, s.field(f).dtype, s.field(f).components, b.memory[f]};
}

bool ParticleGroup::buffers_in_window() const { return buffers_ && buffers_->in_window; }

int64_t ParticleGroup::buffers_step() const { return buffers_ ? buffers_->step : -1; }

void ParticleGroup::discard_buffers() {
  if (!buffers_) return;
  std::shared_ptr<StepBuffers> b = std::move(buffers_);
  if (b->planned && b->planned->w.made_step_dir) {
    try {
      remove_tree(b->planned->w.step_dir);
    } catch (const Error&) {   // a leftover folder is removed when the step is written again
    }
  }
}

void ParticleGroup::commit_buffers(bool async, const std::optional<Error>& input_error) {
  // Local, like a released handle: the same on every rank when every rank made the same call.
  if (!buffers_) fail(ErrorCode::kInvalidArgument, "group '", name_, "' has no buffers open to commit");
  std::shared_ptr<StepBuffers> b = buffers_;
  if (b->planned) return commit_planned(*b, async, input_error);
  buffers_.reset();   // an ordinary write of the rows (it agrees on input_error itself)
  const std::vector<FieldView> views = buffer_views(*b, schema());
  if (async) write_async(b->step, views, b->patch, false, input_error);
  else write(b->step, views, b->patch, input_error);
}

void ParticleGroup::commit_planned(StepBuffers& b, bool async, const std::optional<Error>& input_error) {
  std::shared_ptr<PendingParticleStep> s = b.planned;
  StepWrite& w = s->w;
  const double t0 = wall_seconds();
  s->op.times().restart();   // the time since open is the caller's
  try {
    ds_->comm.agree(input_error, [&] {
      if (s->op.failed()) throw s->op.failure();   // opening the step failed on this rank
      check_buffered(w, b);
      s->op.times().lap(kCheck);
    });
  } catch (...) {   // raised on every rank: the step is discarded, earlier ones stay
    discard_buffers();
    ds_->comm.barrier();   // rank 0 removed the step's folder before any rank returns
    throw;
  }
  buffers_.reset();
  Outgoing& out = w.outgoing;
  const uint64_t bytes = w.n * schema().row_bytes();
  const bool pending = async && make_room(*ds_, bytes);   // else written within the call, as write_async
  // Pending: the helper computes them (rows it keeps or copies itself), or the exchange does before
  // they leave the rank (ParticleGroup::write_async, copy=False).
  if (!out.partitions.empty())
    out.stats.push_back(pending ? ColumnStats::pending() : ColumnStats::of(schema(), out.rows, w.n));
  run_exchange(*s, pending, true);
  if (pending) {
    start_pending(std::move(s), bytes, t0);
    return;
  }
  write_files(*s);
  profile_ = commit_step(*s);
}

}  // namespace lodex
