// Zero-copy input for Python (ParticleGroup.buffers): numpy arrays over a step's buffers.
//
// The buffers are the group's memory, reused by its next step (the node's shared window, or this
// rank's mapped buffer), and numpy arrays may outlive the commit. So an array never points at
// that memory itself: it points into a second mapping of the same pages (mremap with an old size
// of 0), owned by the arrays (their capsule). Before the commit reads the rows, every mapping of
// the step is revoked: replaced in place by fresh private zero pages (mmap MAP_FIXED). An array
// kept after the commit then reads zeros and writes into pages nothing else sees: it can neither
// crash nor reach the step being written or a later step's buffers; the pages are unmapped when
// the last array goes. A mapping no array holds any more at the commit cannot be reached and is
// kept instead, for the group's next step: it is that step's when its rows are the same bytes of
// the same allocation (ParticleGroup::Buffer::memory), which spares mapping and faulting the
// pages in every step (measured: 1.4 ms a step for 3.9 MiB). Where the pages cannot be mapped
// twice (a private mapping: a window that MPI allocated from the heap), the arrays get staging
// pages of their own instead, copied into the buffers at the commit (correct, one copy more).
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <memory>

#include "bindings.hpp"

namespace lodex::py {

namespace {

// One mapping of some rows: where the arrays point (`view`, inside `map`) and the buffers' rows.
struct RowMapping {
  uint8_t* map = nullptr;     // page-aligned, `len` bytes
  size_t len = 0;
  uint8_t* view = nullptr;    // the rows as the arrays see them
  uint8_t* target = nullptr;  // the rows in the buffers
  size_t bytes = 0;
  uint64_t memory = 0;        // the allocation holding them
  bool staged = false;        // `map` is staging memory, copied to `target` at the commit
  bool revoked = false;
  RowMapping() = default;
  RowMapping(const RowMapping&) = delete;
  RowMapping& operator=(const RowMapping&) = delete;
  ~RowMapping() {
    if (map) munmap(map, len);
  }
};

// A test hook (_lodex._buffers_staging): every view staged, as where pages cannot be mapped twice.
bool g_staging_only = false;

size_t page_size() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// A second mapping of [target, target + bytes), or staging pages where that is refused.
std::shared_ptr<RowMapping> map_rows(uint8_t* target, size_t bytes, uint64_t memory) {
  auto m = std::make_shared<RowMapping>();
  m->target = target;
  m->bytes = bytes;
  m->memory = memory;
  const size_t page = page_size();
  const uintptr_t at = reinterpret_cast<uintptr_t>(target);
  const uintptr_t lo = at & ~(page - 1);
  m->len = bytes == 0 ? page : ((at + bytes - lo + page - 1) & ~(page - 1));
  void* alias =
      bytes == 0 || g_staging_only ? MAP_FAILED : mremap(reinterpret_cast<void*>(lo), 0, m->len, MREMAP_MAYMOVE);
  if (alias != MAP_FAILED) {
    m->map = static_cast<uint8_t*>(alias);
    m->view = m->map + (at - lo);
#ifdef MADV_POPULATE_WRITE
    // The pages exist; a new mapping has no page table entries. One call fills them, instead of a
    // fault per page as the caller fills the rows (Linux 5.14; older kernels fault as they go).
    madvise(m->map, m->len, MADV_POPULATE_WRITE);
#endif
    return m;
  }
  m->len = bytes == 0 ? page : ((bytes + page - 1) & ~(page - 1));
  void* staging = mmap(nullptr, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (staging == MAP_FAILED) fail(ErrorCode::kIo, "mmap of ", m->len, " bytes for a view of the step's buffers failed");
  m->map = m->view = static_cast<uint8_t*>(staging);
  m->staged = true;
  return m;
}

// Revokes the mapping (staged rows copied into the buffers first when `keep`): the arrays then
// lie in fresh zero pages. A failure leaves the pages unmapped, not aliased: reported, never hidden.
void revoke(RowMapping& m, bool keep) {
  if (m.revoked) return;
  if (m.staged && keep) std::memcpy(m.target, m.view, m.bytes);
  m.revoked = true;
  if (mmap(m.map, m.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
    fail(ErrorCode::kIo, "replacing a view of the step's buffers by fresh pages failed");
}

// A numpy array over `m` at byte offset `offset`, owned by the arrays' capsule (a share of `m`).
nb::ndarray<nb::numpy> array_of(const std::shared_ptr<RowMapping>& m, size_t offset, size_t ndim, const size_t* shape,
                                const int64_t* strides, DType dtype) {
  auto* share = new std::shared_ptr<RowMapping>(m);
  nb::capsule owner(share, [](void* p) noexcept { delete static_cast<std::shared_ptr<RowMapping>*>(p); });
  return nb::ndarray<nb::numpy>(m->view + offset, ndim, shape, owner, strides, dlpack_of(dtype));
}

// The numpy side of a group's open buffers: arrays by field name, the commit and the discard.
class BufferViews {
 public:
  BufferViews(ParticleGroup& group, int64_t step, bool components)
      : group_(group), step_(step), components_(components) {}

  // Local. Field `name` of the schema ((n,) or (n, components)); with position components the
  // positions' name gives the three components as rows of a (3, n) array and name/x, /y, /z each
  // one of them (all views of the same pages).
  nb::ndarray<nb::numpy> array(const std::string& name) {
    check_open();
    const FieldSpec& pos = group_.schema().field(group_.schema().position_index());
    if (components_ && (name == pos.name || is_component(name, pos.name))) return component_array(name, pos);
    const ParticleGroup::Buffer b = group_.buffer(name);   // an unknown name: its error, naming the fields
    const size_t bytes = b.rows * b.components * dtype_size(b.dtype);
    const std::shared_ptr<RowMapping>& m = mapping(name, static_cast<uint8_t*>(b.data), bytes, b.memory);
    const size_t shape[2] = {static_cast<size_t>(b.rows), b.components};
    return array_of(m, 0, b.components == 1 ? 1 : 2, shape, nullptr, b.dtype);
  }

  // Local: the mappings `previous` (the group's last step) kept become candidates for this step's.
  void adopt(BufferViews& previous) {
    spare_ = std::move(previous.kept_);
    previous.kept_.clear();
  }

  // Collective: revokes the arrays (staged rows copied in first), then commits the step.
  void commit(const BuffersCommit& r) {
    std::optional<lodex::Error> input_error = r.error;
    try {
      check_open();
      finish(!input_error);
    } catch (...) {   // any exception: this rank still joins the commit's agreement
      if (!input_error) input_error = lodex::current_error();
    }
    done_ = true;
    nb::gil_scoped_release release;
    group_.commit_buffers(!r.wait, input_error);   // an error: raised on every rank, the step discarded
  }

  // Local: the arrays revoked and the group's open step dropped (when it is still this one).
  void discard() {
    if (done_) return;
    done_ = true;
    if (group_.buffers_step() == step_) group_.discard_buffers();
    finish(false);
  }

  bool open() const { return !done_; }
  bool in_window() const { return !done_ && group_.buffers_in_window(); }

 private:
  static bool is_component(const std::string& name, const std::string& pos) {
    return name.size() == pos.size() + 2 && name.compare(0, pos.size(), pos) == 0 && name[pos.size()] == '/' &&
           (name.back() == 'x' || name.back() == 'y' || name.back() == 'z');
  }

  // The three position arrays of the buffers lie at one distance from each other
  // (particle_buffers.cpp, own_rows): one mapping over them, a (3, n) array or one row of it.
  nb::ndarray<nb::numpy> component_array(const std::string& name, const FieldSpec& pos) {
    ParticleGroup::Buffer parts[3];
    for (int a = 0; a < 3; ++a) parts[a] = group_.buffer(pos.name + "/" + "xyz"[a]);
    const size_t item = dtype_size(pos.dtype);
    auto* x = static_cast<uint8_t*>(parts[0].data);
    const ptrdiff_t stride = static_cast<uint8_t*>(parts[1].data) - x;
    if (stride < 0 || stride % static_cast<ptrdiff_t>(item) != 0 ||
        static_cast<uint8_t*>(parts[2].data) - x != 2 * stride)
      fail(ErrorCode::kInternal, "the position components of the buffers are not evenly spaced");
    const std::shared_ptr<RowMapping>& m =
        mapping(pos.name, x, 2 * static_cast<size_t>(stride) + parts[0].rows * item, parts[0].memory);
    const size_t n = parts[0].rows;
    if (name == pos.name) {
      const size_t shape[2] = {3, n};
      const int64_t strides[2] = {stride / static_cast<int64_t>(item), 1};
      return array_of(m, 0, 2, shape, strides, pos.dtype);
    }
    const size_t shape[1] = {n};
    return array_of(m, static_cast<size_t>(stride) * static_cast<size_t>(name.back() - 'x'), 1, shape, nullptr,
                    pos.dtype);
  }

  void check_open() const {
    if (done_ || group_.buffers_step() != step_)
      fail(ErrorCode::kInvalidArgument, "the buffers of step ", step_, " of group '", group_.name(),
           "' are committed or discarded: open the step's buffers again for another step");
  }

  // The mapping of the rows [target, target + bytes) of allocation `memory`: this step's, a kept
  // one of the last step's for the same rows, or a new one.
  const std::shared_ptr<RowMapping>& mapping(const std::string& key, uint8_t* target, size_t bytes, uint64_t memory) {
    std::shared_ptr<RowMapping>& m = maps_[key];
    if (m) return m;
    for (auto it = spare_.begin(); it != spare_.end() && !m; ++it)
      if ((*it)->target == target && (*it)->bytes == bytes && (*it)->memory == memory && memory != 0) {
        m = std::move(*it);
        spare_.erase(it);
        return m;
      }
    m = map_rows(target, bytes, memory);
    return m;
  }

  // At the commit or discard: a mapping some array still holds is revoked (staged rows copied in
  // first when `keep`); one no array holds (only maps_ does) is kept for the next step.
  void finish(bool keep) {
    for (auto& [name, m] : maps_) {
      if (m.use_count() == 1 && !m->staged) kept_.push_back(std::move(m));
      else revoke(*m, keep);
    }
    maps_.clear();
    spare_.clear();
  }

  ParticleGroup& group_;
  int64_t step_;
  bool components_;
  bool done_ = false;
  std::map<std::string, std::shared_ptr<RowMapping>> maps_;   // this step's, by field
  std::vector<std::shared_ptr<RowMapping>> spare_;   // the last step's kept ones (adopt)
  std::vector<std::shared_ptr<RowMapping>> kept_;    // this step's, for the next (finish)
};

}  // namespace

void bind_buffers(nb::module_& m, nb::class_<ParticleGroup>& group) {
  m.def("_buffers_staging", [](bool on) { g_staging_only = on; }, nb::arg("on"));
  nb::class_<BufferViews>(m, "BufferViews")
      .def("array", &BufferViews::array, nb::arg("name"))
      .def("commit", &BufferViews::commit, nb::arg("request"))
      .def("discard", &BufferViews::discard)
      .def("adopt", &BufferViews::adopt, nb::arg("previous"))
      .def_prop_ro("open", &BufferViews::open)
      .def_prop_ro("in_window", &BufferViews::in_window);
  group.def(
      "open_buffers",
      [](ParticleGroup& g, const ParticleBuffers& r) {
        std::optional<lodex::Error> input_error = r.error;
        if (!input_error && r.positions != "interleaved" && r.positions != "components")
          input_error = lodex::Error(ErrorCode::kInvalidArgument,
                                     "positions must be 'interleaved' or 'components', got '" + r.positions + "'");
        std::optional<Box> pb;
        if (r.patch) pb = Box{r.patch->first, r.patch->second};
        const bool components = r.positions == "components";
        {
          nb::gil_scoped_release release;
          g.open_buffers(r.step, r.count, pb, components, input_error);   // an error: raised on every rank
        }
        return std::make_unique<BufferViews>(g, r.step, components);
      },
      nb::arg("request"), nb::keep_alive<0, 1>());
}

}  // namespace lodex::py
