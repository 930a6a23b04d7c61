#include "pipelines/particles/particle_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

#include "core/bytes.hpp"
#include "format/particle_file.hpp"

namespace lodex {

namespace {
constexpr int kTagCounts = 7101;
constexpr int kTagData = 7102;
constexpr int kTagOffsets = 7103;
constexpr int kTagStats = 7104;
}  // namespace

ParticleExchange::ParticleExchange(const Comm& comm, const ParticlePlan& plan, std::vector<size_t> row_bytes,
                                   uint32_t components, ExchangeMethod method, ScratchBuffer& region,
                                   SharedWindow& window)
    : comm_(comm),
      plan_(plan),
      row_bytes_(std::move(row_bytes)),
      method_(method),
      me_(comm.rank()),
      comps_(components),
      region_(region),
      window_(window) {
  for (uint32_t p : plan.partitions_of_aggregator(me_)) {
    IncomingPartition in;
    in.id = p;
    in.counts.assign(plan.senders_of(p).size(), 0);
    in.stats = ColumnStats::empty(comps_);
    incoming_.push_back(std::move(in));
  }
}

ParticleExchange::~ParticleExchange() {
  try {
    release();
  } catch (const Error&) {   // a destructor must not throw; the window is gone either way
  }
}

void ParticleExchange::release() {
  // No barrier: the window is used again only after the next step's reserve, which every rank of
  // the node enters once done with this one.
  shared_ = false;
  base_ = nullptr;
  prepared_ = moves_ = false;
  for (auto& in : incoming_) in.columns.clear();
}

void ParticleExchange::node_sync() {
  if (shared_) window_.sync();
  comm_.node_barrier();
  if (shared_) window_.sync();
}

uint64_t* ParticleExchange::arrivals(uint8_t* area) { return area ? reinterpret_cast<uint64_t*>(area) + 1 : nullptr; }

void ParticleExchange::await_copies() {
  for (size_t k = 0; k < incoming_.size(); ++k) {
    uint64_t* arrived = arrivals(area(k));
    if (!arrived) continue;
    const IncomingPartition& in = incoming_[k];
    const auto senders = plan_.senders_of(in.id);
    uint64_t expected = 0;
    for (size_t i = 0; i < senders.size(); ++i)
      expected += in.counts[i] > 0 && comm_.node_of(senders[i]) == comm_.node_of(me_) ? 1 : 0;
    await_shared([&] { return shared_load(arrived) >= expected; });
  }
}

uint8_t* ParticleExchange::area(size_t k) const {
  return k < area_offset_.size() && area_offset_[k] != 0 && base_ ? base_ + area_offset_[k] : nullptr;
}

namespace {
// Directory: the window's epoch (written last: a reader waits for this step's), the entry count,
// then per exchanged partition: id, rows, area offset, column offsets.
uint64_t directory_bytes(size_t entries, size_t fields) { return 16 + entries * 8 * (3 + fields); }
}  // namespace

void ParticleExchange::write_directory(const std::vector<std::vector<uint64_t>>& column_offset) {
  const size_t nf = row_bytes_.size();
  auto* d = reinterpret_cast<uint64_t*>(base_);
  uint64_t entries = 0;
  for (size_t k = 0; k < incoming_.size(); ++k) {
    if (column_offset[k].empty()) continue;
    uint64_t* e = d + 2 + entries++ * (3 + nf);
    if (area_offset_[k] != 0) std::memset(base_ + area_offset_[k], 0, kColumnAlignment);   // no stale words
    e[0] = incoming_[k].id;
    e[1] = incoming_[k].total;
    e[2] = area_offset_[k];
    std::copy(column_offset[k].begin(), column_offset[k].end(), e + 3);
  }
  d[1] = entries;
  shared_store(d, window_.epoch());   // releases the entries and the zeroed words
}

ParticleExchange::SharedPartition ParticleExchange::shared_partition(int aggregator, uint32_t partition) const {
  const int node_rank = comm_.node_rank_of(aggregator);
  if (!shared_ || node_rank < 0)
    fail(ErrorCode::kInternal, "partition ", partition, " is not in a shared window of this node");
  uint64_t bytes = 0;
  uint8_t* base = window_.part_of(node_rank, &bytes);
  const size_t nf = row_bytes_.size();
  const auto* d = reinterpret_cast<const uint64_t*>(base);
  if (bytes < 16) fail(ErrorCode::kInternal, "rank ", aggregator, "'s shared window has no directory");
  await_shared([&] { return shared_load(d) == window_.epoch(); });   // this step's directory
  if (directory_bytes(d[1], nf) > bytes)
    fail(ErrorCode::kInternal, "rank ", aggregator, "'s shared window has no directory");
  for (uint64_t i = 0; i < d[1]; ++i) {
    const uint64_t* e = d + 2 + i * (3 + nf);
    if (e[0] != partition) continue;
    SharedPartition sp;
    sp.total = e[1];
    for (size_t f = 0; f < nf; ++f) {
      if (e[3 + f] + e[1] * row_bytes_[f] > bytes)
        fail(ErrorCode::kInternal, "partition ", partition, "'s column ", f, " lies outside rank ", aggregator,
             "'s window");
      sp.columns.push_back(base + e[3 + f]);
    }
    if (e[2] != 0) {
      if (e[2] >= bytes) fail(ErrorCode::kInternal, "partition ", partition, "'s area lies outside its window");
      sp.area = base + e[2];
    }
    return sp;
  }
  fail(ErrorCode::kInternal, "partition ", partition, " is not in rank ", aggregator, "'s shared window");
}

size_t ParticleExchange::slot_of(const Outgoing& out, uint32_t partition) const {
  const auto it = std::lower_bound(out.partitions.begin(), out.partitions.end(), partition);
  if (it == out.partitions.end() || *it != partition)
    fail(ErrorCode::kInternal, "partition ", partition, " is not among this rank's destinations");
  return static_cast<size_t>(it - out.partitions.begin());
}

void ParticleExchange::exchange_counts(const Outgoing& out, std::span<const uint64_t> rank_counts) {
  if (!comm_.is_mpi()) {   // serial: this rank is the only sender of every partition it owns
    for (auto& in : incoming_) in.counts[0] = out.counts[slot_of(out, in.id)];
  } else if (plan_.aligned) {   // a rank's one destination gets all its particles
    for (auto& in : incoming_) {
      const auto senders = plan_.senders_of(in.id);
      for (size_t i = 0; i < senders.size(); ++i) in.counts[i] = rank_counts[senders[i]];
    }
  } else {
    Exchange ex(comm_);
    for (auto& in : incoming_) {
      const auto senders = plan_.senders_of(in.id);
      for (size_t i = 0; i < senders.size(); ++i) ex.irecv(&in.counts[i], sizeof(uint64_t), senders[i], kTagCounts);
    }
    for (size_t s = 0; s < out.partitions.size(); ++s)
      ex.isend(&out.counts[s], sizeof(uint64_t), plan_.aggregator[out.partitions[s]], kTagCounts);
    ex.wait_all(incoming_.empty());
  }
  for (auto& in : incoming_) {
    in.first_row.resize(in.counts.size());
    in.total = 0;
    for (size_t i = 0; i < in.counts.size(); ++i) {
      in.first_row[i] = in.total;
      in.total += in.counts[i];
    }
  }
}

uint64_t ParticleExchange::lay_out_region(const Outgoing& out, std::vector<std::vector<uint64_t>>& column_offset) {
  const size_t nf = row_bytes_.size();
  const bool shared = method_ == ExchangeMethod::kSharedMemory;
  column_offset.assign(incoming_.size(), {});
  area_offset_.assign(incoming_.size(), 0);
  size_t exchanged = 0;
  for (const auto& in : incoming_) exchanged += plan_.aggregated_in_place(in.id) ? 0 : 1;
  uint64_t region_bytes = shared ? align_up(directory_bytes(exchanged, nf), kColumnAlignment) : 0;
  for (size_t k = 0; k < incoming_.size(); ++k) {
    IncomingPartition& in = incoming_[k];
    in.columns.assign(nf, nullptr);
    if (plan_.aggregated_in_place(in.id)) {
      const size_t s = slot_of(out, in.id);
      for (size_t f = 0; f < nf; ++f) in.columns[f] = out.rows[s * nf + f];
      continue;
    }
    column_offset[k].resize(nf);
    for (size_t f = 0; f < nf; ++f) {
      column_offset[k][f] = region_bytes;
      region_bytes += align_up(in.total * row_bytes_[f], kColumnAlignment);
    }
    if (shared && area_bytes_) {
      if (const uint64_t a = area_bytes_(in); a > 0) {
        area_offset_[k] = region_bytes;
        region_bytes += align_up(a, kColumnAlignment);
      }
    }
  }
  return region_bytes;
}

// Statistics travel as 2 * components doubles (min then max) per (sender, partition) with rows.
bool ParticleExchange::stats_in_window(int sender, int aggregator, uint32_t partition) const {
  return shared_ && area_bytes_ && comm_.node_rank_of(sender) >= 0 && comm_.node_rank_of(aggregator) >= 0 &&
         shared_partition(aggregator, partition).area != nullptr;
}

double* ParticleExchange::stats_slot(uint8_t* area, size_t sender) const {
  return reinterpret_cast<double*>(area + kColumnAlignment) + sender * 2 * comps_;
}

uint64_t ParticleExchange::area_prefix_bytes(size_t senders, uint32_t components) {
  return kColumnAlignment + align_up(senders * 2 * components * sizeof(double), kColumnAlignment);
}

void ParticleExchange::post_stats(const Outgoing& out, Exchange& ex, std::vector<std::vector<double>>& received) {
  received.assign(incoming_.size(), {});
  for (size_t k = 0; k < incoming_.size(); ++k) {
    const IncomingPartition& in = incoming_[k];
    if (plan_.aggregated_in_place(in.id)) continue;
    const auto senders = plan_.senders_of(in.id);
    received[k].assign(senders.size() * 2 * comps_, 0.0);
    for (size_t i = 0; i < senders.size(); ++i)
      if (in.counts[i] > 0 && !stats_in_window(senders[i], me_, in.id))
        ex.irecv(received[k].data() + i * 2 * comps_, 2 * comps_ * sizeof(double), senders[i], kTagStats);
  }
  for (size_t s = 0; s < out.partitions.size(); ++s) {
    const uint32_t p = out.partitions[s];
    if (out.counts[s] == 0 || plan_.aggregated_in_place(p) || stats_in_window(me_, plan_.aggregator[p], p)) continue;
    // min and max are adjacent only in the message: send both vectors as two ranges
    ex.isend_ranges(
        {{out.stats[s].min.data(), comps_ * sizeof(double)}, {out.stats[s].max.data(), comps_ * sizeof(double)}},
        plan_.aggregator[p], kTagStats);
  }
}

void ParticleExchange::merge_stats(const Outgoing& out, const std::vector<std::vector<double>>& received) {
  for (size_t k = 0; k < incoming_.size(); ++k) {
    IncomingPartition& in = incoming_[k];
    in.stats = ColumnStats::empty(comps_);
    if (plan_.aggregated_in_place(in.id)) {
      in.stats = out.stats[slot_of(out, in.id)];
      continue;
    }
    const auto senders = plan_.senders_of(in.id);
    for (size_t i = 0; i < in.counts.size(); ++i) {   // sender order, as the rows lie
      if (in.counts[i] == 0) continue;
      ColumnStats s;
      const double* v = stats_in_window(senders[i], me_, in.id) ? stats_slot(area(k), i)   // copy_to_node
                                                                : received[k].data() + i * 2 * comps_;
      s.min.assign(v, v + comps_);
      s.max.assign(v + comps_, v + 2 * comps_);
      in.stats.merge(s);
    }
  }
}

void ParticleExchange::shared_offsets(const Outgoing& out, const std::vector<std::vector<uint64_t>>& column_offset,
                                      std::vector<uint64_t>& replies, std::vector<uint64_t>& targets) {
  // Aggregators tell same-node senders where their rows go in the window.
  const size_t nf = row_bytes_.size();
  auto on_my_node = [&](int rank) { return comm_.node_rank_of(rank) >= 0; };
  size_t n_replies = 0;
  for (size_t k = 0; k < incoming_.size(); ++k) {
    if (column_offset[k].empty()) continue;
    for (int32_t r : plan_.senders_of(incoming_[k].id)) n_replies += on_my_node(r) ? 1 : 0;
  }
  replies.resize(n_replies * nf);
  targets.assign(out.partitions.size() * nf, 0);
  Exchange ex(comm_);
  size_t next = 0;
  for (size_t k = 0; k < incoming_.size(); ++k) {
    if (column_offset[k].empty()) continue;
    const IncomingPartition& in = incoming_[k];
    const auto senders = plan_.senders_of(in.id);
    for (size_t i = 0; i < senders.size(); ++i) {
      if (!on_my_node(senders[i])) continue;
      uint64_t* r = replies.data() + next++ * nf;
      for (size_t f = 0; f < nf; ++f) r[f] = column_offset[k][f] + in.first_row[i] * row_bytes_[f];
      if (senders[i] == me_) std::copy(r, r + nf, targets.begin() + slot_of(out, in.id) * nf);
      else if (in.counts[i] > 0) ex.isend(r, nf * sizeof(uint64_t), senders[i], kTagOffsets);
    }
  }
  for (size_t s = 0; s < out.partitions.size(); ++s) {
    const int agg = plan_.aggregator[out.partitions[s]];
    if (agg != me_ && out.counts[s] > 0 && on_my_node(agg) && !plan_.aggregated_in_place(out.partitions[s]))
      ex.irecv(targets.data() + s * nf, nf * sizeof(uint64_t), agg, kTagOffsets);
  }
  ex.wait_all();
}

bool ParticleExchange::anything_moves() const {
  if (!comm_.is_mpi()) return false;   // serial: every partition is self-only
  for (uint32_t p = 0; p < plan_.num_partitions(); ++p)
    if (plan_.aggregator[p] >= 0 && !plan_.aggregated_in_place(p)) return true;
  return false;
}

void ParticleExchange::prepare(const Outgoing& out) {
  if (prepared_) return;
  prepared_ = true;
  const size_t nf = row_bytes_.size();
  const uint64_t region_bytes = lay_out_region(out, column_offset_);
  moves_ = anything_moves();   // the same answer on every rank (the plan is global)
  if (!moves_) return;         // nothing to move: no window and no messages
  const bool shared = method_ == ExchangeMethod::kSharedMemory;
  if (shared) {
    base_ = window_.reserve(comm_, region_bytes);   // collective over the node
    shared_ = true;
    write_directory(column_offset_);
  } else {
    base_ = region_.reserve(region_bytes);
  }
  for (size_t k = 0; k < incoming_.size(); ++k)
    if (!column_offset_[k].empty())
      for (size_t f = 0; f < nf; ++f) incoming_[k].columns[f] = base_ + column_offset_[k][f];
  if (shared) shared_offsets(out, column_offset_, replies_, targets_);
}

uint8_t* ParticleExchange::shared_target(const Outgoing& out, size_t slot, size_t f, uint64_t* bytes) const {
  const size_t nf = row_bytes_.size();
  const uint32_t p = out.partitions[slot];
  const int agg = plan_.aggregator[p];
  if (!shared_ || out.counts[slot] == 0 || plan_.aggregated_in_place(p) || comm_.node_rank_of(agg) < 0) return nullptr;
  uint64_t size = 0;
  uint8_t* dest = window_.part_of(comm_.node_rank_of(agg), &size);
  const uint64_t off = targets_[slot * nf + f];
  *bytes = out.counts[slot] * row_bytes_[f];
  if (off + *bytes > size)
    fail(ErrorCode::kInternal, "shared-memory target [", off, ", +", *bytes, ") outside the aggregator's ", size,
         "-byte window");
  return dest + off;
}

void ParticleExchange::exchange_particles(const Outgoing& out, size_t position_field,
                                          const std::function<void()>& positions_ready, bool defer_node_copies) {
  const size_t nf = row_bytes_.size();
  prepare(out);
  deferred_ = false;
  if (!moves_) {
    merge_stats(out, {});
    if (positions_ready) positions_ready();
    return;
  }
  const bool shared = shared_;
  uint8_t* const base = base_;
  const std::vector<std::vector<uint64_t>>& column_offset = column_offset_;
  auto on_my_node = [&](int rank) { return shared && comm_.node_rank_of(rank) >= 0; };

  // Receives: the position columns in their own batch, so the aggregator can start ordering
  // while the other columns still arrive.
  Exchange positions(comm_), rest(comm_);
  post_stats(out, rest, received_stats_);
  // Both sides list a (sender, aggregator) pair's columns in this order: MPI matches them in order.
  std::vector<size_t> field_order{position_field};
  for (size_t f = 0; f < nf; ++f)
    if (f != position_field) field_order.push_back(f);
  for (size_t k = 0; k < incoming_.size(); ++k) {
    if (column_offset[k].empty()) continue;
    const IncomingPartition& in = incoming_[k];
    const auto senders = plan_.senders_of(in.id);
    for (size_t f : field_order)
      for (size_t i = 0; i < senders.size(); ++i)
        if (in.counts[i] > 0 && !on_my_node(senders[i]))
          (f == position_field ? positions : rest)
              .irecv(base + column_offset[k][f] + in.first_row[i] * row_bytes_[f], in.counts[i] * row_bytes_[f],
                     senders[i], kTagData);
  }
  deferred_ = defer_node_copies && defers_node_copies(out);
  for (size_t s = 0; s < out.partitions.size(); ++s) {
    const uint32_t p = out.partitions[s];
    if (out.counts[s] == 0 || plan_.aggregated_in_place(p)) continue;
    const int agg = plan_.aggregator[p];
    if (on_my_node(agg)) {
      if (!deferred_) copy_to_node(out, s, nullptr);
    } else {   // the position column first: it is what the aggregator waits for first
      for (size_t f : field_order) rest.isend(out.rows[s * nf + f], out.counts[s] * row_bytes_[f], agg, kTagData);
    }
  }
  // A rank that receives polls without a break: it copies the bytes itself, a piece per poll
  // (measured: sleeping between polls made the exchange ten times slower). A rank that only sends
  // waits politely, leaving the core to the ranks and threads with work.
  const bool receives = !incoming_.empty();
  positions.wait_all(!receives);
  if (!shared && receives && positions_ready) positions_ready();
  rest.wait_all(!receives);
  if (shared && area_bytes_) {   // node-cooperative: each aggregator waits for its own senders only
    if (!deferred_) finish_node_exchange(out, positions_ready, {});
    return;
  }
  if (shared) {   // make the copies visible to the aggregators
    node_sync();
    if (receives && positions_ready) positions_ready();
  }
  merge_stats(out, received_stats_);
}

bool ParticleExchange::defers_node_copies(const Outgoing& out) const {
  if (!shared_ || !area_bytes_) return false;
  for (size_t s = 0; s < out.partitions.size(); ++s) {
    const uint32_t p = out.partitions[s];
    if (out.counts[s] == 0 || plan_.aggregated_in_place(p)) continue;
    const int agg = plan_.aggregator[p];
    if (comm_.node_rank_of(agg) < 0 || !shared_partition(agg, p).area || !out.stats[s].is_pending())
      return false;   // rows sent as a message, or statistics already computed in the call
  }
  return true;
}

void ParticleExchange::finish_node_exchange(const Outgoing& out, const std::function<void()>& positions_ready,
                                            const std::function<void(size_t)>& before_copy) {
  if (deferred_) {
    deferred_ = false;
    std::exception_ptr failure;   // the first; every slot still counts itself in
    for (size_t s = 0; s < out.partitions.size(); ++s) {
      if (out.counts[s] == 0 || plan_.aggregated_in_place(out.partitions[s])) continue;
      try {
        copy_to_node(out, s, failure ? nullptr : &before_copy);
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
    }
    if (failure) std::rethrow_exception(failure);
  }
  await_copies();
  merge_stats(out, received_stats_);
  if (!incoming_.empty() && positions_ready) positions_ready();
}

void ParticleExchange::copy_to_node(const Outgoing& out, size_t s, const std::function<void(size_t)>* before_copy) {
  const size_t nf = row_bytes_.size();
  const uint32_t p = out.partitions[s];
  const int agg = plan_.aggregator[p];
  uint8_t* area = area_bytes_ ? shared_partition(agg, p).area : nullptr;
  uint64_t* arrived = arrivals(area);
  try {
    if (before_copy && *before_copy) (*before_copy)(s);
    for (size_t f = 0; f < nf; ++f) {
      uint64_t bytes = 0;
      uint8_t* dest = shared_target(out, s, f, &bytes);
      if (dest != out.rows[s * nf + f]) std::memcpy(dest, out.rows[s * nf + f], bytes);   // else filled in place
    }
    if (area) {   // the statistics beside the rows, in this sender's slot
      if (out.stats[s].is_pending()) fail(ErrorCode::kInternal, "statistics of partition ", p, " not computed");
      const auto senders = plan_.senders_of(p);
      double* slot =
          stats_slot(area, static_cast<size_t>(std::find(senders.begin(), senders.end(), me_) - senders.begin()));
      std::copy(out.stats[s].min.begin(), out.stats[s].min.end(), slot);
      std::copy(out.stats[s].max.begin(), out.stats[s].max.end(), slot + comps_);
    }
  } catch (...) {
    if (arrived) shared_add(arrived, 1);   // the aggregator must not wait for it (this rank fails the step)
    throw;
  }
  if (arrived) shared_add(arrived, 1);   // releases the rows and the statistics
}

}   // namespace lodex
