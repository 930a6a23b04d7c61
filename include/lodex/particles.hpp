// lodex C++ API: value types shared by every kind of data (element types, field definitions and
// data, write profiles) and particle groups (writes, reads, refinement, indexes, value queries).
//
// Ownership follows the C API: ParticleGroup is a non-owning handle that its Dataset releases
// when it closes; Columns, Refinement and QueryResult own what a read returned and release it
// on destruction (they stay valid after the dataset closes). Collective calls must be made by
// every rank of the communicator named (or of the dataset's), with the same scalar arguments.
#pragma once

#include <lodex.h>
#include <lodex/error.hpp>
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if __has_include(<version>)
#include <version>
#endif
#if defined(__cpp_lib_span)
#include <span>
#endif

namespace lodex {

// ---- Spans -------------------------------------------------------------------------------------

#if defined(__cpp_lib_span)
// A view of contiguous values: std::span in C++20.
template <class T>
using Span = std::span<T>;
#else
// A view of contiguous values: the part of C++20's std::span these headers use, for C++17.
template <class T>
class Span {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using size_type = std::size_t;
  using iterator = T*;

  constexpr Span() noexcept = default;
  constexpr Span(T* data, std::size_t size) noexcept : data_(data), size_(size) {}
  template <class C, class = std::enable_if_t<std::is_convertible_v<decltype(std::data(std::declval<C&>())), T*> > >
  constexpr Span(C&& container) noexcept : data_(std::data(container)), size_(std::size(container)) {}

