#include "pipelines/particles/particle_input.hpp"

#include <cstring>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "layout/lod_order.hpp"

namespace lodex {
namespace {

// "x", "y", "z" (fields of at most 3 components) or a decimal index: the component a suffix names.
std::optional<uint32_t> component_of(const std::string& suffix, uint32_t components) {
  if (suffix.size() == 1 && suffix[0] >= 'x' && suffix[0] <= 'z' && components <= 3) {
    const uint32_t c = static_cast<uint32_t>(suffix[0] - 'x');
    if (c < components) return c;
    return std::nullopt;
  }
  if (suffix.empty() || suffix.size() > 4 || suffix.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  if (suffix.size() > 1 && suffix[0] == '0') return std::nullopt;
  const uint32_t c = static_cast<uint32_t>(std::stoul(suffix));
  if (c < components) return c;
  return std::nullopt;
}

std::string component_names(uint32_t components) {
  return components <= 3 ? (components == 2 ? "x, y (or 0, 1)" : "x, y, z (or 0, 1, 2)") : cat("0 to ", components - 1);
}

// The schema field a view gives, and its component when given per component.
struct Placement {
  size_t field;
  std::optional<uint32_t> component;
};

Placement place(const Schema& schema, const FieldView& v) {
  if (schema.has(v.name)) return {schema.index_of(v.name), std::nullopt};
  const size_t slash = v.name.rfind('/');
  const std::string base = slash == std::string::npos ? v.name : v.name.substr(0, slash);
  if (slash == std::string::npos || !schema.has(base))
    fail(ErrorCode::kInvalidArgument, "unknown field '", v.name, "'; the schema is {", schema.describe(), "}");
  const size_t f = schema.index_of(base);
  const FieldSpec& spec = schema.field(f);
  if (spec.components == 1)
    fail(ErrorCode::kInvalidArgument, "field '", v.name, "': '", base, "' has one component; give it whole");
  const auto c = component_of(v.name.substr(slash + 1), spec.components);
  if (!c)
    fail(ErrorCode::kInvalidArgument, "field '", v.name, "': '", base, "' has ", spec.components, " components, named ",
         component_names(spec.components));
  return {f, c};
}

void check_view(const FieldSpec& spec, const FieldView& v, uint32_t components) {
  if (v.dtype != spec.dtype)
    fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has dtype ", dtype_name(v.dtype), "; the schema says ",
         dtype_name(spec.dtype));
  if (v.components != components)
    fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has ", v.components, " components per particle; ",
         components == 1 && spec.components > 1 ? "one component of '" + spec.name + "' has 1"
                                                : cat("the schema says ", spec.components));
  if (v.rows && !v.data) fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has no data");
}

}  // namespace

StepInput step_input(const Schema& schema, std::span<const FieldView> views) {
  const size_t nf = schema.size();
  std::vector<const FieldView*> whole(nf, nullptr);
  std::vector<std::vector<const FieldView*>> parts(nf);
  for (const FieldView& v : views) {
    const Placement at = place(schema, v);
    const FieldSpec& spec = schema.field(at.field);
    check_view(spec, v, at.component ? 1 : spec.components);
    if (at.component) {
      auto& ps = parts[at.field];
      if (ps.empty()) ps.assign(spec.components, nullptr);
      if (ps[*at.component])
        fail(ErrorCode::kInvalidArgument, "component ", *at.component, " of field '", spec.name, "' is given twice ('",
             ps[*at.component]->name, "' and '", v.name, "')");
      ps[*at.component] = &v;
    } else {
      if (whole[at.field]) fail(ErrorCode::kInvalidArgument, "field '", v.name, "' is given twice");
      whole[at.field] = &v;
    }
  }
  StepInput in;
  in.columns.resize(nf);
  const FieldView* first = nullptr;   // the length every other field must have
  auto rows_of = [&](const FieldView& v) {
    if (!first) first = &v;
    else if (v.rows != first->rows)
      fail(ErrorCode::kInvalidArgument, "fields have different lengths: '", first->name, "' has ", first->rows,
           " rows, '", v.name, "' has ", v.rows);
  };
  for (size_t f = 0; f < nf; ++f) {
    const FieldSpec& spec = schema.field(f);
    if (whole[f] && !parts[f].empty())
      fail(ErrorCode::kInvalidArgument, "field '", spec.name, "' is given both whole and per component");
    if (whole[f]) {
      rows_of(*whole[f]);
      in.columns[f].rows = whole[f]->data;
      continue;
    }
    if (parts[f].empty())
      fail(ErrorCode::kInvalidArgument, "missing field '", spec.name, "'; the schema is {", schema.describe(), "}");
    for (uint32_t c = 0; c < spec.components; ++c) {
      if (!parts[f][c])
        fail(ErrorCode::kInvalidArgument, "field '", spec.name, "' is given per component without component ", c, " (",
             spec.name, "/", spec.components <= 3 ? std::string(1, static_cast<char>('x' + c)) : std::to_string(c),
             ")");
      rows_of(*parts[f][c]);
      in.columns[f].parts.push_back(parts[f][c]->data);
    }
  }
  in.n = first ? first->rows : 0;
  if (in.n > UINT32_MAX) fail(ErrorCode::kUnsupported, in.n, " particles on one rank; at most 2^32-1 per call");
  return in;
}

void gather_input(const StepInput& in, const Schema& schema, size_t f, const uint32_t* perm, uint64_t n, void* out) {
  const InputColumn& c = in.columns[f];
  const FieldSpec& spec = schema.field(f);
  if (c.per_component()) {
    gather_components(c.parts, dtype_size(spec.dtype), perm, n, out);
  } else if (perm) {
    gather_rows(c.rows, out, spec.row_bytes(), perm, n);
  } else if (n) {
    std::memcpy(out, c.rows, n * spec.row_bytes());
  }
}

}  // namespace lodex
