#include "mpi/comm.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace lodex {

namespace {
constexpr size_t kMaxMessage = size_t{1} << 30;

// Waits for requests without spinning a core: after a short burst of tests it sleeps between
// tests, longer the longer the wait (at most 200 us, measured best for 8 ranks on 2 cores).
// Ranks that wait for an aggregator, or oversubscribed ranks sharing cores, then leave the CPU
// to the ranks doing the work.
// `limit_s` > 0: gives up after that many seconds (false); the requests are left as they are.
bool polite_waitall(std::vector<MPI_Request>& reqs, const char* operation, double limit_s = 0);

void polite_wait(MPI_Request req, const char* operation) {
  std::vector<MPI_Request> one{req};
  polite_waitall(one, operation);
}

// LODEX_JOIN_TIMEOUT: seconds a rank waits for the others to join a communicator (0: forever).
double join_timeout() {
  const char* env = std::getenv("LODEX_JOIN_TIMEOUT");
  if (!env || !*env) return 600;
  char* end = nullptr;
  const double s = std::strtod(env, &end);
  if (*end != '\0' || !(s >= 0))
    fail(ErrorCode::kInvalidArgument, "LODEX_JOIN_TIMEOUT must be a number of seconds (0: no limit), got \"", env,
         "\"");
  return s;
}

double now_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

bool polite_waitall(std::vector<MPI_Request>& reqs, const char* operation, double limit_s) {
  if (reqs.empty()) return true;
  const double start = limit_s > 0 ? now_seconds() : 0;
  long sleep_ns = 5000;   // grows while the wait goes on
  for (int polls = 0;; ++polls) {
    int done = 0;
    check_mpi(MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &done, MPI_STATUSES_IGNORE), operation);
    if (done) return true;
    if (limit_s > 0 && now_seconds() - start > limit_s) return false;
    if (polls > 64) {
      timespec ts{0, sleep_ns};
      nanosleep(&ts, nullptr);
      sleep_ns = std::min(sleep_ns * 2, 200000L);
    }
  }
}

// The wait for the communicator's duplicate, the first collective of every lodex call: a rank
// whose peers never join (they passed another communicator, or do not call) gets an error
// instead of waiting forever. The request cannot be cancelled; it is left behind.
void join_wait(MPI_Request req, int size) {
  const double limit = join_timeout();
  std::vector<MPI_Request> one{req};
  if (!polite_waitall(one, "MPI_Comm_idup", limit))
    fail(ErrorCode::kMpi, "not every rank of the communicator (", size, " ranks) joined this collective call within ",
         limit, " s: every rank must pass the same communicator to the same call (LODEX_JOIN_TIMEOUT sets the wait)");
}

// Sets an error handler and puts the previous one back when it goes.
class ErrhandlerSwap {
 public:
  ErrhandlerSwap(MPI_Comm comm, MPI_Errhandler handler) : comm_(comm) {
    MPI_Comm_get_errhandler(comm_, &previous_);
    MPI_Comm_set_errhandler(comm_, handler);
  }
  ~ErrhandlerSwap() {
    MPI_Comm_set_errhandler(comm_, previous_);
    MPI_Errhandler_free(&previous_);
  }
  ErrhandlerSwap(const ErrhandlerSwap&) = delete;
  ErrhandlerSwap& operator=(const ErrhandlerSwap&) = delete;

 private:
  MPI_Comm comm_;
  MPI_Errhandler previous_ = MPI_ERRHANDLER_NULL;
};

// The caller's communicator checked before any collective on it: a freed or never-made handle
// is an error here, not MPI's fatal error handler (MPI raises an invalid handle's error on
// MPI_COMM_WORLD or MPI_COMM_SELF, so both return errors while the handle is looked at).
int checked_size(MPI_Comm comm) {
  int size = 0, rc = MPI_SUCCESS;
  {
    const ErrhandlerSwap world(MPI_COMM_WORLD, MPI_ERRORS_RETURN), self(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    rc = MPI_Comm_size(comm, &size);
  }
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
    fail(ErrorCode::kMpi, "the communicator is not valid (freed, or not a communicator): ", std::string(text, len));
  }
  return size;
}
}  // namespace