  constexpr T* data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr T* begin() const noexcept { return data_; }
  constexpr T* end() const noexcept { return data_ + size_; }
  constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};
#endif

// ---- Element types, fields ---------------------------------------------------------------------

// Element types; the values are the C codes (and stored on disk).
enum class DType : int32_t {
  kF4 = LODEX_F4,
  kF8 = LODEX_F8,
  kI1 = LODEX_I1,
  kU1 = LODEX_U1,
  kI2 = LODEX_I2,
  kU2 = LODEX_U2,
  kI4 = LODEX_I4,
  kU4 = LODEX_U4,
  kI8 = LODEX_I8,
  kU8 = LODEX_U8
};

// Bytes of one element (0 for a value that is no element type).
inline std::size_t dtype_size(DType t) noexcept { return lodex_dtype_size(static_cast<int>(t)); }

// numpy's name of an element type: "f4", "i8", ... ("?" for a value that is none).
inline const char* dtype_name(DType t) noexcept {
  static const char* const names[] = {"?", "f4", "f8", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"};
  const auto i = static_cast<int32_t>(t);
  return i >= 1 && i <= 10 ? names[i] : names[0];
}

// The element type of the C++ type T (float, double, and integers of 1, 2, 4 or 8 bytes).
template <class T>
constexpr DType dtype_of() {
  using U = std::remove_cv_t<T>;
  static_assert(std::is_arithmetic_v<U> && !std::is_same_v<U, bool> && sizeof(U) <= 8 &&
                    (std::is_integral_v<U> || std::is_same_v<U, float> || std::is_same_v<U, double>),
                "lodex stores float, double and integers of 1, 2, 4 or 8 bytes");
  if constexpr (std::is_same_v<U, float>) return DType::kF4;
  if constexpr (std::is_same_v<U, double>) return DType::kF8;
  constexpr bool s = std::is_signed_v<U>;
  if constexpr (sizeof(U) == 1) return s ? DType::kI1 : DType::kU1;
  if constexpr (sizeof(U) == 2) return s ? DType::kI2 : DType::kU2;
  if constexpr (sizeof(U) == 4) return s ? DType::kI4 : DType::kU4;
  return s ? DType::kI8 : DType::kU8;
}

namespace detail {
// Throws Error(LODEX_ERR_INVALID_ARGUMENT) unless T's element type is `dtype`.
template <class T>
void check_dtype(DType dtype, const std::string& what) {
  if (dtype_of<T>() == dtype) return;
  invalid_argument(what + " holds " + dtype_name(dtype) + " values, not " + dtype_name(dtype_of<T>()));
}
}  // namespace detail

// A field's definition: name (at most 31 bytes), element type, components per row or sample.
struct FieldDef {
  std::string name;
  DType dtype{};  // no default: an unset type is refused by the library
  uint32_t components = 1;
};

// The caller's values of one field for a write: `rows` rows (particles) or samples (grids,
// series) of `components` values, row-major. `data` is borrowed: it is only read, during the
// write. Build it with lodex::field().
struct FieldData {
  std::string name;
  DType dtype{};
  uint32_t components = 1;
  uint64_t rows = 0;
  const void* data = nullptr;
};

// FieldData over `count` values of T (rows = count / components; a remainder is an error).
template <class T>
FieldData field(std::string name, const T* values, std::size_t count, uint32_t components = 1) {
  if (components == 0 || count % components != 0) {
    detail::invalid_argument("field '" + name + "': " + std::to_string(count) + " values are not rows of " +
                             std::to_string(components) + " components");
  }
  return FieldData{std::move(name), dtype_of<T>(), components, count / components, values};
}
template <class T>
FieldData field(std::string name, Span<T> values, uint32_t components = 1) {
  return field(std::move(name), values.data(), values.size(), components);
}
template <class T>
FieldData field(std::string name, const std::vector<T>& values, uint32_t components = 1) {
  return field(std::move(name), values.data(), values.size(), components);
}
// Refused: the temporary vector would be gone before the write reads it.
template <class T>
FieldData field(std::string name, const std::vector<T>&& values, uint32_t components = 1) = delete;

namespace detail {
// The C view of fields; their names and data must outlive it.
inline std::vector<lodex_field_data> to_c(Span<const FieldData> fields) {
  std::vector<lodex_field_data> out;
  out.reserve(fields.size());
  for (const FieldData& f : fields) {
    out.push_back({f.name.c_str(), static_cast<int32_t>(f.dtype), f.components, f.rows, f.data});
  }
  return out;
}
inline std::vector<lodex_field_def> to_c(const std::vector<FieldDef>& fields) {
  std::vector<lodex_field_def> out;
  out.reserve(fields.size());
  for (const FieldDef& f : fields) out.push_back({f.name.c_str(), static_cast<int32_t>(f.dtype), f.components});
  return out;
}
inline FieldDef from_c(const lodex_field_def& f) {
  return FieldDef{f.name != nullptr ? f.name : "", static_cast<DType>(f.dtype), f.components};
}
// Pointers to the names, or an empty vector (the C API's NULL / 0: every field).
inline std::vector<const char*> c_strings(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  out.reserve(names.size());
  for (const std::string& n : names) out.push_back(n.c_str());
  return out;
}
inline const char* const* data_or_null(const std::vector<const char*>& v) { return v.empty() ? nullptr : v.data(); }
inline std::string string_or_empty(const char* s) { return s != nullptr ? s : ""; }

// Committed steps through a C call of the lodex_particles_steps shape (size, then values).
template <class Handle, class Call>
std::vector<int64_t> steps_of(Handle handle, Call call) {
  std::size_t count = 0;
  check(call(handle, nullptr, 0, &count));
  std::vector<int64_t> steps(count);
  check(call(handle, steps.data(), steps.size(), &count));
  steps.resize(count < steps.size() ? count : steps.size());
  return steps;
}
}  // namespace detail

// The last write's cost, reduced over ranks (particles, grids, series). json: every phase's
// min/mean/max over ranks.
struct WriteProfile {
  int64_t step = 0;
  int32_t ranks = 0;
  uint32_t aggregators = 0;
  uint32_t files = 0;
  uint64_t particles = 0;  // particle writes; 0 for grids and series
  uint64_t bytes = 0;
  double total_s = 0;      // slowest rank, end to end
  double blocked_s = 0;    // particles: the time the step's calls held the caller (total_s when synchronous)
  std::string json;
};

namespace detail {
// A WriteProfile through a C call of the lodex_particles_profile shape.
template <class Handle, class Call>
WriteProfile profile_of(Handle handle, Call call) {
  lodex_write_profile p{};
  const char* json = nullptr;
  check(call(handle, &p, &json));
  return WriteProfile{p.step,    p.ranks,     p.aggregators,        p.files, p.particles, p.bytes,
                      p.total_s, p.blocked_s, string_or_empty(json)};
}
}  // namespace detail

// ---- Particle definitions ----------------------------------------------------------------------

// A box of the domain: lo inclusive, hi exclusive (x, y, z).
struct Box {
  std::array<double, 3> lo{0, 0, 0};
  std::array<double, 3> hi{0, 0, 0};
};

namespace detail {
// A Box as the C API's double[6], and an optional one as a pointer (NULL: none).
class BoxArg {
 public:
  explicit BoxArg(const std::optional<Box>& box) : set_(box.has_value()) {
    if (set_) values_ = {box->lo[0], box->lo[1], box->lo[2], box->hi[0], box->hi[1], box->hi[2]};
  }
  BoxArg(const BoxArg&) = delete;
  BoxArg& operator=(const BoxArg&) = delete;
  const double* get() const { return set_ ? values_.data() : nullptr; }

 private:
  bool set_;
  std::array<double, 6> values_{};
};
inline Box box_from_c(const double b[6]) { return Box{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}}; }
}  // namespace detail

// A particle group's domain as simulations have it: a fixed box (its maximum inclusive) with
// periodic axes, on which positions are wrapped into [lo, hi) on write and a read box may reach
// past the domain to get the wrapped images; or automatic: each step's domain is the bounding box
// of its particles (ParticleGroup::step_domain).
struct Domain {
  Box box{};
  std::array<bool, 3> periodic{false, false, false};
  bool automatic = false;
  Domain() = default;
  Domain(const Box& b, std::array<bool, 3> p = {false, false, false})
      : box(b), periodic(p) {}   // NOLINT: a box is a domain
  static Domain Automatic() {
    Domain d;
    d.automatic = true;
    return d;
  }
};

// How particles are split among files. kFactor: (Px, Py, Pz) rank patches per partition along
// each axis; kGrid: a fixed (gx, gy, gz) grid of the domain; kAdaptive: files of about
// particles_per_file particles from a k-d split. Default: grid (1, 1, 1), the whole domain one
// partition (one file per step, no patches needed), as in Python and C.
struct Partition {
  enum class Mode : int32_t {
    kFactor = LODEX_PARTITION_FACTOR,
    kGrid = LODEX_PARTITION_GRID,
    kAdaptive = LODEX_PARTITION_ADAPTIVE
  };
  Mode mode = Mode::kGrid;
  std::array<uint32_t, 3> dims{1, 1, 1};
  uint64_t particles_per_file = 0;  // kAdaptive only

