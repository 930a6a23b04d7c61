// Test helper shared by the C++ tests: run a callable that must throw lodex::Error.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "core/error.hpp"

namespace lodex {

// Runs `fn`, expects an lodex::Error with `code`, and returns its message.
template <typename Fn>
std::string expect_error(ErrorCode code, Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected lodex::Error with code " << error_code_name(code);
  return "";
}

// The error code `fn` throws; kOk if it returns. Anything but lodex::Error fails the test.
inline ErrorCode code_of(const std::function<void()>& fn, std::string* message = nullptr) {
  try {
    fn();
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.code();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "non-lodex exception: " << e.what();
    return ErrorCode::kInternal;
  }
  return ErrorCode::kOk;
}

}  // namespace lodex
