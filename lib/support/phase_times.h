// Wall time the translator spends in each named phase, summed over the
// threads that translate files in parallel (`mslport regen --time-report`).
// Cheap enough to leave on: one steady_clock read at each end of a phase.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace mslport {

struct PhaseTime {
  std::string phase;
  double seconds = 0;
  int count = 0;
};

// Adds `seconds` to `phase` (thread-safe).
void add_phase_time(const char* phase, double seconds);
// Every phase so far, in the order each was first seen.
std::vector<PhaseTime> phase_times();

// Times the enclosing scope as `phase`.
class PhaseTimer {
 public:
  explicit PhaseTimer(const char* phase) : phase_(phase), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    add_phase_time(phase_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  const char* phase_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace mslport