  static Partition factor(uint32_t px, uint32_t py, uint32_t pz) { return {Mode::kFactor, {px, py, pz}, 0}; }
  static Partition grid(uint32_t gx, uint32_t gy, uint32_t gz) { return {Mode::kGrid, {gx, gy, gz}, 0}; }
  static Partition adaptive(uint64_t particles_per_file) { return {Mode::kAdaptive, {1, 1, 1}, particles_per_file}; }
};

// Level-of-detail layout of the files (defaults of lodex_lod_params_init).
struct LodParams {
  uint32_t scale = 2;            // S: growth from one level to the next
  uint64_t level0_max = 256;     // B0: particles in level 0 of a file
  uint64_t brick_target = 0;     // particles per spatial brick; 0: sized for the data
  uint64_t seed = 0;             // of the shuffle within bricks
};

// ---- Particle reads: requests and results --------------------------------------------------------

// How a collective read shares the query among ranks.
enum class Split : int32_t { kSpatial = LODEX_SPLIT_SPATIAL, kBytes = LODEX_SPLIT_BYTES };

// A particle read (defaults of lodex_read_request_init: everything, every field). level and
// fraction are exclusive ways of reading a fair sample.
struct ReadRequest {
  std::optional<Box> box;            // none: the whole domain
  std::vector<std::string> fields;   // empty: every field
  std::optional<uint32_t> level;     // levels of detail 0..level
  std::optional<double> fraction;    // 0 < f <= 1 of the particles
  uint64_t lod_readers = 0;          // n of the levels n P S^l; 0: the readers' count
  uint64_t lod_P = 32;               // P
  double lod_S = 2;                  // S
  Split split = Split::kSpatial;
};

namespace detail {
inline int32_t level_or_none(const std::optional<uint32_t>& level) {
  if (!level) return -1;
  if (*level > 0x7fffffffu) invalid_argument("level " + std::to_string(*level) + " is too large");
  return static_cast<int32_t>(*level);
}

// A ReadRequest as the C struct, which points into this object: keep it alive for the call.
class CReadRequest {
 public:
  explicit CReadRequest(const ReadRequest& r) : box_(r.box), names_(c_strings(r.fields)) {
    check(lodex_read_request_init(&c_));
    c_.box = box_.get();
    c_.fields = data_or_null(names_);
    c_.num_fields = names_.size();
    c_.level = level_or_none(r.level);
    c_.fraction = r.fraction.value_or(0.0);
    c_.lod_readers = r.lod_readers;
    c_.lod_P = r.lod_P;
    c_.lod_S = r.lod_S;
    c_.split = static_cast<int32_t>(r.split);
  }
  CReadRequest(const CReadRequest&) = delete;
  CReadRequest& operator=(const CReadRequest&) = delete;
  const lodex_read_request* get() const { return &c_; }

