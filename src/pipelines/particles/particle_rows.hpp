// Row access to one particle data file for value queries and index builds: open a file and verify
// its head against its spatial-metadata record, and fetch the values of chosen rows of a field,
// reading the segments that hold them whole so each is verified against its checksum (a row
// is never returned from bytes that were not checked). Internal to the pipelines layer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/box.hpp"
#include "core/schema.hpp"
#include "format/particle_file.hpp"
#include "format/spatial_metadata.hpp"
#include "storage/confinement.hpp"
#include "storage/file.hpp"

namespace lodex {

struct IoCount {
  uint64_t requests = 0, bytes = 0;
};

struct DataFile {
  File file;
  std::string path;
  ParticleFileHead head;
  uint64_t head_bytes = 0;
};

// Opens `dir`/rec.file_name and reads its head: the size, the head checksum, the count and the
// schema must agree with the metadata record (FormatError naming the file otherwise).
DataFile open_data_file(const Confinement& confinement, const std::string& dir, const DataFileRecord& rec,
                        const Schema& schema, IoCount& io);

// Checks segment s of field f (bytes: its rows of that field) against the head's checksum;
// FormatError naming the file, field, rows and byte offset otherwise.
void verify_segment(const std::string& path, const ParticleFileHead& h, size_t f, uint64_t s, const uint8_t* bytes);

// Whether the position stored at `row` (3 values of `dtype`, f4 or f8) lies in `box`
// (inclusive min, exclusive max, compared as doubles: the rule of every box read).
bool position_in_box(const uint8_t* row, DType dtype, const Box& box);

// Field f's values of the ascending rows `rows[0..n)` into out (n × row bytes). Segments holding
// wanted rows are read whole (neighbours less than 64 KiB apart in one request) and verified.
void gather_rows(const DataFile& df, size_t f, const uint32_t* rows, size_t n, uint8_t* out, IoCount& io);
// Field f's whole column (N × row bytes), every segment verified.
void read_column(const DataFile& df, size_t f, uint8_t* out, IoCount& io);

}  // namespace lodex
