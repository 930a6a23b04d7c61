// Fuzz target: a step's spatial metadata (.lsm), decoded whole (its checksum included), then
// every record's fields walked as a reader choosing files does.
#include "format/spatial_metadata.hpp"
#include "fuzz/fuzz_target.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  const SpatialMetadata m = decode_spatial_metadata(data, size, "fuzz.lsm");
  uint64_t sum = m.total_particles();
  for (const DataFileRecord& r : m.files) {
    if (r.min.size() != m.num_components || r.max.size() != m.num_components) std::abort();
    sum += r.file_name.size() + r.count;
    // The single-record codec the writers gather with must round-trip what was decoded.
    std::vector<uint8_t> rec;
    encode_data_file_record(r, m.num_components, rec);
    const DataFileRecord back = decode_data_file_record(rec.data(), rec.size(), m.num_components, "fuzz record");
    if (back.file_name != r.file_name || back.count != r.count) std::abort();
  }
  (void)sum;
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