 private:
  BoxArg box_;
  std::vector<const char*> names_;
  lodex_read_request c_{};
};
}  // namespace detail

// One column of a result: rows x components values of dtype, row-major. data is borrowed from
// the Columns (or QueryResult) it came from, and valid while that lives.
struct Column {
  std::string name;
  DType dtype{};
  uint32_t components = 0;
  uint64_t rows = 0;
  const void* data = nullptr;
  uint64_t bytes = 0;

  // The rows x components values; throws Error(LODEX_ERR_INVALID_ARGUMENT) unless T is dtype's type.
  template <class T>
  Span<const T> values() const {
    detail::check_dtype<T>(dtype, "column '" + name + "'");
    return Span<const T>(static_cast<const T*>(data), static_cast<std::size_t>(rows * components));
  }
};

namespace detail {
inline Column from_c(const lodex_column& c) {
  return Column{string_or_empty(c.name), static_cast<DType>(c.dtype), c.components, c.rows, c.data, c.bytes};
}
}  // namespace detail

// A non-owning view of a set of columns (of a Columns or a QueryResult, valid while it lives).
// All calls are local.
class ColumnsView {
 public:
  ColumnsView() noexcept = default;
  explicit ColumnsView(const lodex_columns* columns) noexcept : c_(columns) {}

  std::size_t size() const {
    std::size_t n = 0;
    detail::check(lodex_columns_count(c_, &n));
    return n;
  }
  Column column(std::size_t index) const {
    lodex_column c{};
    detail::check(lodex_columns_get(c_, index, &c));
    return detail::from_c(c);
  }
  // Throws Error(LODEX_ERR_NOT_FOUND) if there is no such column.
  Column column(const std::string& name) const {
    lodex_column c{};
    detail::check(lodex_columns_find(c_, name.c_str(), &c));
    return detail::from_c(c);
  }
  // Rows of the result (0 when it has no column).
  uint64_t rows() const { return size() == 0 ? 0 : column(0).rows; }
  // Copies column `name` into buffer (at least its bytes).
  void copy(const std::string& name, void* buffer, uint64_t buffer_bytes) const {
    detail::check(lodex_columns_copy(c_, name.c_str(), buffer, buffer_bytes));
  }
  const lodex_columns* raw() const noexcept { return c_; }

 private:
  const lodex_columns* c_ = nullptr;
};

// The columns a read returned: owns them (lodex_columns_free on destruction). Move-only; a
// moved-from Columns holds nothing and its calls throw Error(LODEX_ERR_INVALID_ARGUMENT).
class Columns {
 public:
  Columns() noexcept = default;
  explicit Columns(lodex_columns* owned) noexcept : c_(owned) {}
  Columns(Columns&& other) noexcept : c_(std::exchange(other.c_, nullptr)) {}
  Columns& operator=(Columns&& other) noexcept {
    if (this != &other) {
      lodex_columns_free(c_);
      c_ = std::exchange(other.c_, nullptr);
    }
    return *this;
  }
  Columns(const Columns&) = delete;
  Columns& operator=(const Columns&) = delete;
  ~Columns() { lodex_columns_free(c_); }

  ColumnsView view() const noexcept { return ColumnsView(c_); }
  std::size_t size() const { return view().size(); }
  Column column(std::size_t index) const { return view().column(index); }
  Column column(const std::string& name) const { return view().column(name); }
  uint64_t rows() const { return view().rows(); }
  void copy(const std::string& name, void* buffer, uint64_t bytes) const { view().copy(name, buffer, bytes); }
  lodex_columns* raw() const noexcept { return c_; }

