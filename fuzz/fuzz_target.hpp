// Shared by every fuzz target: the entry point libFuzzer (or fuzz/replay_main.cpp) calls, and
// the rule every target keeps — a decoder may reject its input only with an lodex::Error; any
// other exception is a bug and aborts, so the fuzzer reports it like a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "core/error.hpp"

namespace lodex::fuzz {

// A little-endian u64 at p (the byte order of every lodex format).
inline uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

template <typename F>
int run_guarded(F&& body) {
  try {
    body();
  } catch (const lodex::Error& e) {
    // A typed rejection: what a damaged input should get. LODEX_FUZZ_VERBOSE=1 prints it.
    static const bool verbose = std::getenv("LODEX_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "rejected: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "untyped exception escaped a decoder: %s\n", e.what());
    std::abort();
  }
  return 0;
}

}  // namespace lodex::fuzz

#define LODEX_FUZZ_TARGET(body)                                             \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { \
    return lodex::fuzz::run_guarded([&] { body(data, size); });             \
  }
