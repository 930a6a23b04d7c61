#include "pipelines/particles/particle_exchange.hpp"

#include <algorithm>
#include <cstring>

#include "core/bytes.hpp"
#include "format/particle_file.hpp"

namespace lodex {

namespace {
constexpr int kTagCounts = 7101;
constexpr int kTagData = 7102;
constexpr int kTagOffsets = 7103;
}  // namespace

ParticleExchange::ParticleExchange(const Comm& comm, const ParticlePlan& plan, std::vector<size_t> row_bytes,
                                   ExchangeMethod method, ScratchBuffer& region)
    : comm_(comm),
      plan_(plan),
      row_bytes_(std::move(row_bytes)),
      method_(method),
      me_(comm.rank()),
      region_(region) {
  for (uint32_t p : plan.partitions_of_aggregator(me_)) {
    IncomingPartition in;
    in.id = p;
    in.counts.assign(plan.senders_of(p).size(), 0);
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
  if (window_ != MPI_WIN_NULL && mpi_active()) {
    // MPI_Win_free blocks by spinning; wait for the node's aggregators politely first so the
    // waiting ranks leave the CPU to the ones still writing.
    comm_.node_barrier();
    check_mpi(MPI_Win_free(&window_), "MPI_Win_free");
  }
  window_ = MPI_WIN_NULL;
  for (auto& in : incoming_) in.columns.clear();
}

size_t ParticleExchange::slot_of(const Outgoing& out, uint32_t partition) const {
  const auto it = std::lower_bound(out.partitions.begin(), out.partitions.end(), partition);
  if (it == out.partitions.end() || *it != partition)
    fail(ErrorCode::kInternal, "partition ", partition, " is not among this rank's destinations");
  return static_cast<size_t>(it - out.partitions.begin());
}

void ParticleExchange::exchange_counts(const Outgoing& out) {
  if (!comm_.is_mpi()) {   // serial: this rank is the only sender of every partition it owns
    for (auto& in : incoming_) in.counts[0] = out.counts[slot_of(out, in.id)];
  } else {
    Exchange ex(comm_);
    for (auto& in : incoming_) {
      const auto senders = plan_.senders_of(in.id);
      for (size_t i = 0; i < senders.size(); ++i) ex.irecv(&in.counts[i], sizeof(uint64_t), senders[i], kTagCounts);
    }
    for (size_t s = 0; s < out.partitions.size(); ++s)
      ex.isend(&out.counts[s], sizeof(uint64_t), plan_.aggregator[out.partitions[s]], kTagCounts);
    ex.wait_all();
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

void ParticleExchange::exchange_particles(const Outgoing& out) {
  const size_t nf = row_bytes_.size();
  // Receive region layout: per exchanged partition, per field, a 64-byte aligned column.
  std::vector<std::vector<uint64_t>> column_offset(incoming_.size());
  uint64_t region_bytes = 0;
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
  }
  if (!comm_.is_mpi()) return;   // serial: every partition is self-only
  // Same answer on every rank (the plan is global): nothing to move, so no window and no messages.
  bool anything_moves = false;
  for (uint32_t p = 0; p < plan_.num_partitions() && !anything_moves; ++p)
    anything_moves = plan_.aggregator[p] >= 0 && !plan_.aggregated_in_place(p);
  if (!anything_moves) return;

  const bool shared = method_ == ExchangeMethod::kSharedMemory;
  uint8_t* base = nullptr;
  if (shared) {
    MPI_Info info;
    check_mpi(MPI_Info_create(&info), "MPI_Info_create");
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    const int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(region_bytes), 1, info, comm_.node_raw(), &base, &window_);
    MPI_Info_free(&info);
    check_mpi(rc, "MPI_Win_allocate_shared");
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
  } else {
    base = region_.reserve(region_bytes);
  }
  for (size_t k = 0; k < incoming_.size(); ++k)
    if (!column_offset[k].empty())
      for (size_t f = 0; f < nf; ++f) incoming_[k].columns[f] = base + column_offset[k][f];
  auto on_my_node = [&](int rank) { return shared && comm_.node_rank_of(rank) >= 0; };

  // Stage 1 (shared memory only): aggregators tell same-node senders where their rows go.
  std::vector<uint64_t> replies;     // aggregator side: nf offsets per (partition, sender)
  std::vector<uint64_t> targets;     // sender side: nf offsets per destination slot
  if (shared) {
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
        if (senders[i] == me_)
          std::copy(r, r + nf, targets.begin() + slot_of(out, in.id) * nf);
        else if (in.counts[i] > 0)
          ex.isend(r, nf * sizeof(uint64_t), senders[i], kTagOffsets);
      }
    }
    for (size_t s = 0; s < out.partitions.size(); ++s) {
      const int agg = plan_.aggregator[out.partitions[s]];
      if (agg != me_ && out.counts[s] > 0 && on_my_node(agg) && !plan_.aggregated_in_place(out.partitions[s]))
        ex.irecv(targets.data() + s * nf, nf * sizeof(uint64_t), agg, kTagOffsets);
    }
    ex.wait_all();
  }

  // Stage 2: same-node senders copy into the window; everyone else goes point to point.
  Exchange ex(comm_);
  for (size_t k = 0; k < incoming_.size(); ++k) {
    if (column_offset[k].empty()) continue;
    const IncomingPartition& in = incoming_[k];
    const auto senders = plan_.senders_of(in.id);
    for (size_t i = 0; i < senders.size(); ++i)
      if (in.counts[i] > 0 && !on_my_node(senders[i]))
        for (size_t f = 0; f < nf; ++f)
          ex.irecv(base + column_offset[k][f] + in.first_row[i] * row_bytes_[f], in.counts[i] * row_bytes_[f],
                   senders[i], kTagData);
  }
  for (size_t s = 0; s < out.partitions.size(); ++s) {
    const uint32_t p = out.partitions[s];
    if (out.counts[s] == 0 || plan_.aggregated_in_place(p)) continue;
    const int agg = plan_.aggregator[p];
    if (on_my_node(agg)) {
      MPI_Aint size = 0;
      int disp = 0;
      uint8_t* dest = nullptr;
      check_mpi(MPI_Win_shared_query(window_, comm_.node_rank_of(agg), &size, &disp, &dest),
                "MPI_Win_shared_query");
      for (size_t f = 0; f < nf; ++f) {
        const uint64_t off = targets[s * nf + f], bytes = out.counts[s] * row_bytes_[f];
        if (off + bytes > static_cast<uint64_t>(size))
          fail(ErrorCode::kInternal, "shared-memory target [", off, ", +", bytes, ") outside the aggregator's ",
               size, "-byte window");
        std::memcpy(dest + off, out.rows[s * nf + f], bytes);
      }
    } else {
      for (size_t f = 0; f < nf; ++f)
        ex.isend(out.rows[s * nf + f], out.counts[s] * row_bytes_[f], agg, kTagData);
    }
  }
  ex.wait_all();
  if (shared) {   // make the copies visible to the aggregators
    check_mpi(MPI_Win_sync(window_), "MPI_Win_sync");
    comm_.node_barrier();
    check_mpi(MPI_Win_sync(window_), "MPI_Win_sync");
    check_mpi(MPI_Win_unlock_all(window_), "MPI_Win_unlock_all");
  }
}

}  // namespace lodex
