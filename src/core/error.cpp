#include "core/error.hpp"

#include <exception>
#include <new>

namespace lodex {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kNotFound: return "not found";
    case ErrorCode::kAlreadyExists: return "already exists";
    case ErrorCode::kIo: return "I/O error";
    case ErrorCode::kFormat: return "format error";
    case ErrorCode::kMpi: return "MPI error";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kInternal: return "internal error";
  }
  return "unknown error";
}

Error current_error() {
  try {
    throw;
  } catch (const Error& e) {
    if (e.code() == ErrorCode::kOk) return Error(ErrorCode::kInternal, e.what());
    return e;
  } catch (const std::bad_alloc&) {
    return Error(ErrorCode::kIo, "out of memory");
  } catch (const std::exception& e) {
    return Error(ErrorCode::kInternal, cat("unexpected C++ exception: ", e.what()));
  } catch (...) {
    return Error(ErrorCode::kInternal, "unexpected non-standard C++ exception");
  }
}

}  // namespace lodex
