// Fuzz target: the value-query parser — parse, bind against a small schema, print, and parse
// the printed text again (it must give the same text).
#include <string_view>

#include "core/schema.hpp"
#include "fuzz/fuzz_target.hpp"
#include "layout/query.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  using namespace lodex;
  static const Schema schema(
      {{"position", DType::kF4, 3}, {"energy", DType::kF8, 1}, {"id", DType::kI8, 1}, {"velocity", DType::kF8, 3}});
  QueryNode q = parse_query(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string text = query_text(q);
  if (query_text(parse_query(text)) != text) std::abort();
  bind_query(q, schema);
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
