// `mslport bench`: times emitted kernels on bench cases (bench/cases.h) on
// the OpenMP module and on OpenCL devices, measures each backend's memory
// roof in the same run (a triad; on OpenCL devices also a device-to-device
// buffer copy, the better of the two counts), and reports (bench/report.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/report.h"
#include "bench/turns.h"
#include "runtime/bench_support.h"
#include "runtime/check_emitted.h"

namespace mslport::bench {

struct TimingPlan {
  int warmup = 2;   // untimed launches first
  int repeats = 0;  // timed launches over all rounds; 0 = enough for target_seconds in each round
  // Timed seconds per round (estimated from the last warm-up launch). Half a
  // second, not less: on the 16-core H100 host one core's speed moved 20-40 %
  // from one 0.3 s sample to the next (scripts/bench/h100-cpuprobe.c), and a
  // round timed in 60 ms (~0.3 s split over five rounds) saw one such state:
  // PoCL's dequant_matvec_4bit_v5 rounds held 91-181 ms, and two full runs'
  // medians of five rounds then differed by 20 %.
  double target_seconds = 0.5;
  int min_repeats = 5;     // over all rounds (at least 2 a round)
  int max_repeats = 1000;  // a round
};

// Calls launch(set) (returning one launch's seconds) warmup times, then the
// planned number of times, rotating over `sets` input sets; returns the
// timed launches' seconds.
std::vector<double> time_launches(const std::function<double(size_t set)>& launch, size_t sets, const TimingPlan& plan);

// Sleeps at least min_ms, then until the other threads of this process
// (OpenMP or PoCL workers spinning after a launch) use under 5 % of one core
// in two 50 ms windows in a row; false if they still did after max_ms.
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
  // Only the OpenCL platform at this position in clGetPlatformIDs (-1: every
  // platform `platforms` selects). run_bench_isolated gives each platform a
  // worker process of its own.
  int platform_index = -1;
  std::vector<std::string> kernels;  // empty = every kernel of the sources
  // SIMD-group functions on NVIDIA devices: "on" = warp shuffles (backend
  // "opencl/nvidia"), "off" = the portable emulation ("opencl/nvidia-noshfl"),
  // "both" = each NVIDIA device twice, for an A/B comparison in one run.
  std::string nvidia_shfl = "on";
  TimingPlan plan;
  // Rounds per kernel: every backend's launches split into this many turns
  // (A B A B ..., in this process; run_bench_isolated runs each round of
  // each backend in a process of its own instead).
  int rounds = 3;
  // Measure the roofs again after every kernel; false: before the kernels
  // and after the last only.
  bool roofs_between_kernels = true;
  // Warn when the load average says other processes compete for the CPUs
  // (busy_machine_warnings).
  bool warn_if_busy = true;
  // Golden cases instead of the compiled-in bench cases (`bench --golden
  // DIR`): every kernel that has a case there, on its largest case or the
  // one named `case_name` (bench/golden_cases.h). A case that gives function
  // constants runs on the module translated with them
  // (EmittedFiles::function_constants).
  std::string golden_dir;
  std::string case_name;
  // Every kernel the sources define, when the caller knows them (translated
  // or not): then a kernel asked for that has no case is an error before
  // anything is built or measured. Empty: learned from the modules.
  std::vector<std::string> source_kernels;
  std::string build_dir;                             // where modules are compiled
  std::function<void(const std::string&)> progress;  // one line per measurement (optional)
  // Called before each step that uses the machine (a roof, a kernel's input
  // sets, one round of a kernel), in that order; returns when this process
  // may take it (bench/turns.h). Empty: nothing to take turns with.
  std::function<void(const TurnStep&)> turn;
};

// Whether the `--platform` filters (name substrings, case-insensitive, or
// the short name: "pocl", "nvidia") select this OpenCL platform; no filter
// selects every platform.
bool platform_selected(const runtime::OpenClDeviceInfo& d, const std::vector<std::string>& filters);

// The platforms the filters select, in order, each with its backend name:
// its short name ("pocl", "nvidia"), followed by its platform index when an
// earlier one has that name. run_bench and the worker per platform of
// run_bench_isolated name them alike.
struct NamedPlatform {
  runtime::OpenClDeviceInfo device;
  std::string name;
};
std::vector<NamedPlatform> selected_platforms(const std::vector<runtime::OpenClDeviceInfo>& devices,
                                              const std::vector<std::string>& filters);

BenchReport run_bench(const BenchRequest& request);

// The kernels run_bench would time, sorted, when they are known before
// anything is built (from source_kernels, or from every module's
// .bindings.json); the kernels it would not time go to report->errors (asked
// by name, or nothing at all to time) or report->skipped. nullopt when only
// a build can tell.
std::optional<std::vector<std::string>> kernels_to_time(const BenchRequest& request, BenchReport* report);

// "the 1-minute load average was ..." when it exceeds half the CPUs, else
// nothing.
std::vector<std::string> busy_machine_warnings();

// A round's share of a plan of `rounds` rounds: the launches asked for
// (repeats) and min_repeats divided (at least 2 a round); target_seconds and
// max_repeats are a round's already.
TimingPlan round_share(TimingPlan plan, int rounds);

// "pocl" for PoCL, "nvidia" for NVIDIA's, else the first word, lowercased.
std::string short_platform_name(const std::string& platform_name);

}  // namespace mslport::bench
