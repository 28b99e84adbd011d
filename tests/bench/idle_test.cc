#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "bench/bench.h"

namespace mslport::bench {
namespace {

// The pause between backends outlasts a worker that keeps spinning (the
// spinner stops itself 400 ms in; the wait must not end before that), and
// returns once the process is idle.
TEST(WaitUntilThreadsIdle, OutlastsASpinningWorkerThenReturns) {
  std::atomic<bool> stopped{false};
  const auto t0 = std::chrono::steady_clock::now();
  std::thread spinner([&] {
    volatile unsigned long x = 0;
    while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(400)) x = x + 1;
    stopped = true;
  });
  const bool idle = wait_until_threads_idle(/*min_ms=*/10, /*max_ms=*/5000);
  const bool spinner_done = stopped.load();
  spinner.join();
  EXPECT_TRUE(idle);
  EXPECT_TRUE(spinner_done);
}

TEST(WaitUntilThreadsIdle, GivesUpAfterMaxWhileAWorkerSpins) {
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    volatile unsigned long x = 0;
    while (!stop) x = x + 1;
  });
  EXPECT_FALSE(wait_until_threads_idle(/*min_ms=*/10, /*max_ms=*/300));
  stop = true;
  spinner.join();
}

}  // namespace
}  // namespace mslport::bench
