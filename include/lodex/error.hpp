// lodex C++ API: errors, and the library's version.
//
// Every C call of the API returns a status; the C++ classes pass it through detail::check, which
// throws lodex::Error for any status but LODEX_OK. A collective call that fails throws on every
// rank of its communicator (the C API agrees on the error), so catching it does not leave other
// ranks waiting.
#pragma once

#include <lodex.h>

#include <stdexcept>
#include <string>

namespace lodex {

// A failed lodex call: code() is its C status (LODEX_ERR_*), what() the library's message
// (lodex_last_error(): what was expected, what was found, which file).
class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}

  int code() const noexcept { return code_; }
  // "invalid argument", "not found", ... (static storage).
  const char* code_name() const noexcept { return lodex_status_name(code_); }

 private:
  int code_;
};

namespace detail {

// Throws Error(status, the calling thread's last lodex message) unless status is LODEX_OK.
inline void check(int status) {
  if (status == LODEX_OK) return;
  const char* message = lodex_last_error();
  throw Error(status, message != nullptr && *message != '\0' ? message : lodex_status_name(status));
}

// For errors found on the C++ side, before any C call (a wrong element type, say).
[[noreturn]] inline void invalid_argument(const std::string& message) {
  throw Error(LODEX_ERR_INVALID_ARGUMENT, message);
}

}  // namespace detail

// The library's version, "MAJOR.MINOR.PATCH" (static storage). LODEX_VERSION (lodex/version.h)
// is the headers' version: they should agree.
inline const char* version() noexcept { return lodex_version(); }

}  // namespace lodex