 private:
  lodex_columns* c_ = nullptr;
};

// What the last read cost this rank (files_opened, bytes_read, bytes_returned, particles, ...).
using ReadStats = lodex_read_stats;

// Progressive refinement of one read: its levels coarse to fine, each next() returning only the
// particles new at that level; all together are the full answer. Owns the C refinement
// (lodex_refinement_free on destruction), which stays valid after the dataset closes.
// Move-only; next() is collective over the read's communicator, the rest local.
class Refinement {
 public:
  Refinement() noexcept = default;
  explicit Refinement(lodex_refinement* owned) noexcept : r_(owned) {}
  Refinement(Refinement&& other) noexcept : r_(std::exchange(other.r_, nullptr)) {}
  Refinement& operator=(Refinement&& other) noexcept {
    if (this != &other) {
      lodex_refinement_free(r_);
      r_ = std::exchange(other.r_, nullptr);
    }
    return *this;
  }
  Refinement(const Refinement&) = delete;
  Refinement& operator=(const Refinement&) = delete;
  ~Refinement() { lodex_refinement_free(r_); }

  uint32_t levels() const {
    uint32_t n = 0;
    detail::check(lodex_refinement_levels(r_, &n));
    return n;
  }
  // The level next() returns (== levels() when done).
  uint32_t next_level() const {
    uint32_t l = 0;
    detail::check(lodex_refinement_next_level(r_, &l));
    return l;
  }
  bool done() const { return next_level() >= levels(); }
  // Collective. The next level's new particles.
  Columns next() {
    lodex_columns* c = nullptr;
    detail::check(lodex_refinement_next(r_, &c));
    return Columns(c);
  }
  ReadStats read_stats() const {
    ReadStats s{};
    detail::check(lodex_refinement_read_stats(r_, &s));
    return s;
  }
  lodex_refinement* raw() const noexcept { return r_; }

 private:
  lodex_refinement* r_ = nullptr;
};

// ---- Bitmap indexes and value queries ------------------------------------------------------------

// How index bins are chosen: kPrecision with `param` significant digits (1..9), kEqualWeight
// with `param` bins, kDefault (3 significant digits).
enum class Binning : int {
  kDefault = 0,
  kPrecision = LODEX_BINNING_PRECISION,
  kEqualWeight = LODEX_BINNING_EQUAL_WEIGHT
};

// What an index build did, summed over ranks (seconds: the slowest rank's).
using IndexStats = lodex_index_stats;
// What a query did on this rank (files pruned, indexed, scanned, bytes, ...).
using QueryStats = lodex_query_stats;

// A value query ("energy > 1.5 && x < 0.2", docs/queries.md) over one step (defaults of
// lodex_query_init).
struct Query {
  std::string text;
  std::optional<Box> box;            // only particles inside it
  std::optional<uint32_t> level;     // the particles a read at levels 0..level returns, filtered
  std::vector<std::string> fields;   // fields of the matches to return; empty: no data
  bool rows = true;                  // false: count only
  bool use_index = true;             // false: scan, for comparison
};

namespace detail {
// A Query as the C struct, which points into this object: keep it alive for the call.
class CQuery {
 public:
  explicit CQuery(const Query& q) : box_(q.box), names_(c_strings(q.fields)) {
    check(lodex_query_init(&c_));
    c_.text = q.text.c_str();
    c_.box = box_.get();
    c_.level = level_or_none(q.level);
    c_.fields = data_or_null(names_);
    c_.num_fields = names_.size();
    c_.rows = q.rows ? 1 : 0;
    c_.use_index = q.use_index ? 1 : 0;
  }
  CQuery(const CQuery&) = delete;
  CQuery& operator=(const CQuery&) = delete;
  const lodex_query* get() const { return &c_; }

