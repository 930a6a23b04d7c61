// What the dataset and every kind of group share: views of the caller's fields, columns of a
// read's result, the profile of a collective write and the dataset's options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/heap_bytes.hpp"
#include "core/schema.hpp"

namespace lodex {

// A view of the caller's values for one field: `rows` rows of `components` values, row-major.
struct FieldView {
  std::string name;
  DType dtype = DType::kF8;
  uint32_t components = 1;
  uint64_t rows = 0;
  const void* data = nullptr;
};

// Per-phase timings of one collective write, reduced over ranks.
struct PhaseTiming {
  std::string name;
  double min_s = 0, mean_s = 0, max_s = 0;
};
// The path a particle step took (WriteProfile::path): "node", "p2p" or "shm".
enum class WritePath { kNode, kPointToPoint, kSharedMemory };
const char* write_path_name(WritePath path);

struct WriteProfile {
  int64_t step = -1;
  int ranks = 0;
  uint32_t aggregators = 0;
  uint32_t files = 0;
  uint64_t particles = 0;
  uint64_t bytes = 0;            // bytes written: data files + spatial metadata
  bool aligned = true;
  bool plan_reused = false;      // the last step's plan, the decomposition unchanged
  bool fsync = false;
  WritePath path = WritePath::kPointToPoint;   // how the particles reached the files
  double total_s = 0;            // slowest rank, end to end
  double blocked_s = 0;          // the time the step's calls held the caller, slowest rank: total_s
                                 // for write; write_async plus the wait for its files otherwise
  std::vector<PhaseTiming> phases;   // check, agree, plan, exchange, reorder, file_write, commit
  std::vector<PhaseTiming> threads;  // busy time of helper threads: order (overlapping the exchange), writer
  std::string to_json() const;
};

// One field of a read result: rows x components values of `dtype`, row-major.
struct FieldColumn {
  FieldSpec spec;
  uint64_t rows = 0;
  HeapBytes bytes;
};

// How particles reach the file. kNode (default): the ranks of a partition on its aggregator's node
// copy their rows into an MPI-3 shared-memory window and write its file together, each a slice
// (pipelines/particles/node_file_write.hpp); ranks on other nodes send point to point; where no
// partition has two writers on a node, as kPointToPoint. kPointToPoint: non-blocking sends to one
// aggregator per partition, which writes the file alone (the paper's scheme). kSharedMemory: the
// same one writer, same-node senders copying into its shared window. Measured in
// bench/particle_write.py.
enum class ExchangeMethod { kNode, kPointToPoint, kSharedMemory };

struct DatasetOptions {
  bool fsync = false;   // fsync every data file before the step commits
  ExchangeMethod exchange = ExchangeMethod::kNode;
  // Reads open only files whose real location (symbolic links resolved) is under the dataset's
  // directory; true also follows links that lead out of it (storage/confinement.hpp).
  bool allow_outside = false;
  // The bytes of asynchronous steps in flight, on each rank over every group of the dataset
  // (pipelines/pending_budget.hpp); none: one step in flight per group, no bound over the groups.
  std::optional<uint64_t> max_pending_bytes;
};

}  // namespace lodex
