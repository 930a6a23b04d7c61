// Reading IDX grids (OpenVisus's format, docs/grids.md): a box of one field at one time step,
// at a resolution level (the strided samples of IDX, as OpenVisus's read(max_resolution=r)
// returns them), by one process or by the ranks of a communicator, each reading its slab
// (layout/grid_read_plan.hpp). Everything that fails throws lodex::Error; a block the query needs
// that is missing or damaged is an error naming the file and the block, never zeros.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/heap_bytes.hpp"
#include "format/idx.hpp"
#include "layout/grid_read_plan.hpp"
#include "storage/confinement.hpp"

namespace lodex {

class FileCache;
class HzIndex;
struct LatticeOut;

// Samples of a read: shape[0..2] = counts along x, y, z; the bytes are row-major (z, y, x, c).
struct GridArray {
  DType dtype = DType::kF4;
  uint32_t components = 1;
  std::array<uint64_t, 3> shape{0, 0, 0};
  HeapBytes bytes;
};

struct IdxReadStats {
  uint64_t files_opened = 0, blocks_read = 0, bytes_read = 0, bytes_returned = 0;
};

class IdxDataset {
 public:
  // Reads and validates `idx_path` (the .idx text header). Relative file templates start at the
  // .idx file's directory (the linked file's, for a link); block files are opened only in that
  // directory's tree, links resolved, unless allow_outside (storage/confinement.hpp).
  static IdxDataset open(const std::string& idx_path, bool allow_outside = false);
  // The same with the files confined as `confinement` says (a grid of a lodex dataset: the dataset).
  static IdxDataset open(const std::string& idx_path, const Confinement& confinement);

  const std::string& path() const { return path_; }
  const IdxHeader& header() const { return header_; }
  int max_resolution() const;   // maxh of the bitmask
  // Reads verify every block against the step's checksum file when there is one (lodex writes
  // one for every step); once required, a step without it is a FormatError (the grids of a
  // lodex dataset whose manifest records them).
  void require_block_checksums(bool required) { sums_required_ = required; }

  // The part rank `rank` of `size` reads of `field` at `time` over `box` ([min, max) in logic
  // coordinates, inside the logic box; none: all of it) at `resolution` (0..max_resolution;
  // none: full): the whole box when size == 1, else its slab (plan_grid_read). Validates time
  // (NotFound), field, resolution and box. Local, no MPI.
  GridReadPart read_part(const std::string& field, int64_t time, const std::optional<GridBox>& box,
                         std::optional<int> resolution, int rank = 0, int size = 1) const;
  // Serial: the samples of the whole box, row-major (z, y, x, components); a box without extent
  // on some axis gives an empty array.
  GridArray read(const std::string& field, int64_t time,
                 const std::optional<std::array<std::array<int64_t, 3>, 2>>& box, std::optional<int> resolution,
                 IdxReadStats* stats = nullptr) const;
  // comm == MPI_COMM_NULL: as above. Otherwise collective over comm: the samples of this rank's
  // read_part(..., rank, size) (an empty part: a zero-size array, stats zero); an error on any
  // rank is raised on every rank. `input_error`: a language binding could not convert this rank's
  // arguments; the rank still takes part, and every rank raises that error.
  GridArray read(const std::string& field, int64_t time, const std::optional<GridBox>& box,
                 std::optional<int> resolution, MPI_Comm comm, IdxReadStats* stats = nullptr,
                 const std::optional<Error>& input_error = std::nullopt) const;

 private:
  // `dir`: where relative file templates start.
  static IdxDataset open(const std::string& idx_path, const std::string& dir, const Confinement& confinement);
  GridReadSpace read_space() const;
  GridArray read_samples(const GridReadPart& part, const std::string& field, int64_t time, IdxReadStats* stats) const;
  // A block the query needs, its file and table entry (present: checked).
  struct LocatedBlock {
    std::string path;
    uint64_t block = 0;
    IdxBlockEntry entry;
  };
  // The table entries of `blocks` (ascending) of field fi; FormatError for a missing file or block.
  std::vector<LocatedBlock> locate_blocks(const std::vector<uint64_t>& blocks, size_t fi, const std::string& time_dir,
                                          FileCache& files, IdxReadStats& st) const;
  // The checksums of `located`'s blocks from the step's checksum file (empty: no file, nothing to
  // verify against); the file's header checked against this dataset's layout.
  std::vector<uint64_t> load_sums(const std::vector<LocatedBlock>& located, size_t fi, int64_t time,
                                  const std::string& time_dir, FileCache& files, IdxReadStats& st) const;
  void decode_blocks(const std::vector<LocatedBlock>& located, const std::vector<uint64_t>& sums, size_t fi, int r,
                     FileCache& files, LatticeOut& lattice, IdxReadStats& st) const;

  std::string path_, dir_;
  Confinement confinement_;
  IdxHeader header_;
  std::shared_ptr<const HzIndex> index_;   // of header_.bits
  bool sums_required_ = false;
};

}  // namespace lodex

namespace lodex {

// The largest answer a grid read may return, in bytes: the environment's LODEX_MAX_READ_BYTES when
// set, else this machine's memory. An answer of `shape` samples of `sample_bytes` beyond it is an
// InvalidArgument naming `what`, raised before anything is allocated or opened.
uint64_t read_limit_bytes();
void require_read_within_limit(const std::array<uint64_t, 3>& shape, size_t sample_bytes, const std::string& what);

// One field of a serial IDX write: `data` holds the whole grid, row-major (z, y, x, c).
struct IdxFieldData {
  IdxField field;
  const void* data = nullptr;
};

struct IdxWriteOptions {
  std::string bitmask;             // empty: OpenVisus's default for the dims
  int bits_per_block = 16;         // clamped to the bitmask's length, as OpenVisus does
  int64_t blocks_per_file = -1;    // -1: every block in one file
  bool zip = false;                // zlib blocks (what OpenVisus's compressDataset(["zip"]) writes)
  std::optional<IdxTime> time;     // with `step`: the time directories of a time series
  int64_t step = 0;
};

// Writes the `.idx` header and the binary files of one time step of a grid of `dims` (x first,
// `ndims` axes) in OpenVisus's layout: blocks in hz order, only blocks holding samples of the
// grid, samples outside it zero. For the same data and parameters the files are byte-identical
// to OpenVisus's, and beside them the step's block checksums (format/idx_sums.hpp), which
// OpenVisus does not open. Serial; returns the bytes written.
uint64_t write_idx(const std::string& idx_path, const std::array<uint64_t, 3>& dims, int ndims,
                   const std::vector<IdxFieldData>& fields, const IdxWriteOptions& options);

}  // namespace lodex
