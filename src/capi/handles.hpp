// The C API's side of its opaque handles, and the one place where C++ errors become status
// codes. Every entry point runs its body through `guarded`, so no exception crosses the C line;
// every handle it takes is looked up in a registry of live handles (`live`) before use, so a
// NULL, released or mistyped handle is an error, never a dereference.
#pragma once

#include <mpi.h>

#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "lodex.h"
#include "pipelines/dataset.hpp"
#include "pipelines/grids/grid_group.hpp"
#include "pipelines/grids/idx_dataset.hpp"
#include "pipelines/series/series_group.hpp"

namespace lodex::capi {

enum class Kind { kDataset, kParticles, kGrid, kSeries, kColumns, kRefinement, kQueryResult, kIdx, kPending, kBuffers };

// A handle the caller holds is a token: a number never handed out before, shaped as a pointer
// that points nowhere (so it cannot be dereferenced by mistake), which the registry maps to the
// object. A released handle stays dead even after its object's memory is reused by a new one.
void* register_object(void* object, Kind kind);   // a new token for `object`
void unregister_handle(const void* token);
// The object of `token`; throws InvalidArgument naming `what` unless it is a live handle of `kind`.
void* require_live(const void* token, Kind kind, const char* what);

template <typename T>
T* register_handle(T* object, Kind kind) {
  return static_cast<T*>(register_object(const_cast<std::remove_const_t<T>*>(object), kind));
}
template <typename T>
T* live(T* token, Kind kind, const char* what) {
  return static_cast<T*>(require_live(token, kind, what));
}
// live(), then the token is released: the object is the caller's to destroy.
template <typename T>
T* release_handle(T* token, Kind kind, const char* what) {
  T* object = live(token, kind, what);
  unregister_handle(token);
  return object;
}

// Runs `body`; returns LODEX_OK, or the error's code after recording its message for
// lodex_last_error (anything not a lodex::Error is an internal error).
int guarded(const std::function<void()>& body);
// Sets the thread's last error and returns its code: for failures found before any work.
int fail_with(const Error& e);

// The first argument error of a call, collected before it joins a collective, so that a rank
// whose arguments are wrong still takes part and every rank reports it.
class InputCheck {
 public:
  void require(bool ok, const std::string& message);
  template <typename F>
  void attempt(F&& f) {
    if (error_) return;
    try {
      f();
    } catch (...) {
      error_ = current_error();
    }
  }
  const std::optional<Error>& error() const { return error_; }
  void throw_if_failed() const {
    if (error_) throw *error_;
  }

 private:
  std::optional<Error> error_;
};

// Collective over comm (nothing for MPI_COMM_NULL): every rank learns whether any rank's
// arguments failed, and all throw the lowest failing rank's error. For the calls whose engine
// function takes no input error (dataset create and open); definitions, writes and reads hand
// their argument error to the engine call itself, which raises it at its own agreement.
void agree_inputs(const InputCheck& check, MPI_Comm comm);

MPI_Comm comm_of_fortran(MPI_Fint comm);
// The *_f entry points: `call` (the C entry point) with the Fortran handle converted.
template <typename Call>
int with_fortran_comm(MPI_Fint comm, Call&& call) {
  MPI_Comm c = MPI_COMM_NULL;
  if (int rc = guarded([&] { c = comm_of_fortran(comm); })) return rc;
  return call(c);
}

// C argument conversions; each throws InvalidArgument naming `what`.
std::string text(const char* s, const char* what);
DType dtype_of(int32_t code, const char* what);
Box particle_box(const double* box, const char* what);
GridBox grid_box(const int64_t* box, const char* what);
std::optional<GridBox> optional_grid_box(const int64_t* box);   // NULL: none
std::vector<std::string> names(const char* const* names, size_t count, const char* what);
std::vector<FieldView> field_views(const lodex_field_data* fields, size_t count);
FieldSpec field_spec(const lodex_field_def& f, const char* what);
void to_c(const FieldSpec& f, lodex_field_def* out);
template <typename T>
T& not_null(T* p, const char* what) {
  if (!p) fail(ErrorCode::kInvalidArgument, what, " is NULL");
  return *p;
}
// The handle (token) of group `g` of dataset `ds` (one per group, made on first use, owned by ds).
template <typename Handle, typename Group>
Handle* group_handle(std::map<std::string, std::unique_ptr<Handle>>& slots, lodex_dataset* ds, Group& g, Kind kind) {
  auto& slot = slots[g.name()];
  if (!slot) {
    slot = std::make_unique<Handle>();
    slot->owner = ds;
    slot->group = &g;
    slot->token = register_handle(slot.get(), kind);
  }
  return slot->token;
}
void copy_steps(const std::vector<int64_t>& all, int64_t* steps, size_t capacity, size_t* count);

}  // namespace lodex::capi

// The handles. Group handles belong to their dataset handle; the others to the caller.
struct lodex_grid;
struct lodex_series;
struct lodex_particles {
  lodex_particles* token = nullptr;   // the caller's handle of this group
  lodex_dataset* owner = nullptr;   // the dataset object (not its token)
  lodex::ParticleGroup* group = nullptr;
  std::string profile_json;
};
struct lodex_pending {   // an asynchronous step: its group's handle (token) of one kind, and its step
  lodex_particles* group = nullptr;   // a particle step
  lodex_grid* grid = nullptr;         // a grid step
  lodex_series* series = nullptr;     // a series step
  int64_t step = -1;
};
struct lodex_buffers {   // a particle step opened for zero-copy input: its group's handle (token), its step
  lodex_particles* group = nullptr;
  int64_t step = -1;
  bool committed = false;   // commit was called (successfully or not): the step is no longer open
};
struct lodex_grid {
  lodex_grid* token = nullptr;
  lodex_dataset* owner = nullptr;   // the dataset object (not its token)
  lodex::GridGroup* group = nullptr;
  std::string profile_json, idx_path;
};
struct lodex_series {
  lodex_series* token = nullptr;
  lodex_dataset* owner = nullptr;   // the dataset object (not its token)
  lodex::SeriesGroup* group = nullptr;
  std::string profile_json;
};
struct lodex_dataset {
  std::shared_ptr<lodex::Dataset> ds;
  std::map<std::string, std::unique_ptr<lodex_particles>> particles;
  std::map<std::string, std::unique_ptr<lodex_grid>> grids;
  std::map<std::string, std::unique_ptr<lodex_series>> series;
  std::set<std::string> name_pool;   // names lodex_dataset_name lent out, stable until close
};
struct lodex_columns {
  std::vector<lodex::FieldColumn> columns;
  bool borrowed = false;   // part of a query result: released with it, not by lodex_columns_free
};
struct lodex_refinement {
  std::shared_ptr<lodex::Dataset> ds;   // keeps the dataset's state alive
  std::unique_ptr<lodex::Refinement> refinement;
};
struct lodex_query_result {
  lodex::ValueQueryResult result;
  lodex_columns columns;
  lodex_columns* columns_token = nullptr;   // the caller's handle of `columns`
};
struct lodex_idx {
  lodex::IdxDataset dataset;
};
