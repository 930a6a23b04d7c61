#include "core/error.hpp"

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

}  // namespace lodex
