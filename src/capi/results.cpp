// C API: the columns a particle read or a query returns (lodex_columns).
#include "capi/results.hpp"

#include <cstring>

using namespace lodex;
using namespace lodex::capi;

namespace lodex::capi {

lodex_columns* new_columns(std::vector<FieldColumn> cols) {
  auto h = std::make_unique<lodex_columns>();
  h->columns = std::move(cols);
  lodex_columns* token = register_handle(h.get(), Kind::kColumns);
  h.release();
  return token;
}

}  // namespace lodex::capi

namespace {

void column_of(const FieldColumn& c, lodex_column* out) {
  *out =
      lodex_column{c.spec.name.c_str(), static_cast<int32_t>(c.spec.dtype), c.spec.components, c.rows, c.bytes.data(),
                   c.bytes.size()};
}

const FieldColumn& find_column(const lodex_columns* c, const char* name) {
  const std::string n = text(name, "name");
  for (const FieldColumn& col : c->columns)
    if (col.spec.name == n) return col;
  std::string have;
  for (const FieldColumn& col : c->columns) have += (have.empty() ? "" : ", ") + col.spec.name;
  fail(ErrorCode::kNotFound, "no column '", n, "' in this result (columns: ", have.empty() ? "none" : have, ")");
}

}  // namespace

extern "C" {

int lodex_columns_count(const lodex_columns* c, size_t* count) {
  return guarded([&] { not_null(count, "count") = live(c, Kind::kColumns, "columns")->columns.size(); });
}

int lodex_columns_get(const lodex_columns* c, size_t index, lodex_column* out) {
  return guarded([&] {
    c = live(c, Kind::kColumns, "columns");
    if (index >= c->columns.size())
      fail(ErrorCode::kInvalidArgument, "index ", index, " is past the ", c->columns.size(), " columns");
    column_of(c->columns[index], &not_null(out, "out"));
  });
}

int lodex_columns_find(const lodex_columns* c, const char* name, lodex_column* out) {
  return guarded([&] {
    c = live(c, Kind::kColumns, "columns");
    column_of(find_column(c, name), &not_null(out, "out"));
  });
}

int lodex_columns_copy(const lodex_columns* c, const char* name, void* buffer, uint64_t buffer_bytes) {
  return guarded([&] {
    c = live(c, Kind::kColumns, "columns");
    const FieldColumn& col = find_column(c, name);
    if (col.bytes.size() > buffer_bytes)
      fail(ErrorCode::kInvalidArgument, "column '", col.spec.name, "' has ", col.bytes.size(),
           " bytes; the buffer holds ", buffer_bytes);
    if (col.bytes.empty()) return;
    std::memcpy(&not_null(static_cast<char*>(buffer), "buffer"), col.bytes.data(), col.bytes.size());
  });
}

int lodex_columns_free(lodex_columns* c) {
  if (!c) return LODEX_OK;
  return guarded([&] {
    if (live(c, Kind::kColumns, "columns")->borrowed)
      fail(ErrorCode::kInvalidArgument, "these columns belong to a query result: free the result instead");
    delete release_handle(c, Kind::kColumns, "columns");
  });
}

}  // extern "C"