 private:
  BoxArg box_;
  std::vector<const char*> names_;
  lodex_query c_{};
};
}  // namespace detail

// One data file with matches: its name and the matching rows (ascending), borrowed from the
// QueryResult.
struct QueryFile {
  std::string file;
  Span<const uint32_t> rows;
};

// The answer of a value query: owns it (lodex_query_result_free on destruction). Move-only;
// every call is local. With a communicator, this rank's files only; count() is the total.
class QueryResult {
 public:
  QueryResult() noexcept = default;
  explicit QueryResult(lodex_query_result* owned) noexcept : r_(owned) {}
  QueryResult(QueryResult&& other) noexcept : r_(std::exchange(other.r_, nullptr)) {}
  QueryResult& operator=(QueryResult&& other) noexcept {
    if (this != &other) {
      lodex_query_result_free(r_);
      r_ = std::exchange(other.r_, nullptr);
    }
    return *this;
  }
  QueryResult(const QueryResult&) = delete;
  QueryResult& operator=(const QueryResult&) = delete;
  ~QueryResult() { lodex_query_result_free(r_); }

  // Matches over all ranks.
  uint64_t count() const { return counts().first; }
  // Matches in this rank's files.
  uint64_t local_count() const { return counts().second; }
  std::vector<QueryFile> files() const {
    std::size_t n = 0;
    detail::check(lodex_query_result_file_count(r_, &n));
    std::vector<QueryFile> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const char* file = nullptr;
      const uint32_t* rows = nullptr;
      uint64_t num_rows = 0;
      detail::check(lodex_query_result_file(r_, i, &file, &rows, &num_rows));
      out.push_back({detail::string_or_empty(file), Span<const uint32_t>(rows, static_cast<std::size_t>(num_rows))});
    }
    return out;
  }
  // The requested fields of the matches, file after file; valid while this result lives.
  ColumnsView columns() const {
    const lodex_columns* c = nullptr;
    detail::check(lodex_query_result_columns(r_, &c));
    return ColumnsView(c);
  }
  // What was scanned instead of indexed, and why.
  std::vector<std::string> notes() const {
    std::size_t n = 0;
    detail::check(lodex_query_result_note_count(r_, &n));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) {
      const char* note = nullptr;
      detail::check(lodex_query_result_note(r_, i, &note));
      out.push_back(detail::string_or_empty(note));
    }
    return out;
  }
  QueryStats stats() const {
    QueryStats s{};
    detail::check(lodex_query_result_stats(r_, &s));
    return s;
  }
  lodex_query_result* raw() const noexcept { return r_; }

 private:
  std::pair<uint64_t, uint64_t> counts() const {
    uint64_t total = 0, local = 0;
    detail::check(lodex_query_result_count(r_, &total, &local));
    return {total, local};
  }

  lodex_query_result* r_ = nullptr;
};

// ---- Particle groups -----------------------------------------------------------------------------

// An asynchronous step of any kind (ParticleGroup, Grid or Series write_async): move-only, it
// frees its handle. The step commits at its group's next collective call; its error is thrown
// there on every rank.
class Pending {
 public:
  Pending() noexcept = default;
  explicit Pending(lodex_pending* owned) noexcept : p_(owned) {}
  Pending(Pending&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  Pending& operator=(Pending&& o) noexcept {
    if (this != &o) {
      lodex_pending_free(p_);
      p_ = o.p_;
      o.p_ = nullptr;
    }
    return *this;
  }
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;
  ~Pending() { lodex_pending_free(p_); }
  // Collective: completes and commits the step (nothing when a later call did).
  void wait() { detail::check(lodex_pending_wait(p_)); }
  // Local: whether this rank finished the step's files.
  bool done() const {
    int d = 0;
    detail::check(lodex_pending_done(p_, &d));
    return d != 0;
  }

 private:
  lodex_pending* p_ = nullptr;
};

// Zero-copy input (lodex_particles_buffers): one rank's buffers of an open step, where it puts
// its rows in place instead of passing arrays to write. Move-only; destroyed uncommitted, the
// step is discarded (nothing written). field<T>(name, components) is the rows of a field as the
// schema has it (else Error naming both); after commit the memory is the step's, not the caller's.
class Buffers {
 public:
  Buffers() noexcept = default;
  Buffers(lodex_buffers* owned, uint64_t count) noexcept : b_(owned), count_(count) {}
  Buffers(Buffers&& o) noexcept : b_(o.b_), count_(o.count_) { o.b_ = nullptr; }
  Buffers& operator=(Buffers&& o) noexcept {
    if (this != &o) {
      lodex_buffers_free(b_);
      b_ = o.b_;
      count_ = o.count_;
      o.b_ = nullptr;
    }
    return *this;
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  ~Buffers() { lodex_buffers_free(b_); }

  // Local. count() rows of `components` values of T, row-major ("position/x" etc. when the
  // positions were asked as three arrays).
  template <class T>
  Span<T> field(const std::string& name, uint32_t components = 1) {
    void* data = nullptr;
    detail::check(lodex_buffers_field(b_, name.c_str(), static_cast<int32_t>(dtype_of<T>()), components, &data));
    return Span<T>(static_cast<T*>(data), static_cast<std::size_t>(count_ * components));
  }
  uint64_t count() const noexcept { return count_; }
  // Local. Whether some field of this rank lies in a shared window (the zero-copy path).
  bool in_window() const {
    int w = 0;
    detail::check(lodex_buffers_in_window(b_, &w));
    return w != 0;
  }
  // Collective: checks and writes the step as ParticleGroup::write; an error discards the step.
  void commit() { detail::check(lodex_buffers_commit(b_)); }
  // Collective: the same, as write_async without a copy.
  Pending commit_async() {
    lodex_pending* out = nullptr;
    detail::check(lodex_buffers_commit_async(b_, &out));
    return Pending(out);
  }
  lodex_buffers* raw() const noexcept { return b_; }

 private:
  lodex_buffers* b_ = nullptr;
  uint64_t count_ = 0;
};

// A particle group of a dataset: a non-owning handle, valid until its Dataset closes (copies
// are the same group). Obtain it from Dataset::particles or Dataset::define_particles.
class ParticleGroup {
 public:
  ParticleGroup() noexcept = default;
  explicit ParticleGroup(lodex_particles* group) noexcept : g_(group) {}

