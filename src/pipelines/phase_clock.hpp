// Per-phase wall-clock accounting of a pipeline: lap(p) adds the time since the previous lap to p.
#pragma once

#include <chrono>

namespace lodex {

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

  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

 private:
  double last_;
};

}  // namespace lodex
