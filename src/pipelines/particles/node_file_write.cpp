#include "pipelines/particles/node_file_write.hpp"

#include <algorithm>
#include <cstring>

#include "core/bytes.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

namespace {

// The area's first word: whether the aggregator published the order.
constexpr uint64_t kNoOrder = 0, kOrderPublished = 1, kOrderFailed = 2;
// A writer's word: its slice's fate.
constexpr uint64_t kPending = 0, kWritten = 1, kFailed = 2;

uint64_t* word(uint8_t* area, uint64_t offset) { return reinterpret_cast<uint64_t*>(area + offset); }
const uint64_t* word(const uint8_t* area, uint64_t offset) { return reinterpret_cast<const uint64_t*>(area + offset); }

}  // namespace

std::vector<int> file_writers(const Comm& comm, const ParticlePlan& plan, uint32_t p) {
  const int agg = plan.aggregator[p];
  if (agg < 0) return {};
  std::vector<int> writers{agg};
  for (int32_t r : plan.senders_of(p))
    if (r != agg && comm.node_of(r) == comm.node_of(agg)) writers.push_back(r);
  std::sort(writers.begin() + 1, writers.end());
  return writers;
}

bool node_writes_together(const Comm& comm, const ParticlePlan& plan) {
  if (!comm.is_mpi()) return false;
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) {
    const int agg = plan.aggregator[p];
    if (agg < 0) continue;
    for (int32_t r : plan.senders_of(p))   // a second writer: another sender on the aggregator's node
      if (r != agg && comm.node_of(r) == comm.node_of(agg)) return true;
  }
  return false;
}

NodeFileWrite::NodeFileWrite(const Comm& comm, const ParticlePlan& plan, const Schema& schema, const LodParams& lod)
    : comm_(comm), plan_(plan), schema_(schema), lod_(lod) {
  writers_.resize(plan.num_partitions());
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) writers_[p] = file_writers(comm, plan, p);
}

ParticleFileHead NodeFileWrite::skeleton(uint64_t total) const {
  ParticleFileHead head;
  head.num_particles = total;
  head.level_scale = lod_.scale;
  head.fields = schema_.fields();
  head.level_ends = lod_level_ends(total, lod_.scale, lod_.level0_max);
  head.brick_bits = lod_brick_bits(total, lod_, schema_.row_bytes());
  head.segment_starts.assign(head.num_segments() + 1, 0);
  head.segment_checksums.assign(schema_.size() * head.num_segments(), 0);
  assign_column_offsets(head);
  return head;
}

NodeFileWrite::Area NodeFileWrite::area_of(const ParticleFileHead& head, size_t writers) const {
  Area a;
  a.status = kColumnAlignment;   // after the signal words: 0 the order's state, 1 the exchange's arrivals
  a.starts = a.status + align_up(writers * 8, kColumnAlignment);
  a.checksums = a.starts + align_up((head.num_segments() + 1) * 8, kColumnAlignment);
  a.perm = a.checksums + align_up(head.segment_checksums.size() * 8, kColumnAlignment);
  a.bytes = a.perm + head.num_particles * 4;
  return a;
}

uint64_t NodeFileWrite::area_bytes(const IncomingPartition& in) const {
  if (writers_[in.id].size() < 2 || in.total == 0) return 0;
  return area_of(skeleton(in.total), writers_[in.id].size()).bytes;
}

uint32_t* NodeFileWrite::perm_target(uint8_t* area, const IncomingPartition& in) const {
  if (!area || in.total == 0) return nullptr;
  return reinterpret_cast<uint32_t*>(area + area_of(skeleton(in.total), writers_[in.id].size()).perm);
}