void check_mpi(int rc, const char* operation) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  fail(ErrorCode::kMpi, operation, " failed: ", std::string(text, len));
}

bool mpi_active() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

bool mpi_thread_multiple() {
  if (!mpi_active()) return false;
  int level = MPI_THREAD_SINGLE;
  check_mpi(MPI_Query_thread(&level), "MPI_Query_thread");
  return level == MPI_THREAD_MULTIPLE;
}

std::pair<int, int> rank_and_size(MPI_Comm comm) {
  int rank = 0, size = 1;
  if (comm != MPI_COMM_NULL) {
    check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  }
  return {rank, size};
}

Comm::Comm(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) fail(ErrorCode::kInvalidArgument, "communicator is MPI_COMM_NULL");
  if (!mpi_active()) fail(ErrorCode::kMpi, "MPI is not initialized (or already finalized)");
  const int size = checked_size(comm);
  // The duplicate is made into a cell of its own: when the wait gives up, MPI may still complete
  // the request later and write there, so the cell is then left to it.
  auto cell = std::make_unique<MPI_Comm>(MPI_COMM_NULL);
  MPI_Request joined;
  check_mpi(MPI_Comm_idup(comm, cell.get(), &joined), "MPI_Comm_idup");
  try {
    join_wait(joined, size);
  } catch (...) {
    static_cast<void>(cell.release());
    throw;
  }
  comm_ = *cell;
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  check_mpi(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_), "MPI_Comm_split_type");
  split_node_for_testing();
  MPI_Group group, node_group;
  check_mpi(MPI_Comm_group(comm_, &group), "MPI_Comm_group");
  check_mpi(MPI_Comm_group(node_, &node_group), "MPI_Comm_group");
  std::vector<int> ranks(size_);
  for (int r = 0; r < size_; ++r) ranks[r] = r;
  node_rank_.assign(size_, MPI_UNDEFINED);
  const int rc = MPI_Group_translate_ranks(group, size_, ranks.data(), node_group, node_rank_.data());
  MPI_Group_free(&group);
  MPI_Group_free(&node_group);
  check_mpi(rc, "MPI_Group_translate_ranks");
  for (int& r : node_rank_)
    if (r == MPI_UNDEFINED) r = -1;
  // Every rank's node, named by its lowest rank: one allgather of this rank's node leader.
  int leader = rank_;
  for (int r = 0; r < size_; ++r)
    if (node_rank_[r] == 0) leader = r;
  node_of_.assign(size_, 0);
  check_mpi(MPI_Allgather(&leader, 1, MPI_INT, node_of_.data(), 1, MPI_INT, comm_), "MPI_Allgather");
}

void Comm::split_node_for_testing() {
  const char* env = std::getenv("LODEX_RANKS_PER_NODE");
  if (!env || !*env) return;
  char* end = nullptr;
  const long k = std::strtol(env, &end, 10);
  if (*end != '\0' || k < 1)
    fail(ErrorCode::kInvalidArgument, "LODEX_RANKS_PER_NODE must be a positive integer, got \"", env, "\"");
  int node_rank = 0;
  check_mpi(MPI_Comm_rank(node_, &node_rank), "MPI_Comm_rank");
  MPI_Comm part = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(node_, static_cast<int>(node_rank / k), node_rank, &part), "MPI_Comm_split");
  MPI_Comm_free(&node_);
  node_ = part;
}

void Comm::free_communicators() {
  if (mpi_active()) {
    if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  node_ = comm_ = MPI_COMM_NULL;
}

Comm::~Comm() { free_communicators(); }

Comm Comm::split(int color) const {
  if (!is_mpi()) return Comm();
  MPI_Comm c = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(comm_, color, rank_, &c), "MPI_Comm_split");
  Comm out(c);   // duplicates it
  MPI_Comm_free(&c);
  return out;
}

Comm::Comm(Comm&& o) noexcept
    : comm_(o.comm_),
      node_(o.node_),
      node_rank_(std::move(o.node_rank_)),
      node_of_(std::move(o.node_of_)),
      rank_(o.rank_),
      size_(o.size_) {
  o.comm_ = o.node_ = MPI_COMM_NULL;
}

