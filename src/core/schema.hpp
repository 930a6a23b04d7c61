// A particle schema: named fields, each a dtype and a component count. One field, named
// "position", holds the 3 coordinates as f4 or f8; the aggregation and every spatial read use it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/dtype.hpp"

namespace lodex {

struct FieldSpec {
  std::string name;
  DType dtype = DType::kF8;
  uint32_t components = 1;

  size_t row_bytes() const { return dtype_size(dtype) * components; }
  bool operator==(const FieldSpec&) const = default;
};

inline constexpr const char* kPositionField = "position";
inline constexpr size_t kMaxFieldNameBytes = 31;   // fits the 32-byte name slot on disk
inline constexpr uint32_t kMaxComponents = 4096;
inline constexpr size_t kMaxFields = 1024;

class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<FieldSpec> fields);   // validates; throws InvalidArgument

  const std::vector<FieldSpec>& fields() const { return fields_; }
  size_t size() const { return fields_.size(); }
  const FieldSpec& field(size_t i) const { return fields_[i]; }
  size_t position_index() const { return position_index_; }
  // Index of the named field, or throws NotFound listing the schema's fields.
  size_t index_of(const std::string& name) const;
  bool has(const std::string& name) const;
  size_t row_bytes() const;   // bytes of one particle over all fields
  std::string describe() const;   // "position:f8x3, energy:f4"
  bool operator==(const Schema& o) const { return fields_ == o.fields_; }

 private:
  std::vector<FieldSpec> fields_;
  size_t position_index_ = 0;
};

}  // namespace lodex
