// The options and output of a bench run, shared by `mslport bench` (which
// translates .metal sources first) and `mslport-run bench` (which times
// already-emitted files and links no libclang): the same flags, the same
// table / JSON, the same plot.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bench/bench.h"

namespace CLI {
class App;
}

namespace mslport::tool {

struct BenchCliOptions {
  std::vector<std::string> kernels;
  std::string target = "all";          // openmp, opencl, all
  std::vector<std::string> platforms;  // OpenCL platform name substrings; empty = every platform with a device
  std::string format = "table";
  std::string plot;  // PNG path; empty = no plot
  int repeats = 0;   // 0 = enough for ~0.5 s per kernel, backend and round
  std::string work_dir;
  std::string nvidia_shfl = "on";  // on, off, both (bench::BenchRequest::nvidia_shfl)
  std::string golden_dir;          // --golden: time kernels on their golden cases
  std::string case_name;           // --case: the golden case of this name (default: the largest)
  int rounds = 3;                  // --rounds
  bool same_process = false;       // --same-process: no worker processes
};

// Adds --kernel, --target, --platform, --format, --plot, --repeats,
// --work-dir, --nvidia-shfl, --golden, --case, --rounds and --same-process
// to `cmd`.
void add_bench_options(CLI::App* cmd, BenchCliOptions* options);

// Fills everything of `req` but the modules from the options and creates
// the work directory (`tool` names the program in messages). Returns 0, or
// 2 after printing why the options are unusable.
int make_bench_request(const BenchCliOptions& options, const std::string& tool, bench::BenchRequest* req,
                       std::filesystem::path* work_dir);

// Runs the request (with several targets and without --same-process, each
// target of each round in a worker process of its own: bench/isolated.h),
// prints the report (--format) on stdout and problems on
// stderr, writes the plot (--plot FILE.png, its data beside it as
// FILE.png.json). Returns the exit status: 1 if `earlier_failures` or
// anything failed, else 0.
int run_and_report(const BenchCliOptions& options, const std::string& tool, const bench::BenchRequest& req,
                   bool earlier_failures);

}  // namespace mslport::tool
