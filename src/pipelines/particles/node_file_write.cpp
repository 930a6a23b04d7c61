#include "pipelines/particles/node_file_write.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

#include "core/bytes.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

namespace {

// The area's first word: whether the aggregator published the order (or, placed together, the
// shuffle).
constexpr uint64_t kNoOrder = 0, kOrderPublished = 1, kOrderFailed = 2;
// A writer's word: its slice's fate.
constexpr uint64_t kPending = 0, kWritten = 1, kFailed = 2;
// The area's words (byte offsets; word 1 counts the exchange's arrivals) while its writers place
// the order together: how many finished their keys, their counts, their scatter; whether one failed.
constexpr uint64_t kKeysDone = 2 * 8, kCounted = 3 * 8, kPlaced = 4 * 8, kPlaceFailed = 5 * 8;

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

NodeFileWrite::Area NodeFileWrite::area_of(uint32_t p, const ParticleFileHead& head, bool together) const {
  const size_t writers = writers_[p].size();
  Area a;
  // After the signal words (above) and the senders' statistics (the exchange's).
  a.status = ParticleExchange::area_prefix_bytes(plan_.senders_of(p).size(), total_components(schema_));
  a.starts = a.status + align_up(writers * 8, kColumnAlignment);
  a.checksums = a.starts + align_up((head.num_segments() + 1) * 8, kColumnAlignment);
  a.perm = a.checksums + align_up(head.segment_checksums.size() * 8, kColumnAlignment);
  a.shuffled = a.perm + align_up(head.num_particles * 4, kColumnAlignment);
  a.counts = a.shuffled + (together ? align_up(head.num_particles * 4, kColumnAlignment) : 0);
  a.bytes = a.counts + (together ? writers * head.num_segments() * 8 : 0);
  return a;
}

bool NodeFileWrite::places_together(uint32_t p, uint64_t total) const {
  const uint64_t writers = writers_[p].size();
  if (writers < 2 || total == 0 || !plan_.tiles.empty()) return false;
  const uint64_t segments = uint64_t{lod_level_count(total, lod_.scale, lod_.level0_max)}
                            << (3 * lod_brick_bits(total, lod_, schema_.row_bytes()));
  return writers * segments * 2 <= total;   // the count tables (8 bytes each) at most the permutation's 4 per row
}

uint64_t NodeFileWrite::area_bytes(const IncomingPartition& in) const {
  if (writers_[in.id].size() < 2 || in.total == 0) return 0;
  return area_of(in.id, skeleton(in.total), places_together(in.id, in.total)).bytes;
}

uint32_t* NodeFileWrite::perm_target(uint8_t* area, const IncomingPartition& in) const {
  if (!area || in.total == 0) return nullptr;
  const Area a = area_of(in.id, skeleton(in.total), places_together(in.id, in.total));
  return reinterpret_cast<uint32_t*>(area + a.perm);
}

uint32_t* NodeFileWrite::shuffle_target(uint8_t* area, const IncomingPartition& in) const {
  if (!area || !places_together(in.id, in.total)) return nullptr;
  return reinterpret_cast<uint32_t*>(area + area_of(in.id, skeleton(in.total), true).shuffled);
}

void NodeFileWrite::publish(uint8_t* area, const IncomingPartition& in, const PartitionOrder* order) const {
  if (!area) return;
  if (!order) {
    shared_store(word(area, 0), kOrderFailed);
    return;
  }
  const ParticleFileHead head = skeleton(in.total);
  const bool together = places_together(in.id, in.total);
  const Area a = area_of(in.id, head, together);
  if (together) {
    if (order->shuffle_target != reinterpret_cast<uint32_t*>(area + a.shuffled))
      fail(ErrorCode::kInternal, "partition ", in.id, "'s shuffle is not in its area");
  } else {
    auto* perm = reinterpret_cast<uint32_t*>(area + a.perm);
    const bool placed = order->perm_target == perm;   // else computed into the order's own array
    if (order->layout.segment_starts.size() != head.segment_starts.size() ||
        (!placed && order->perm.size() != in.total))
      fail(ErrorCode::kInternal, "partition ", in.id, "'s order does not match its file's layout");
    std::memcpy(area + a.starts, order->layout.segment_starts.data(), head.segment_starts.size() * 8);
    if (!placed) std::memcpy(perm, order->perm.data(), in.total * 4);
  }
  std::fill_n(word(area, a.status), writers_[in.id].size(), kPending);
  shared_store(word(area, 0), kOrderPublished);   // releases everything above to the writers
}

bool NodeFileWrite::place_together(uint32_t p, const ParticleExchange::SharedPartition& sp,
                                   const ParticleFileHead& head, const Area& a, size_t me,
                                   std::vector<uint32_t>& keys) const {
  uint8_t* area = sp.area;
  const size_t writers = writers_[p].size();
  // Waits until all writers reached `step`; false when one of them failed instead.
  auto all_reached = [&](uint64_t step) {
    await_shared(
        [&] { return shared_load(word(area, step)) >= writers || shared_load(word(area, kPlaceFailed)) != 0; });
    return shared_load(word(area, kPlaceFailed)) == 0;
  };
  try {
    LodLayout layout;
    layout.level_ends = head.level_ends;
    layout.brick_bits = head.brick_bits;
    const uint64_t begin = sp.total * me / writers, end = sp.total * (me + 1) / writers;
    auto* perm = reinterpret_cast<uint32_t*>(area + a.perm);   // the input rows' keys until the scatter
    const auto* shuffled = reinterpret_cast<const uint32_t*>(area + a.shuffled);
    auto* counts = reinterpret_cast<uint64_t*>(area + a.counts);
    const size_t pi = schema_.position_index();
    lod_keys(sp.columns[pi], schema_.field(pi).dtype, begin, end, plan_.partitions[p], layout.brick_bits, perm);
    shared_add(word(area, kKeysDone), 1);
    if (!all_reached(kKeysDone)) return false;
    keys.resize(end - begin);
    lod_count(layout, shuffled, perm, begin, end, keys.data(), counts + me * head.num_segments());
    shared_add(word(area, kCounted), 1);
    if (!all_reached(kCounted)) return false;
    std::vector<uint64_t> fill;
    lod_fill_starts(layout, counts, writers, me, fill);
    lod_scatter(layout, shuffled, keys.data(), begin, end, fill, perm);
    if (me == 0) std::memcpy(area + a.starts, layout.segment_starts.data(), layout.segment_starts.size() * 8);
    shared_add(word(area, kPlaced), 1);
    return all_reached(kPlaced);
  } catch (...) {
    shared_store(word(area, kPlaceFailed), 1);   // releases the others from their waits
    throw;
  }
}

void NodeFileWrite::write_slices(const ParticleExchange& exchange, const std::string& directory, ScratchBuffer& buffer,
                                 std::vector<uint32_t>& keys, WriteBehind& writer, PartitionFileTimes& times) const {
  const int me = comm_.rank();
  std::exception_ptr failure;   // the first; the files after it are given up, not waited on
  for (uint32_t p = 0; p < plan_.num_partitions(); ++p) {
    const std::vector<int>& writers = writers_[p];
    const auto mine = std::find(writers.begin(), writers.end(), me);
    if (writers.size() < 2 || mine == writers.end()) continue;
    const ParticleExchange::SharedPartition sp = exchange.shared_partition(writers[0], p);
    if (sp.total == 0 || !sp.area) continue;
    await_shared([&] { return shared_load(word(sp.area, 0)) != kNoOrder; });
    if (shared_load(word(sp.area, 0)) != kOrderPublished) continue;   // the aggregator failed: its error fails the step
    Slice slice{
        p, sp, skeleton(sp.total), {}, static_cast<size_t>(mine - writers.begin()), places_together(p, sp.total)};
    slice.area = area_of(p, slice.head, slice.together);
    uint64_t* status = word(sp.area, slice.area.status) + slice.me;
    if (failure) {   // this rank failed on an earlier file: the others must not wait for it
      if (slice.together) shared_store(word(sp.area, kPlaceFailed), 1);
      shared_store(status, kFailed);
      continue;
    }
    try {
      shared_store(status, write_slice(slice, directory, buffer, keys, writer, times) ? kWritten : kFailed);
    } catch (...) {
      shared_store(status, kFailed);
      try {   // the buffer must outlive the queued writes
        writer.finish(false);
      } catch (const Error&) {
      }
      failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

bool NodeFileWrite::write_slice(Slice& s, const std::string& directory, ScratchBuffer& buffer,
                                std::vector<uint32_t>& keys, WriteBehind& writer, PartitionFileTimes& times) const {
  if (s.together) {
    const double t0 = wall_seconds();
    const bool placed = place_together(s.p, s.sp, s.head, s.area, s.me, keys);
    times.reorder_s += wall_seconds() - t0;
    if (!placed) return false;   // another writer failed: its error fails the step
  }
  std::memcpy(s.head.segment_starts.data(), s.sp.area + s.area.starts, s.head.segment_starts.size() * 8);
  const auto slices = slice_columns(s.head, static_cast<uint32_t>(writers_[s.p].size()));
  const std::vector<SegmentRun>& runs = slices[s.me];
  if (!runs.empty()) {
    writer.begin_shared(join_path(directory, partition_file_name(s.p)));
    write_runs(runs, s.sp.columns, reinterpret_cast<const uint32_t*>(s.sp.area + s.area.perm), s.head,
               word(s.sp.area, s.area.checksums), buffer, writer, times);
    const double t0 = wall_seconds();
    writer.finish(false);   // the aggregator syncs the whole file after the head
    times.wait_s += wall_seconds() - t0;
  }
  return true;   // this rank's bytes are in the file and its checksums in the area
}

std::optional<DataFileRecord> NodeFileWrite::finish(const uint8_t* area, const IncomingPartition& in,
                                                    const PartitionOrder& order, const std::string& directory,
                                                    bool fsync, WriteBehind& writer, PartitionFileTimes& times) const {
  ParticleFileHead head = partition_file_head(in.total, schema_, order);
  const std::vector<int>& writers = writers_[in.id];
  const Area a = area_of(in.id, head, places_together(in.id, in.total));
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
  head.segment_starts.resize(head.num_segments() + 1);   // placed together: not in the aggregator's order
  std::memcpy(head.segment_starts.data(), area + a.starts, head.segment_starts.size() * 8);
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
