// What the particle step write (particle_writer.cpp) and its zero-copy input (particle_buffers.cpp)
// share: the state of one step from its check to its commit, and the phases both run. Internal to
// pipelines/particles.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/box.hpp"
#include "core/mapped_buffer.hpp"
#include "core/scratch_buffer.hpp"
#include "layout/particle_plan.hpp"
#include "mpi/shared_window.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/node_file_write.hpp"
#include "pipelines/particles/particle_exchange.hpp"
#include "pipelines/particles/particle_group.hpp"
#include "pipelines/particles/particle_input.hpp"
#include "pipelines/particles/partition_file_writer.hpp"
#include "storage/write_behind.hpp"

namespace lodex {

// Buffers a group keeps from step to step (ParticleGroup::scratch_).
struct WriteScratch {
  ScratchBuffer receive;   // the aggregator's receive region (point-to-point exchange)
  ScratchBuffer file;      // one data file, assembled in file order
  ScratchBuffer send;      // non-aligned sends: each destination's rows, packed per field
  ScratchBuffer slot;      // non-aligned sends: the destination of every row (uint32)
  ScratchBuffer order;     // non-aligned sends: rows grouped by destination (uint32)
  ScratchBuffer wrapped;   // positions wrapped into a periodic domain (the caller's arrays stay as given)
  WriteBehind writer;      // the aggregator's write-behind thread
  MappedBuffer buffers;    // zero-copy input: the rows of the fields not in a shared window (mapped
                           // memory, so a binding can map its pages again: core/mapped_buffer.hpp)
  SharedWindow window;     // the node's shared window (node and shm exchanges), kept between steps
  ParticlePlanCache plans; // the last step's plan, reused while the decomposition holds
  // The level-of-detail orders of the partitions this rank aggregates and their working arrays
  // (8 bytes per row; 12 where the permutation is not in a shared window), kept so that the next
  // step's order touches no fresh pages.
  std::vector<PartitionOrder> orders;
  LodPlaceScratch place;
};

// Phase indices in a step's PhaseTimes (phase_names() in particle_writer.cpp).
enum ParticlePhase { kCheck, kAgree, kPlan, kExchange, kReorder, kFileWrite, kCommit, kNumPhases };

// Every rank's summary, agreed on before planning.
struct RankRecord {
  double box[6];
  double bounds[6];   // inclusive min and max of the rank's positions (an "auto" step's domain)
  uint64_t count;
  uint64_t patch_given;
  int64_t step;
};

// This rank's side of one step's write.
struct StepWrite {
  StepWrite(DatasetState& st, ParticleGroupMeta& group, const std::string& name, WriteScratch& scratch, int64_t step)
      : st(st), group(group), name(name), scratch(scratch), step(step) {}

  DatasetState& st;
  ParticleGroupMeta& group;
  const std::string& name;
  WriteScratch& scratch;
  int64_t step;
  std::string step_dir_rel, step_dir;
  bool made_step_dir = false;
  StepInput input;                          // the caller's fields in schema order
  uint64_t n = 0;
  Box my_patch{};
  Box domain{};                             // the step's: the group's, or agreed for an "auto" group
  std::shared_ptr<const ParticlePlan> plan;
  std::vector<uint64_t> rank_counts;
  Outgoing outgoing;
  std::vector<DataFileRecord> records;      // files this rank wrote (the heads of node-cooperative files)
  WritePath path = WritePath::kPointToPoint;
  bool async = false;         // an asynchronous step: what can wait for the helper thread does
  bool keep_inputs = false;   // an asynchronous step that copies what it still reads of the caller's arrays

  const Schema& schema() const { return group.schema; }
};

// The orders of this rank's partitions, on a helper thread or inline (particle_writer.cpp).
class Orderer;

// What the files' writing needs after the exchange (on the calling thread for write, on a helper
// thread for write_async: no MPI call) and what the commit needs after that.
struct PendingParticleStep {
  PendingParticleStep(DatasetState& st, ParticleGroupMeta& group, const std::string& name, WriteScratch& scratch,
                      int64_t step);
  ~PendingParticleStep();   // joins the helper: a step never waited for is left uncommitted
  StepWrite w;
  CollectiveOp op;
  std::optional<ParticleExchange> exchange;
  std::optional<NodeFileWrite> node;
  std::unique_ptr<Orderer> orderer;
  PartitionFileTimes pt;
  std::thread helper;
  std::atomic<bool> written{false};
  double blocked_s = 0;   // time the calls held the caller
};

// Zero-copy input (ParticleGroup::open_buffers): where this rank's rows of an open step lie.
struct StepBuffers {
  int64_t step = -1;
  uint64_t n = 0;
  std::optional<Box> patch;
  bool position_components = false;
  std::vector<uint8_t*> rows;    // schema order; the positions' is filled from `parts` when given per component
  uint8_t* parts[3] = {nullptr, nullptr, nullptr};   // the positions per component
  bool in_window = false;        // some field's rows lie in an aggregator's shared window
  // The allocation of each field's rows (MappedBuffer::id or SharedWindow::id; the position
  // components: `memory_of_parts`), for a binding that keeps mappings of them from step to step.
  std::vector<uint64_t> memory;
  uint64_t memory_of_parts = 0;
  // The planned path: agreed, planned and the window reserved at open; nullptr when the commit is
  // an ordinary write of these rows.
  std::shared_ptr<PendingParticleStep> planned;
};

// Every rank's RankInput for the planner; raises a disagreement on the step on every rank.
std::vector<RankInput> rank_inputs(const std::vector<RankRecord>& all);
// The step's exchange objects (exchange, node-cooperative write, orderer) from its plan: no communication.
void set_up_exchange(PendingParticleStep& s);
// The exchange on the calling thread, its counts first unless `counted`; starts the orderer.
void run_exchange(PendingParticleStep& s, bool threaded_order, bool counted);
// The order, the gathers and the file writes: no MPI call (may run on a helper thread).
void write_files(PendingParticleStep& s);
// Gather, commit and verdict (collective) after the files are written; the step's profile.
WriteProfile commit_step(PendingParticleStep& s);

}  // namespace lodex