  // Local.
  std::vector<FieldDef> fields() const {
    std::size_t n = 0;
    detail::check(lodex_particles_field_count(g_, &n));
    std::vector<FieldDef> out;
    for (std::size_t i = 0; i < n; ++i) {
      lodex_field_def f{};
      detail::check(lodex_particles_field(g_, i, &f));
      out.push_back(detail::from_c(f));
    }
    return out;
  }
  // Local.
  Box domain() const {
    double b[6];
    detail::check(lodex_particles_domain(g_, b));
    return detail::box_from_c(b);
  }
  // Local. Which axes are periodic, and whether each step has its own domain.
  std::array<bool, 3> periodic() const {
    int32_t p[3], automatic = 0;
    detail::check(lodex_particles_domain_kind(g_, p, &automatic));
    return {p[0] != 0, p[1] != 0, p[2] != 0};
  }
  bool automatic_domain() const {
    int32_t p[3], automatic = 0;
    detail::check(lodex_particles_domain_kind(g_, p, &automatic));
    return automatic != 0;
  }
  // Local. The domain a committed step was written in.
  Box step_domain(int64_t step) const {
    double b[6];
    detail::check(lodex_particles_step_domain(g_, step, b));
    return detail::box_from_c(b);
  }
  // Local. Committed steps, ascending.
  std::vector<int64_t> steps() const { return detail::steps_of(g_, lodex_particles_steps); }

