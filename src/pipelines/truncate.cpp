// Truncates (restarts from a checkpoint): every committed step after `after` of some groups goes,
// on the collective skeleton (pipelines/collective.hpp):
//   check, agree  the dataset is open to append, the plan (format/truncation.hpp: pure, the same
//                 on every rank, so are its errors); one allgather of every rank's `after` and
//                 groups, which must be the same
//   commit        rank 0 writes the manifest without the removed steps (the atomic replace every
//                 commit uses): before it the old state stands, after it the new one
//   clean         rank 0 rewrites the grids' .idx time ranges, then removes the removed steps'
//                 folders and files (data, spatial metadata, bitmap indexes, IDX blocks and
//                 checksums, window files) and leftovers of steps after `after`; every rank gets
//                 its verdict. A writer killed here leaves files no manifest lists: the next
//                 write of such a step removes them first, and a truncate run again removes them.
#include "core/checksum.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/grids/grid_group.hpp"
#include "pipelines/series/series_group.hpp"

namespace lodex {

namespace {

enum Phase { kCheck, kAgree, kCommit };

// Every rank's arguments, agreed on before anything changes.
struct TruncateRecord {
  int64_t after;
  uint64_t groups;   // checksum of the group names
};

uint64_t names_checksum(const std::vector<std::string>& names) {
  std::string all;
  for (const auto& n : names) all += n + '\n';
  return checksum64(all.data(), all.size());
}

// ---- check ----
Truncation check(const DatasetState& st, const std::vector<std::string>& names, int64_t after) {
  st.require_open();
  if (!st.writable)
    fail(ErrorCode::kInvalidArgument, "dataset '", st.path,
         "' is open for reading; open it with mode=\"a\" to truncate it");
  return plan_truncation(st.manifest, names, after);
}

void require_same(const std::vector<TruncateRecord>& all) {
  for (size_t r = 1; r < all.size(); ++r) {
    if (all[r].after != all[0].after)
      fail(ErrorCode::kInvalidArgument,
           "ranks disagree on the step a truncate keeps: rank 0 gives after=", all[0].after, ", rank ", r,
           " after=", all[r].after, "; nothing was removed");
    if (all[r].groups != all[0].groups)
      fail(ErrorCode::kInvalidArgument, "ranks truncate different groups (rank 0 and rank ", r,
           "); nothing was removed");
  }
}

// ---- commit (rank 0) ----
void commit(DatasetState& st, const Truncation& t) {
  if (t.removed_steps() == 0) return;   // nothing listed goes: the manifest stays as it is
  const Manifest before = st.manifest;
  apply_truncation(st.manifest, t);
  try {
    st.write_manifest();
  } catch (...) {
    st.manifest = before;
    throw;
  }
}

// ---- clean (rank 0, after the commit) ----
void remove_files(const DatasetState& st, const Truncation& t) {
  for (const GroupTruncation& g : t.groups) {
    const std::string dir = join_path(st.path, g.name);
    if (st.manifest.find_particles(g.name)) {
      remove_steps_after(dir, "step-", "", t.after);   // step_directory_name: data, metadata, indexes
    } else if (const GridMeta* grid = st.manifest.find_grid(g.name)) {
      truncate_grid_files(*grid, st.path, t.after, st.options.fsync);
    } else {   // window_file_name; the temporary of a window never committed too
      remove_steps_after(dir, "w-", ".lsw", t.after);
      remove_steps_after(dir, "w-", ".lsw.tmp", t.after);
    }
  }
}

}  // namespace

Truncation truncate_groups(DatasetState& st, const std::vector<std::string>& names, int64_t after,
                           const std::optional<Error>& input_error) {
  CollectiveOp op(st.comm, {"check", "agree", "commit"});
  Truncation plan;
  const std::vector<TruncateRecord> all = op.agree<TruncateRecord>(input_error, [&] {
    plan = check(st, names, after);
    op.times().lap(kCheck);
    return TruncateRecord{after, names_checksum(names)};
  });
  op.times().lap(kAgree);
  require_same(all);   // the same error on every rank
  op.finish(
      {},
      [&](std::span<const RankOutcome>) {
        commit(st, plan);
        return std::vector<uint8_t>{};
      },
      nullptr);
  if (st.comm.rank() != 0) apply_truncation(st.manifest, plan);
  // Committed on every rank from here; a failure to remove the files is raised on every rank.
  st.comm.agree([&] {
    if (st.comm.rank() != 0) return;
    try {
      remove_files(st, plan);
    } catch (const Error& e) {
      fail(e.code(), "the truncate is committed (no step after ", after, " is listed any more), but removing ",
           "their files failed: ", e.what(), "; truncate again to remove them");
    }
  });
  return plan;
}

Truncation ParticleGroup::truncate(int64_t after, const std::optional<Error>& input_error) {
  wait_pending();   // a step in flight commits first: it may be one the truncate removes
  return truncate_groups(*ds_, {name_}, after, input_error);
}

Truncation GridGroup::truncate(int64_t after, const std::optional<Error>& input_error) {
  wait_pending();   // a step in flight commits first: it may be one the truncate removes
  return truncate_groups(*ds_, {name_}, after, input_error);
}

Truncation SeriesGroup::truncate(int64_t after, const std::optional<Error>& input_error) {
  wait_pending();   // a window in flight commits first: it may be one the truncate removes
  Truncation t = truncate_groups(*ds_, {name_}, after, input_error);
  forget_after(after);
  return t;
}

Truncation Dataset::truncate(int64_t after, const std::optional<Error>& input_error) {
  state_->require_open();
  complete_pending();
  std::vector<std::string> names = particle_group_names();
  for (const auto& n : grid_names()) names.push_back(n);
  for (const auto& n : series_names()) names.push_back(n);
  Truncation t = truncate_groups(*state_, names, after, input_error);
  for (auto& s : series_) s->forget_after(after);
  return t;
}

}  // namespace lodex