Comm& Comm::operator=(Comm&& o) noexcept {
  if (this != &o) {
    free_communicators();
    comm_ = o.comm_;
    node_ = o.node_;
    node_rank_ = std::move(o.node_rank_);
    node_of_ = std::move(o.node_of_);
    rank_ = o.rank_;
    size_ = o.size_;
    o.comm_ = o.node_ = MPI_COMM_NULL;
  }
  return *this;
}

void Comm::node_barrier() const {
  if (node_ == MPI_COMM_NULL) return;
  MPI_Request r;
  check_mpi(MPI_Ibarrier(node_, &r), "MPI_Ibarrier");
  polite_wait(r, "MPI_Ibarrier");
}

uint64_t Comm::node_max(uint64_t v) const {
  if (node_ == MPI_COMM_NULL) return v;
  uint64_t out = 0;
  MPI_Request r;
  check_mpi(MPI_Iallreduce(&v, &out, 1, MPI_UINT64_T, MPI_MAX, node_, &r), "MPI_Iallreduce");
  polite_wait(r, "MPI_Iallreduce");
  return out;
}

void Comm::barrier() const {
  if (!is_mpi()) return;
  MPI_Request r;
  check_mpi(MPI_Ibarrier(comm_, &r), "MPI_Ibarrier");
  polite_wait(r, "MPI_Ibarrier");
}

void Comm::allgather(const void* send, size_t bytes, void* recv) const {
  if (!is_mpi()) {
    std::memcpy(recv, send, bytes);
    return;
  }
  if (bytes > static_cast<size_t>(INT32_MAX)) fail(ErrorCode::kInternal, "allgather block too large");
  MPI_Request r;
  check_mpi(MPI_Iallgather(send, static_cast<int>(bytes), MPI_BYTE, recv, static_cast<int>(bytes), MPI_BYTE, comm_, &r),
            "MPI_Iallgather");
  polite_wait(r, "MPI_Iallgather");
}

void Comm::bcast(void* data, size_t bytes, int root) const {
  if (!is_mpi()) return;
  for (size_t at = 0; at < bytes; at += kMaxMessage) {
    MPI_Request r;
    check_mpi(MPI_Ibcast(static_cast<uint8_t*>(data) + at, static_cast<int>(std::min(kMaxMessage, bytes - at)),
                         MPI_BYTE, root, comm_, &r),
              "MPI_Ibcast");
    polite_wait(r, "MPI_Ibcast");
  }
}

void Comm::bcast_string(std::string& s, int root) const {
  if (!is_mpi()) return;
  uint64_t n = s.size();
  bcast(&n, sizeof n, root);
  s.resize(n);
  bcast(s.data(), n, root);
}

uint64_t Comm::allreduce_u64(uint64_t v, MPI_Op op) const {
  if (!is_mpi()) return v;
  uint64_t out = 0;
  MPI_Request r;
  check_mpi(MPI_Iallreduce(&v, &out, 1, MPI_UINT64_T, op, comm_, &r), "MPI_Iallreduce");
  polite_wait(r, "MPI_Iallreduce");
  return out;
}

void Comm::allreduce_f64(std::vector<double>& v, MPI_Op op) const {
  if (!is_mpi() || v.empty()) return;
  if (v.size() > static_cast<size_t>(INT32_MAX)) fail(ErrorCode::kInternal, "allreduce vector too long");
  MPI_Request r;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_DOUBLE, op, comm_, &r),
            "MPI_Iallreduce");
  polite_wait(r, "MPI_Iallreduce");
}

bool Comm::same_everywhere(uint64_t v) const {
  std::vector<uint64_t> both{v, ~v};   // min(v) == max(v) <=> min(v) == ~min(~v)
  allreduce_u64(both, MPI_MIN);
  return both[0] == ~both[1];
}

