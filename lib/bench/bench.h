// `mslport bench`: times emitted kernels on bench cases (bench/cases.h) on
// the OpenMP module and on OpenCL devices, measures each backend's memory
// roof in the same run (a triad; on OpenCL devices also a device-to-device
// buffer copy, the better of the two counts), and reports (bench/report.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/report.h"
#include "runtime/check_emitted.h"

namespace mslport::bench {

struct TimingPlan {
  int warmup = 2;               // untimed launches first
  int repeats = 0;              // timed launches; 0 = enough for target_seconds
  double target_seconds = 0.3;  // (estimated from the last warm-up launch)
  int min_repeats = 5, max_repeats = 1000;
};

// Calls launch(set) (returning one launch's seconds) warmup times, then the
// planned number of times, rotating over `sets` input sets; returns the
// timed launches' seconds.
std::vector<double> time_launches(const std::function<double(size_t set)>& launch, size_t sets,
                                  const TimingPlan& plan);

// Sleeps at least min_ms, then until the other threads of this process
// (OpenMP or PoCL workers spinning after a launch) use under 5 % of one core
// over 50 ms; false if they still did after max_ms.
bool wait_until_threads_idle(int min_ms = 100, int max_ms = 2000);

// The OpenMP roof's module (C++ source): c = a + s*b in each form of
// openmp_triad_forms() (roof method, entry point); the fastest is the roof.
const char* openmp_triad_source();
const std::vector<std::pair<std::string, std::string>>& openmp_triad_forms();

struct BenchRequest {
  std::vector<runtime::EmittedFiles> modules;  // emitted files, as for `mslport check`
  std::vector<std::string> targets;            // "openmp", "opencl"
  // OpenCL platforms: name substrings (case-insensitive; "pocl" matches
  // PoCL). Empty = every platform that has a device.
  std::vector<std::string> platforms;
  std::vector<std::string> kernels;  // empty = every kernel of the sources
  // SIMD-group functions on NVIDIA devices: "on" = warp shuffles (backend
  // "opencl/nvidia"), "off" = the portable emulation ("opencl/nvidia-noshfl"),
  // "both" = each NVIDIA device twice, for an A/B comparison in one run.
  std::string nvidia_shfl = "on";
  TimingPlan plan;
  std::string build_dir;             // where modules are compiled
  std::function<void(const std::string&)> progress;  // one line per measurement (optional)
};

BenchReport run_bench(const BenchRequest& request);

// "pocl" for PoCL, "nvidia" for NVIDIA's, else the first word, lowercased.
std::string short_platform_name(const std::string& platform_name);

}  // namespace mslport::bench
