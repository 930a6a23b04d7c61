// Per-phase wall-clock accounting of a pipeline: lap(p) adds the time since the previous lap to p.
#pragma once

#include <chrono>

namespace lodex {

// Seconds on the steady clock (differences of two calls are elapsed wall time).
inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <int kPhases>
class PhaseClock {
 public:
  PhaseClock() : last_(now()) {}
  void lap(int phase) {
    const double t = now();
    seconds[phase] += t - last_;
    last_ = t;
  }
  double seconds[kPhases] = {};

  static double now() { return wall_seconds(); }

 private:
  double last_;
};

}  // namespace lodex
