#include "capi/handles.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "mpi/comm.hpp"

namespace lodex::capi {

namespace {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kDataset: return "lodex_dataset";
    case Kind::kParticles: return "lodex_particles";
    case Kind::kGrid: return "lodex_grid";
    case Kind::kSeries: return "lodex_series";
    case Kind::kColumns: return "lodex_columns";
    case Kind::kRefinement: return "lodex_refinement";
    case Kind::kQueryResult: return "lodex_query_result";
    case Kind::kIdx: return "lodex_idx";
    case Kind::kPending: return "lodex_pending";
    case Kind::kBuffers: return "lodex_buffers";
  }
  return "lodex handle";
}

struct Entry {
  Kind kind;
  void* object;
};
struct Registry {
  std::mutex mutex;
  std::unordered_map<uintptr_t, Entry> live;
  uint64_t issued = 0;   // tokens handed out so far; never reused
};
Registry& registry() {
  static Registry* r = new Registry;   // never destroyed: handles may be released at exit
  return *r;
}

// Token n: bit 62 set and n << 4. Such an address is not canonical on x86-64 and AArch64 (its high
// bits are not copies of bit 47), so a program that dereferences a handle faults at once.
constexpr uintptr_t kTokenTag = uintptr_t{1} << 62;

thread_local std::string t_last_error;

}  // namespace

void* register_object(void* object, Kind kind) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const uintptr_t token = kTokenTag | (uintptr_t{++r.issued} << 4);
  r.live.emplace(token, Entry{kind, object});
  return reinterpret_cast<void*>(token);
}

void unregister_handle(const void* token) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.live.erase(reinterpret_cast<uintptr_t>(token));
}

void* require_live(const void* token, Kind kind, const char* what) {
  if (!token) fail(ErrorCode::kInvalidArgument, what, " is NULL (expected a ", kind_name(kind), " handle)");
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.live.find(reinterpret_cast<uintptr_t>(token));
  if (it == r.live.end())
    fail(ErrorCode::kInvalidArgument, what, " is not a live ", kind_name(kind),
         " handle (never created, or already released)");
  if (it->second.kind != kind)
    fail(ErrorCode::kInvalidArgument, what, " is a ", kind_name(it->second.kind), " handle, not a ", kind_name(kind));
  return it->second.object;
}

int fail_with(const Error& e) {
  t_last_error = e.what();
  return static_cast<int>(e.code());
}

int guarded(const std::function<void()>& body) {
  try {
    body();
    return LODEX_OK;
  } catch (...) {
    return fail_with(current_error());
  }
}

void InputCheck::require(bool ok, const std::string& message) {
  if (!ok && !error_) error_ = Error(ErrorCode::kInvalidArgument, message);
}

void agree_inputs(const InputCheck& check, MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return check.throw_if_failed();
  Comm(comm).agree([&] { check.throw_if_failed(); });
}

MPI_Comm comm_of_fortran(MPI_Fint comm) {
  if (comm < 0) return MPI_COMM_NULL;
  if (!mpi_active()) fail(ErrorCode::kMpi, "MPI is not initialized (or already finalized)");
  return MPI_Comm_f2c(comm);
}

std::string text(const char* s, const char* what) {
  if (!s) fail(ErrorCode::kInvalidArgument, what, " is NULL (expected a NUL-terminated string)");
  return s;
}

DType dtype_of(int32_t code, const char* what) {
  DType t;
  if (code < 0 || code > 255 || !dtype_from_code(static_cast<uint8_t>(code), &t))
    fail(ErrorCode::kInvalidArgument, what, ": ", code, " is not a dtype (LODEX_F4 = 1 .. LODEX_U8 = 10)");
  return t;
}

Box particle_box(const double* box, const char* what) {
  if (!box) fail(ErrorCode::kInvalidArgument, what, " is NULL (expected 6 values)");
  Box b{{box[0], box[1], box[2]}, {box[3], box[4], box[5]}};
  if (!b.finite()) fail(ErrorCode::kInvalidArgument, what, " ", to_string(b), " has a value that is not finite");
  return b;
}

GridBox grid_box(const int64_t* box, const char* what) {
  if (!box) fail(ErrorCode::kInvalidArgument, what, " is NULL (expected 6 values)");
  return GridBox{{box[0], box[1], box[2]}, {box[3], box[4], box[5]}};
}

std::optional<GridBox> optional_grid_box(const int64_t* box) {
  if (!box) return std::nullopt;
  return grid_box(box, "box");
}

std::vector<std::string> names(const char* const* list, size_t count, const char* what) {
  std::vector<std::string> out;
  if (count == 0) return out;
  if (!list) fail(ErrorCode::kInvalidArgument, what, " is NULL but its count is ", count);
  for (size_t i = 0; i < count; ++i) out.push_back(text(list[i], cat(what, "[", i, "]").c_str()));
  return out;
}

std::vector<FieldView> field_views(const lodex_field_data* fields, size_t count) {
  if (count > 0 && !fields) fail(ErrorCode::kInvalidArgument, "fields is NULL but num_fields is ", count);
  std::vector<FieldView> out;
  for (size_t i = 0; i < count; ++i) {
    const lodex_field_data& f = fields[i];
    FieldView v;
    v.name = text(f.name, cat("fields[", i, "].name").c_str());
    v.dtype = dtype_of(f.dtype, cat("field '", v.name, "'").c_str());
    v.components = f.components;
    v.rows = f.rows;
    v.data = f.data;
    if (!f.data && f.rows > 0 && f.components > 0)
      fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has ", f.rows, " rows but its data is NULL");
    out.push_back(v);
  }
  return out;
}

FieldSpec field_spec(const lodex_field_def& f, const char* what) {
  const std::string name = text(f.name, cat(what, ".name").c_str());
  return FieldSpec{name, dtype_of(f.dtype, cat("field '", name, "'").c_str()), f.components};
}

void to_c(const FieldSpec& f, lodex_field_def* out) {
  out->name = f.name.c_str();
  out->dtype = static_cast<int32_t>(f.dtype);
  out->components = f.components;
}

void copy_steps(const std::vector<int64_t>& all, int64_t* steps, size_t capacity, size_t* count) {
  if (!count) fail(ErrorCode::kInvalidArgument, "count is NULL");
  if (capacity > 0 && !steps) fail(ErrorCode::kInvalidArgument, "steps is NULL but capacity is ", capacity);
  *count = all.size();
  const size_t n = std::min(capacity, all.size());
  if (n > 0) std::memcpy(steps, all.data(), n * sizeof(int64_t));
}

}  // namespace lodex::capi

using namespace lodex;
using namespace lodex::capi;

extern "C" {

const char* lodex_last_error(void) { return t_last_error.c_str(); }

const char* lodex_status_name(int status) {
  if (status == LODEX_OK) return "ok";
  if (status < 0 || status > LODEX_ERR_INTERNAL) return "unknown status";
  return error_code_name(static_cast<ErrorCode>(status));
}

const char* lodex_version(void) { return LODEX_VERSION; }

size_t lodex_dtype_size(int dtype) {
  DType t;
  if (dtype < 0 || dtype > 255 || !dtype_from_code(static_cast<uint8_t>(dtype), &t)) return 0;
  return dtype_size(t);
}

}  // extern "C"