void NodeFileWrite::publish(uint8_t* area, const IncomingPartition& in, const PartitionOrder* order) const {
  if (!area) return;
  if (!order) {
    shared_store(word(area, 0), kOrderFailed);
    return;
  }
  const ParticleFileHead head = skeleton(in.total);
  const Area a = area_of(head, writers_[in.id].size());
  auto* perm = reinterpret_cast<uint32_t*>(area + a.perm);
  const bool placed = order->perm_target == perm;   // else computed into the order's own array
  if (order->layout.segment_starts.size() != head.segment_starts.size() || (!placed && order->perm.size() != in.total))
    fail(ErrorCode::kInternal, "partition ", in.id, "'s order does not match its file's layout");
  std::memcpy(area + a.starts, order->layout.segment_starts.data(), head.segment_starts.size() * 8);
  if (!placed) std::memcpy(perm, order->perm.data(), in.total * 4);
  std::fill_n(word(area, a.status), writers_[in.id].size(), kPending);
  shared_store(word(area, 0), kOrderPublished);   // releases everything above to the writers
}

void NodeFileWrite::write_slices(const ParticleExchange& exchange, const std::string& directory, ScratchBuffer& buffer,
                                 WriteBehind& writer, PartitionFileTimes& times) const {
  const int me = comm_.rank();
  for (uint32_t p = 0; p < plan_.num_partitions(); ++p) {
    const std::vector<int>& writers = writers_[p];
    const auto mine = std::find(writers.begin(), writers.end(), me);
    if (writers.size() < 2 || mine == writers.end()) continue;
    const ParticleExchange::SharedPartition sp = exchange.shared_partition(writers[0], p);
    if (sp.total == 0 || !sp.area) continue;
    await_shared([&] { return shared_load(word(sp.area, 0)) != kNoOrder; });
    if (shared_load(word(sp.area, 0)) != kOrderPublished) continue;   // the aggregator failed: its error fails the step
    ParticleFileHead head = skeleton(sp.total);
    const Area a = area_of(head, writers.size());
    std::memcpy(head.segment_starts.data(), sp.area + a.starts, head.segment_starts.size() * 8);
    uint64_t* status = word(sp.area, a.status) + (mine - writers.begin());
    try {
      const auto slices = slice_columns(head, static_cast<uint32_t>(writers.size()));
      const std::vector<SegmentRun>& runs = slices[mine - writers.begin()];
      if (!runs.empty()) {
        writer.begin_shared(join_path(directory, partition_file_name(p)));
        write_runs(runs, sp.columns, reinterpret_cast<const uint32_t*>(sp.area + a.perm), head,
                   word(sp.area, a.checksums), buffer, writer, times);
        const double t0 = wall_seconds();
        writer.finish(false);   // the aggregator syncs the whole file after the head
        times.wait_s += wall_seconds() - t0;
      }
      shared_store(status, kWritten);   // after this rank's bytes are in the file and its checksums in the area
    } catch (...) {
      shared_store(status, kFailed);
      try {   // the buffer must outlive the queued writes
        writer.finish(false);
      } catch (const Error&) {
      }
      throw;
    }
  }
}

std::optional<DataFileRecord> NodeFileWrite::finish(const uint8_t* area, const IncomingPartition& in,
                                                    const PartitionOrder& order, const std::string& directory,
                                                    bool fsync, WriteBehind& writer, PartitionFileTimes& times) const {
  ParticleFileHead head = partition_file_head(in.total, schema_, order);
  const std::vector<int>& writers = writers_[in.id];
  const Area a = area_of(head, writers.size());
  const uint64_t* status = word(area, a.status);
  await_shared([&] {
    for (size_t i = 0; i < writers.size(); ++i)
      if (shared_load(status + i) == kPending) return false;
    return true;
  });
  for (size_t i = 0; i < writers.size(); ++i) {
    const uint64_t s = shared_load(status + i);
    if (s == kFailed) return std::nullopt;   // that writer raises its own error
    if (s != kWritten)
      fail(ErrorCode::kInternal, "rank ", writers[i], " did not write its slice of partition ", in.id, "'s file");
  }
  std::memcpy(head.segment_checksums.data(), area + a.checksums, head.segment_checksums.size() * 8);
  writer.begin_shared(join_path(directory, partition_file_name(in.id)));
  try {
    return finish_partition_file(head, in, in.stats, schema_, order.box, comm_.rank(), writer, fsync, times);
  } catch (...) {
    try {
      writer.finish(false);
    } catch (const Error&) {
    }
    throw;
  }
}

}   // namespace lodex
