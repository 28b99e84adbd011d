#include "support/phase_times.h"

#include <cstring>
#include <mutex>

namespace mslport {

namespace {
std::mutex& times_mutex() {
  static std::mutex m;
  return m;
}
std::vector<PhaseTime>& times() {
  static std::vector<PhaseTime> t;
  return t;
}
}  // namespace

void add_phase_time(const char* phase, double seconds) {
  std::lock_guard<std::mutex> lock(times_mutex());
  for (auto& t : times())
    if (t.phase == phase) {
      t.seconds += seconds;
      ++t.count;
      return;
    }
  times().push_back({phase, seconds, 1});
}

std::vector<PhaseTime> phase_times() {
  std::lock_guard<std::mutex> lock(times_mutex());
  return times();
}

}  // namespace mslport