  // Collective over the dataset's communicator (append mode). Every rank passes the same step
  // and its own particles (any count, zero included): every field of the schema, each with the
  // same rows. patch: this rank's box of the domain (none: the bounds of its particles). A
  // committed step is LODEX_ERR_ALREADY_EXISTS; on failure nothing of the step is visible.
  void write(int64_t step, Span<const FieldData> fields, const std::optional<Box>& patch = std::nullopt) {
    const std::vector<lodex_field_data> c = detail::to_c(fields);
    const detail::BoxArg p(patch);
    detail::check(lodex_particles_write(g_, step, c.data(), c.size(), p.get()));
  }
  void write(int64_t step, std::initializer_list<FieldData> fields, const std::optional<Box>& patch = std::nullopt) {
    write(step, Span<const FieldData>(fields.begin(), fields.size()), patch);
  }
  // An asynchronous write (lodex_particles_write_async): collective like write; returns once the
  // particles reached the ranks that write them. copy = false: the arrays must stay unchanged
  // until the step is done. The step commits at the group's next collective call (the next write,
  // Pending::wait, an index build, the dataset's close); its error is thrown there on every rank.
  using Pending = lodex::Pending;
  Pending write_async(int64_t step, Span<const FieldData> fields, const std::optional<Box>& patch = std::nullopt,
                      bool copy = true) {
    const std::vector<lodex_field_data> c = detail::to_c(fields);
    const detail::BoxArg p(patch);
    lodex_pending* out = nullptr;
    detail::check(lodex_particles_write_async(g_, step, c.data(), c.size(), p.get(),
                                              copy ? 0u : unsigned{LODEX_WRITE_NO_COPY}, &out));
    return Pending(out);
  }
  Pending write_async(int64_t step, std::initializer_list<FieldData> fields,
                      const std::optional<Box>& patch = std::nullopt, bool copy = true) {
    return write_async(step, Span<const FieldData>(fields.begin(), fields.size()), patch, copy);
  }
  // Zero-copy input (lodex_particles_buffers): collective like write, every rank with its own
  // count and patch. Opens the step; its rows are filled through the Buffers, then committed.
  // position_components: the positions as three arrays, "position/x", "position/y", "position/z".
  Buffers buffers(int64_t step, uint64_t count, const std::optional<Box>& patch = std::nullopt,
                  bool position_components = false) {
    const detail::BoxArg p(patch);
    lodex_buffers* out = nullptr;
    detail::check(lodex_particles_buffers(
        g_, step, count, p.get(), position_components ? unsigned{LODEX_BUFFERS_POSITION_COMPONENTS} : 0u, &out));
    return Buffers(out, count);
  }
  // Local. The last write's cost, reduced over ranks.
  WriteProfile profile() const { return detail::profile_of(g_, lodex_particles_profile); }

  // comm == MPI_COMM_NULL: local, the whole answer. Otherwise collective over comm: this rank's
  // disjoint part; all parts together are the whole answer.
  Columns read(int64_t step, const ReadRequest& request = {}, MPI_Comm comm = MPI_COMM_NULL) const {
    const detail::CReadRequest r(request);
    lodex_columns* c = nullptr;
    detail::check(lodex_particles_read(g_, step, r.get(), comm, &c));
    return Columns(c);
  }
  // Local. This rank's last read of the group.
  ReadStats read_stats() const {
    ReadStats s{};
    detail::check(lodex_particles_read_stats(g_, &s));
    return s;
  }
  // As read (request's level and fraction unset): the answer level by level, coarse to fine.
  Refinement refine(int64_t step, const ReadRequest& request = {}, MPI_Comm comm = MPI_COMM_NULL) const {
    const detail::CReadRequest r(request);
    lodex_refinement* out = nullptr;
    detail::check(lodex_particles_refine(g_, step, r.get(), comm, &out));
    return Refinement(out);
  }

  // Collective over the dataset's communicator (append mode). Bitmap indexes of `fields`
  // (empty: every field) of `steps` (empty: every committed step).
  IndexStats build_index(const std::vector<std::string>& fields = {}, Binning binning = Binning::kDefault,
                         uint32_t param = 0, const std::vector<int64_t>& steps = {}) {
    const std::vector<const char*> names = detail::c_strings(fields);
    IndexStats s{};
    detail::check(lodex_particles_build_index(g_, detail::data_or_null(names), names.size(), static_cast<int>(binning),
                                              param, steps.empty() ? nullptr : steps.data(), steps.size(), &s));
    return s;
  }
  // Collective over the dataset's communicator (append mode), the same `after` on every rank:
  // removes every committed step after `after` (-1, LODEX_TRUNCATE_ALL: every step) with its files
  // and indexes, to restart from the checkpoint of step `after`; atomic. Returns the steps removed.
  uint64_t truncate(int64_t after) {
    uint64_t removed = 0;
    detail::check(lodex_particles_truncate(g_, after, &removed));
    return removed;
  }
  // comm == MPI_COMM_NULL: local. Otherwise collective: the step's files are shared among the
  // ranks, each returning its files' matches; count() is the total.
  QueryResult query(int64_t step, const Query& q, MPI_Comm comm = MPI_COMM_NULL) const {
    const detail::CQuery c(q);
    lodex_query_result* out = nullptr;
    detail::check(lodex_particles_query(g_, step, c.get(), comm, &out));
    return QueryResult(out);
  }

  lodex_particles* raw() const noexcept { return g_; }

 private:
  lodex_particles* g_ = nullptr;
};

}  // namespace lodex
