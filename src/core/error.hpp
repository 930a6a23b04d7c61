// One error model for all of lodex. Every failure is an lodex::Error carrying a code and a
// message that says what was expected and what was found (and, for files, which file and which
// byte offset). Language boundaries convert it once: Python maps codes to exception classes.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace lodex {

enum class ErrorCode : int {
  kOk = 0,
  kInvalidArgument = 1,  // the caller passed something wrong
  kNotFound = 2,         // a dataset, group, step or field that does not exist
  kAlreadyExists = 3,    // creating something that is already there
  kIo = 4,               // the operating system refused (permissions, full disk, ...)
  kFormat = 5,           // a file is malformed, truncated or fails its checksum
  kMpi = 6,              // an MPI call failed
  kUnsupported = 7,      // valid request that this version does not implement
  kInternal = 8,         // a broken invariant inside lodex
};

const char* error_code_name(ErrorCode code);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

// Concatenates anything streamable: cat("expected ", 3, " components, found ", n).
template <typename... Args>
std::string cat(Args&&... args) {
  std::ostringstream out;
  out.precision(17);
  (out << ... << std::forward<Args>(args));
  return out.str();
}

template <typename... Args>
[[noreturn]] void fail(ErrorCode code, Args&&... args) {
  throw Error(code, cat(std::forward<Args>(args)...));
}

// Inside a catch block: the exception being handled as an Error, the one conversion every
// catch uses that feeds an agreement between ranks (or the C API's status), so that no kind of
// exception can leave one rank out of a collective. Error as it is (code kOk, which would read
// as success, becomes kInternal); std::bad_alloc kIo "out of memory"; any other std::exception
// and anything else kInternal naming it.
Error current_error();

}  // namespace lodex
