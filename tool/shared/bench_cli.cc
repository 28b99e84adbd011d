#include "bench_cli.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <iostream>

#include "bench/isolated.h"
#include "support/atomic_file.h"
#include "support/install_paths.h"
#include "support/subprocess.h"
#include "support/work_dir.h"

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

// The chart's data goes beside the PNG (FILE.png.json), so a machine without
// matplotlib still leaves what scripts/plot_bench.py needs.
int plot(const bench::BenchReport& report, const std::string& tool, const std::string& png) {
  const char* py_env = std::getenv("MSLPORT_PYTHON");
  std::string python = py_env && *py_env ? py_env : "/usr/bin/python3";
  const char* script_env = std::getenv("MSLPORT_PLOT_SCRIPT");
  std::string script = script_env && *script_env ? script_env : install_paths().plot_script();
  std::string data = png + ".json";
  std::string err;
  if (!write_file_atomic(data, bench::format_plot_json(report), &err)) {
    std::cerr << tool << ": error: " << err << "\n";
    return 1;
  }
  ProcessResult pr = run_process({python, script, data, png});
  std::cerr << pr.output;
  if (!pr.ok()) {
    std::cerr << tool << ": error: plotting failed (" << display_command({python, script}) << ": " << pr.describe()
              << "; it needs python3-matplotlib); the chart's data is in " << data << "\n";
    return 1;
  }
  std::cerr << tool << ": wrote " << png << " (data: " << data << ")\n";
  return 0;
}

}  // namespace

void add_bench_options(CLI::App* cmd, BenchCliOptions* o) {
  cmd->add_option("--kernel", o->kernels, "Only these kernels");
  cmd->add_option("--target", o->target, "openmp, opencl or all")
      ->check(CLI::IsMember({"openmp", "opencl", "all"}))
      ->capture_default_str();
  cmd->add_option("--platform", o->platforms,
                  "OpenCL platform name substring, repeatable (default: every platform with a device)");
  cmd->add_option("--format", o->format, "table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  cmd->add_option("--plot", o->plot,
                  "Also write a bar chart (PNG) of GB/s per kernel and backend vs the roofs (its data: PNG.json)");
  cmd->add_option("--repeats", o->repeats,
                  "Timed launches per kernel and backend, over all rounds (default: ~0.5 s worth in each round, "
                  "2..1000 a round)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--work-dir", o->work_dir, "Where emitted code is built (default: a temp dir)");
  cmd->add_option("--nvidia-shfl", o->nvidia_shfl,
                  "SIMD-group functions on NVIDIA devices: on (warp shuffles), off (the portable emulation, backend "
                  "opencl/nvidia-noshfl) or both")
      ->check(CLI::IsMember({"on", "off", "both"}))
      ->capture_default_str();
  cmd->add_option("--golden", o->golden_dir,
                  "Time every kernel that has a golden case in DIR, on its largest case (by the bytes of its buffers), "
                  "instead of the bench cases compiled into the tool")
      ->type_name("DIR");
  cmd->add_option("--case", o->case_name, "With --golden: the case of this name instead of the largest")
      ->type_name("NAME");
  cmd->add_option("--rounds", o->rounds,
                  "Rounds per kernel and backend; with several targets each round of each target runs in a process "
                  "of its own, the round's processes taking turns kernel by kernel (openmp, opencl, openmp, ...)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--same-process", o->same_process,
                "Time every target in this process, taking turns (their worker threads then disturb each other)");
}

int make_bench_request(const BenchCliOptions& opt, const std::string& tool, bench::BenchRequest* req, fs::path* work) {
  if (opt.target == "all") req->targets = {"openmp", "opencl"};
  else if (opt.target == "openmp" || opt.target == "opencl") req->targets = {opt.target};
  else {
    std::cerr << tool << ": error: unknown target '" << opt.target << "' (openmp, opencl, all)\n";
    return 2;
  }
  if (opt.repeats < 0) {
    std::cerr << tool << ": error: --repeats must be positive\n";
    return 2;
  }
  std::string root, err;
  if (!prepare_work_root(opt.work_dir, &root, &err)) {
    std::cerr << tool << ": error: " << err << "\n";
    return 1;
  }
  *work = root;
  req->build_dir = (*work / "build").string();
  req->platforms = opt.platforms;
  req->kernels = opt.kernels;
  req->plan.repeats = opt.repeats;
  req->nvidia_shfl = opt.nvidia_shfl;
  if (!opt.case_name.empty() && opt.golden_dir.empty()) {
    std::cerr << tool << ": error: --case names a golden case: it needs --golden DIR\n";
    return 2;
  }
  if (opt.rounds < 1) {
    std::cerr << tool << ": error: --rounds must be positive\n";
    return 2;
  }
  req->golden_dir = opt.golden_dir;
  req->case_name = opt.case_name;
  req->rounds = opt.rounds;
  req->progress = [](const std::string& line) { std::cerr << "bench: " << line << "\n"; };
  return 0;
}

int run_and_report(const BenchCliOptions& opt, const std::string& tool, const bench::BenchRequest& req, bool failed) {
  bench::BenchReport report;
  if (req.targets.size() > 1 && !opt.same_process) {
    std::string err;
    std::string exe = bench::self_executable(&err);
    if (exe.empty()) {
      std::cerr << tool << ": error: " << err << " (--same-process times the targets in this process)\n";
      return 2;
    }
    report = bench::run_bench_isolated(req, exe, fs::path(req.build_dir).parent_path().string());
  } else {
    report = bench::run_bench(req);
  }
  if (opt.format == "json") {
    std::cout << bench::format_bench_json(report);
    for (const auto& w : report.warnings) std::cerr << tool << ": warning: " << w << "\n";
    for (const auto& s : report.skipped) std::cerr << tool << ": skipped " << s << "\n";
    for (const auto& e : report.errors) std::cerr << tool << ": error: " << e << "\n";
  } else {
    std::cout << bench::format_bench_table(report);
  }
  if (!opt.plot.empty() && plot(report, tool, opt.plot) != 0) failed = true;
  return failed || !report.errors.empty() ? 1 : 0;
}

}  // namespace mslport::tool
