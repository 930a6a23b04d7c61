#include "core/schema.hpp"

#include <cctype>
#include <set>

#include "core/error.hpp"

namespace lodex {

Schema::Schema(std::vector<FieldSpec> fields) : fields_(std::move(fields)) {
  if (fields_.empty()) fail(ErrorCode::kInvalidArgument, "schema has no fields");
  if (fields_.size() > kMaxFields)
    fail(ErrorCode::kInvalidArgument, "schema has ", fields_.size(), " fields; at most ", kMaxFields, " are supported");
  std::set<std::string> seen;
  bool found_position = false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const FieldSpec& f = fields_[i];
    if (f.name.empty() || f.name.size() > kMaxFieldNameBytes)
      fail(ErrorCode::kInvalidArgument, "field name '", f.name, "' must have 1 to ", kMaxFieldNameBytes, " bytes");
    for (char c : f.name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
        fail(ErrorCode::kInvalidArgument, "field name '", f.name, "' may hold only letters, digits and '_'");
    if (!seen.insert(f.name).second)
      fail(ErrorCode::kInvalidArgument, "field '", f.name, "' appears twice in the schema");
    if (f.components < 1 || f.components > kMaxComponents)
      fail(ErrorCode::kInvalidArgument, "field '", f.name, "' has ", f.components, " components; expected 1 to ",
           kMaxComponents);
    if (f.name == kPositionField) {
      if (f.components != 3 || !dtype_is_float(f.dtype))
        fail(ErrorCode::kInvalidArgument, "field 'position' must be f4 or f8 with 3 components, found ",
             dtype_name(f.dtype), " with ", f.components);
      found_position = true;
      position_index_ = i;
    }
  }
  if (!found_position) fail(ErrorCode::kInvalidArgument, "schema needs a field 'position' (f4 or f8, 3 components)");
}

size_t Schema::index_of(const std::string& name) const {
  for (size_t i = 0; i < fields_.size(); ++i)
    if (fields_[i].name == name) return i;
  fail(ErrorCode::kNotFound, "no field '", name, "' in schema {", describe(), "}");
}

bool Schema::has(const std::string& name) const {
  for (const auto& f : fields_)
    if (f.name == name) return true;
  return false;
}

size_t Schema::row_bytes() const {
  size_t n = 0;
  for (const auto& f : fields_) n += f.row_bytes();
  return n;
}

std::string Schema::describe() const {
  std::string s;
  for (const auto& f : fields_) {
    if (!s.empty()) s += ", ";
    s += f.name + ":" + dtype_name(f.dtype);
    if (f.components != 1) s += "x" + std::to_string(f.components);
  }
  return s;
}

}  // namespace lodex