void Comm::allreduce_u64(std::vector<uint64_t>& v, MPI_Op op) const {
  if (!is_mpi() || v.empty()) return;
  if (v.size() > static_cast<size_t>(INT32_MAX)) fail(ErrorCode::kInternal, "allreduce vector too long");
  MPI_Request r;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_UINT64_T, op, comm_, &r),
            "MPI_Iallreduce");
  polite_wait(r, "MPI_Iallreduce");
}

std::vector<uint8_t> Comm::gatherv(const std::vector<uint8_t>& mine, int root) const {
  if (!is_mpi()) return mine;
  const int n = static_cast<int>(mine.size());
  if (mine.size() > static_cast<size_t>(INT32_MAX)) fail(ErrorCode::kInternal, "gatherv block too large");
  std::vector<int> counts(rank_ == root ? size_ : 0), displs(counts.size());
  MPI_Request r;
  check_mpi(MPI_Igather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm_, &r), "MPI_Igather");
  polite_wait(r, "MPI_Igather");
  std::vector<uint8_t> out;
  if (rank_ == root) {
    int64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      displs[r] = static_cast<int>(total);
      total += counts[r];
    }
    if (total > INT32_MAX) fail(ErrorCode::kInternal, "gatherv total too large");
    out.resize(static_cast<size_t>(total));
  }
  check_mpi(MPI_Igatherv(mine.data(), n, MPI_BYTE, out.data(), counts.data(), displs.data(), MPI_BYTE, root, comm_, &r),
            "MPI_Igatherv");
  polite_wait(r, "MPI_Igatherv");
  return out;
}

void Comm::agree(const std::function<void()>& fn) const {
  ErrorCode code = ErrorCode::kOk;
  std::string message;
  try {
    fn();
  } catch (...) {
    const Error e = current_error();
    code = e.code();
    message = e.what();
  }
  if (!is_mpi()) {
    if (code != ErrorCode::kOk) throw Error(code, message);
    return;
  }
  const int first = static_cast<int>(
      allreduce_u64(code == ErrorCode::kOk ? static_cast<uint64_t>(size_) : static_cast<uint64_t>(rank_), MPI_MIN));
  if (first == size_) return;
  int32_t c = static_cast<int32_t>(code);
  bcast(&c, sizeof c, first);
  bcast_string(message, first);
  throw Error(static_cast<ErrorCode>(c), size_ > 1 ? cat("rank ", first, ": ", message) : message);
}

void Comm::agree(const std::optional<Error>& input_error, const std::function<void()>& fn) const {
  if (!input_error) return agree(fn);
  const Error e =
      input_error->code() == ErrorCode::kOk ? Error(ErrorCode::kInternal, input_error->what()) : *input_error;
  agree([&] { throw e; });
}

void Exchange::isend(const void* data, size_t bytes, int dest, int tag) {
  const auto* p = static_cast<const uint8_t*>(data);
  do {
    const size_t n = std::min(bytes, kMaxMessage);
    requests_.emplace_back();
    check_mpi(MPI_Isend(p, static_cast<int>(n), MPI_BYTE, dest, tag, comm_.raw(), &requests_.back()), "MPI_Isend");
    p += n;
    bytes -= n;
  } while (bytes > 0);
}

void Exchange::irecv(void* data, size_t bytes, int source, int tag) {
  auto* p = static_cast<uint8_t*>(data);
  do {
    const size_t n = std::min(bytes, kMaxMessage);
    requests_.emplace_back();
    check_mpi(MPI_Irecv(p, static_cast<int>(n), MPI_BYTE, source, tag, comm_.raw(), &requests_.back()), "MPI_Irecv");
    p += n;
    bytes -= n;
  } while (bytes > 0);
}

