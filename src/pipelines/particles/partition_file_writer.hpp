// One aggregator's work for one partition (paper §3.4-3.5): level-of-detail reorder of the
// received columns, the data file written with its segment checksums, and the partition's
// metadata record (bounds, count, per-component min/max).
#pragma once

#include <string>

#include "core/schema.hpp"
#include "core/scratch_buffer.hpp"
#include "format/spatial_metadata.hpp"
#include "layout/lod_order.hpp"
#include "pipelines/particles/particle_exchange.hpp"

namespace lodex {

struct PartitionFileTimes {
  double reorder_s = 0, describe_s = 0;   // reorder and describe (bounds, record) phases
};

// Writes `directory`/p<id>.lpd and returns its record. `lod.seed` is this file's seed; the file
// is assembled in `buffer`.
DataFileRecord write_partition_file(const IncomingPartition& in, const Schema& schema, const Box& partition_box,
                                    const LodParams& lod, int aggregator_rank, const std::string& directory,
                                    bool fsync, ScratchBuffer& buffer, PartitionFileTimes& times);

}  // namespace lodex
