// Results of `mslport bench` and their table / JSON forms.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mslport::bench {

// One kernel on one backend. A backend is "<target>/<platform>": the
// OpenMP module is "openmp/cpu", an OpenCL device "opencl/<platform>"
// ("pocl", "nvidia", ...).
struct BenchRow {
  std::string kernel, target, platform;
  std::string description;  // the bench case's sizes
  std::string case_name;    // the golden case timed (bench --golden); empty for a compiled-in bench case
  uint64_t bytes = 0;       // bytes read + written per launch (BenchReport::bytes_model)
  size_t repeats = 0;       // timed launches, all rounds together
  // The median launch time: with several rounds, the median of the rounds'
  // medians (each round a separate process when backends are isolated).
  // p10 / p90: of every launch of every round.
  double ms = 0, ms_p10 = 0, ms_p90 = 0;
  std::vector<double> round_ms;   // per round, the median of its launches
  std::vector<double> launch_ms;  // every timed launch (merging rounds; not reported)
  // Filled by finish_report:
  double gbps = 0;                      // bytes / median time
  std::optional<double> roof_fraction;  // gbps / this backend's roof
  std::optional<double> vs_pocl;        // PoCL's median time / this row's, same kernel
  // Per round, PoCL's median time / this row's in the same round (when both
  // have the same number of rounds).
  std::vector<double> vs_pocl_rounds;
  // (max - min) / median of round_ms; 0 with one round.
  double spread() const;
  std::string backend() const { return target + "/" + platform; }
};

struct Roof {
  std::string backend;      // "<target>/<platform>"
  std::string device;       // what ran it, in words
  uint64_t bytes = 0;       // per launch (triad: 3 arrays; copy: read + written)
  double ms = 0, gbps = 0;  // the best measurement
  // The roof is measured before the kernels, after each kernel and after
  // the last (this machine's bandwidth moves with its other tenants): how
  // many measurements, and the lowest (0 = one measurement).
  int samples = 1;
  double gbps_lowest = 0;
  // Of the best: "triad" (c = a + s*b as the compiler vectorises it),
  // "triad-256" (in 256-bit vectors), "triad-inplace" (c = c + s*b),
  // "triad-nt" (non-temporal stores) or "copy" (a device-to-device buffer
  // copy).
  std::string method = "triad";
  std::map<std::string, double> method_gbps;  // the best of each method measured
  // OpenCL: the median device time of a launch that does nothing, in
  // microseconds (0 = not measured). Every kernel's time includes it; a
  // kernel of a few tens of microseconds loses that much bandwidth to it.
  double empty_launch_us = 0;
  // OpenMP: the best GB/s of a loop that only reads (two arrays summed), 0 =
  // not measured. Not a roof; what a kernel that only streams in can reach.
  double read_gbps = 0;
  // Records a measurement of one method; true if it is the roof's best yet.
  bool add(const std::string& how, uint64_t launch_bytes, double launch_ms);
};

struct BenchReport {
  std::vector<Roof> roofs;
  std::vector<BenchRow> rows;
  std::vector<std::string> skipped;   // "kernel: why" (no bench case)
  std::vector<std::string> errors;    // "kernel on backend: message"
  std::vector<std::string> warnings;  // e.g. a busy machine
  uint64_t cache_bytes = 0;           // the largest cache the input sets were sized to exceed
  int rounds = 1;                     // rounds per kernel and backend
  // "process": every round of every backend in a process of its own (the
  // backends' worker threads cannot disturb each other); "none": the
  // backends took turns in one process.
  std::string isolation = "none";
  // "minimum": the compiled-in cases' minimum traffic; "buffers": golden
  // cases, each buffer read counted once and each written once.
  std::string bytes_model = "minimum";
};

// Computes gbps, roof_fraction and vs_pocl on every row.
void finish_report(BenchReport* report);

// Geometric mean of vs_pocl over the rows of `backend` that have it.
std::optional<double> geomean_vs_pocl(const BenchReport& report, const std::string& backend);

// A table: roofs, then kernel x backend rows (median ms with p10..p90,
// repeats, MB moved, GB/s, % of roof, ratio to PoCL), the geometric mean of
// the ratio to PoCL per backend, skipped kernels and errors.
std::string format_bench_table(const BenchReport& report);

// Exactly {"roof_gbps": {"<target>/<platform>": N}, "rounds": N, "isolation": "process"|"none",
//          "bytes_model": "minimum"|"buffers",
//          "results": [{"kernel","case","target","platform","ms","round_ms","spread","gbps",
//                       "roof_fraction","vs_pocl","vs_pocl_rounds"}]}
// (case, roof_fraction, vs_pocl and vs_pocl_rounds null where they do not
// apply; round_ms: each round's median; spread: (max - min) / ms of them).
std::string format_bench_json(const BenchReport& report);

// What scripts/plot_bench.py reads: the JSON above plus, per result, the
// GB/s at p10/p90 of the time and the description, and per roof the device.
std::string format_plot_json(const BenchReport& report);

}  // namespace mslport::bench