namespace {
// Frees a committed datatype when it leaves scope (MPI keeps it alive for pending operations).
struct TypeGuard {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  ~TypeGuard() {
    if (t != MPI_DATATYPE_NULL && mpi_active()) MPI_Type_free(&t);
  }
};

void ranges_type(const std::vector<Exchange::Range>& ranges, TypeGuard& out) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> displs;
  for (const auto& r : ranges) {
    const auto* p = static_cast<const uint8_t*>(r.data);
    for (uint64_t done = 0; done < r.bytes;) {
      const uint64_t n = std::min<uint64_t>(r.bytes - done, uint64_t{1} << 30);
      MPI_Aint a;
      check_mpi(MPI_Get_address(p + done, &a), "MPI_Get_address");
      lengths.push_back(static_cast<int>(n));
      displs.push_back(a);
      done += n;
    }
  }
  if (lengths.size() > static_cast<size_t>(INT32_MAX)) fail(ErrorCode::kInternal, "too many ranges in one message");
  check_mpi(MPI_Type_create_hindexed(static_cast<int>(lengths.size()), lengths.data(), displs.data(), MPI_BYTE, &out.t),
            "MPI_Type_create_hindexed");
  check_mpi(MPI_Type_commit(&out.t), "MPI_Type_commit");
}

void boxes_type(const std::vector<Exchange::SubBox>& boxes, TypeGuard& out) {
  std::vector<TypeGuard> parts(boxes.size());
  std::vector<TypeGuard> elems(boxes.size());
  std::vector<MPI_Datatype> types;
  std::vector<int> ones(boxes.size(), 1);
  std::vector<MPI_Aint> displs;
  for (size_t i = 0; i < boxes.size(); ++i) {
    const auto& b = boxes[i];
    check_mpi(MPI_Type_contiguous(b.elem, MPI_BYTE, &elems[i].t), "MPI_Type_contiguous");
    check_mpi(
        MPI_Type_create_subarray(3, b.sizes.data(), b.sub.data(), b.start.data(), MPI_ORDER_C, elems[i].t, &parts[i].t),
        "MPI_Type_create_subarray");
    MPI_Aint a;
    check_mpi(MPI_Get_address(b.base, &a), "MPI_Get_address");
    types.push_back(parts[i].t);
    displs.push_back(a);
  }
  check_mpi(MPI_Type_create_struct(static_cast<int>(boxes.size()), ones.data(), displs.data(), types.data(), &out.t),
            "MPI_Type_create_struct");
  check_mpi(MPI_Type_commit(&out.t), "MPI_Type_commit");
}
}  // namespace

void Exchange::isend_ranges(const std::vector<Range>& ranges, int dest, int tag) {
  TypeGuard t;
  ranges_type(ranges, t);
  requests_.emplace_back();
  check_mpi(MPI_Isend(MPI_BOTTOM, 1, t.t, dest, tag, comm_.raw(), &requests_.back()), "MPI_Isend");
}

void Exchange::irecv_ranges(const std::vector<Range>& ranges, int source, int tag) {
  TypeGuard t;
  ranges_type(ranges, t);
  requests_.emplace_back();
  check_mpi(MPI_Irecv(MPI_BOTTOM, 1, t.t, source, tag, comm_.raw(), &requests_.back()), "MPI_Irecv");
}

void Exchange::isend_boxes(const std::vector<SubBox>& boxes, int dest, int tag) {
  TypeGuard t;
  boxes_type(boxes, t);
  requests_.emplace_back();
  check_mpi(MPI_Isend(MPI_BOTTOM, 1, t.t, dest, tag, comm_.raw(), &requests_.back()), "MPI_Isend");
}

void Exchange::irecv_boxes(const std::vector<SubBox>& boxes, int source, int tag) {
  TypeGuard t;
  boxes_type(boxes, t);
  requests_.emplace_back();
  check_mpi(MPI_Irecv(MPI_BOTTOM, 1, t.t, source, tag, comm_.raw(), &requests_.back()), "MPI_Irecv");
}

void Exchange::wait_all(bool polite) {
  if (requests_.empty()) return;
  if (polite) {
    std::vector<MPI_Request> reqs;
    reqs.swap(requests_);
    polite_waitall(reqs, "MPI_Testall");
    return;
  }
  // Both sides move bytes here, and MPI progresses large messages only while it is polled: a
  // busy wait, unlike the polite waits of the collectives above.
  const int rc = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  check_mpi(rc, "MPI_Waitall");
}

Exchange::~Exchange() {
  // An exception between posting and waiting must not leave MPI writing into freed buffers.
  if (!requests_.empty() && mpi_active())
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

}  // namespace lodex
