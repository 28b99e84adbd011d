// Each backend in a process of its own. In one process the OpenMP runtime's
// and PoCL's worker threads disturb each other: on the 16-core H100 host,
// in one `bench --target all` run, OpenMP's bf16_matvec read 14.7 GB/s
// against 58-73 alone, and OpenMP came out slower than PoCL on two kernels
// where an OpenMP-only run had it faster. So a run of several targets goes
// in rounds, and in each round every target is timed by a worker process of
// its own (the tool itself, run as `EXE --bench-worker REQUEST RESULT
// TURNS_FD STEPS_FD`), the round's workers started together and taking turns
// step by step (bench/turns.h): openmp times a kernel, then opencl, then
// openmp the next. The rounds' reports are merged: per kernel and backend the
// median of the rounds' medians, each round's median, and the ratio to PoCL
// in each round.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.h"

namespace mslport::bench {

// The first argument that makes mslport or mslport-run a bench worker.
constexpr const char* kWorkerFlag = "--bench-worker";

// This program's path (/proc/self/exe), to run it as a worker.
std::string self_executable(std::string* error);

// Runs request.rounds rounds of request.targets, each target in each round a
// worker process (`exe --bench-worker ...`), the round's workers taking
// turns, and merges their reports.
// Request and result files go to a folder of `work_dir`, removed after.
// The roofs are measured by each worker before its kernels and after the
// last; the best over all rounds counts.
BenchReport run_bench_isolated(const BenchRequest& request, const std::string& exe, const std::string& work_dir);

// The worker's side: reads the request file, runs run_bench (progress on
// stderr), writes the report to the result file. Returns the exit status:
// 0 when the report was written (whatever it says).
// With two descriptors (bench/turns.h: the one it reads turns from, the one
// it announces its steps on) it takes turns with the other targets' workers.
int bench_worker_main(const std::string& request_path, const std::string& result_path, int turns_fd = -1,
                      int steps_fd = -1);

// The files between the two (every field, the timings included).
std::string request_to_json(const BenchRequest& request);
bool request_from_json(const std::string& text, BenchRequest* request, std::string* error);
std::string report_to_json(const BenchReport& report);
bool report_from_json(const std::string& text, BenchReport* report, std::string* error);

// Merges the workers' reports, in the order they ran, into one of `rounds`
// rounds: each row's round_ms gathers its rounds' medians, ms is their
// median, p10 / p90 are over every launch; each roof is the best of all, its
// lowest the lowest of all; errors, warnings and skipped kernels once each.
// Calls finish_report.
BenchReport merge_rounds(const std::vector<BenchReport>& parts, int rounds);

}  // namespace mslport::bench
