// mslport-run: checks committed targets/ against golden/ without translating,
// and `mslport-run bench` times them like `mslport bench` (same flags and
// report, shared/bench_cli.h). Links the runtime and the bench library only
// (no libclang), so a user's CI image or a GPU machine without libclang can
// run it.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "bench/isolated.h"
#include "runtime/check_emitted.h"
#include "shared/bench_cli.h"
#include "support/work_dir.h"

namespace fs = std::filesystem;

namespace {

// Checks targets/ against the golden cases, or (with the bench subcommand)
// times them.
int run(const CLI::App* bench, const mslport::tool::BenchCliOptions& bench_opt, const std::string& bench_targets,
        mslport::runtime::CheckRequest req, const std::string& targets_dir, const std::string& target,
        const std::string& work_dir) {
  std::string err;
  if (*bench) {
    mslport::bench::BenchRequest breq;
    fs::path work;
    if (int rc = mslport::tool::make_bench_request(bench_opt, "mslport-run", &breq, &work)) return rc;
    breq.modules = mslport::runtime::find_emitted_targets(bench_targets, &err);
    if (breq.modules.empty()) {
      std::cerr << "mslport-run: error: " << err << "\n";
      return 1;
    }
    return mslport::tool::run_and_report(bench_opt, "mslport-run", breq, false);
  }

  req.targets = target == "all" ? std::vector<std::string>{"openmp", "opencl"} : std::vector<std::string>{target};
  if (!(req.case_timeout_s >= 0)) {
    std::cerr << "mslport-run: error: --case-timeout must be a number of seconds (0 = no limit)\n";
    return 2;
  }
  std::string root;
  if (!mslport::prepare_work_root(work_dir, &root, &err)) {
    std::cerr << "mslport-run: error: " << err << "\n";
    return 1;
  }
  req.build_dir = (fs::path(root) / "build").string();
  req.modules = mslport::runtime::find_emitted_targets(targets_dir, &err);
  if (req.modules.empty()) {
    std::cerr << "mslport-run: error: " << err << "\n";
    return 1;
  }
  return mslport::runtime::check_emitted(req, false);
}

}  // namespace

int main(int argc, char** argv) {
  // `mslport-run bench` runs each target of each round in a process of its own: this one.
  if ((argc == 4 || argc == 6) && std::string(argv[1]) == mslport::bench::kWorkerFlag)
    return mslport::bench::bench_worker_main(argv[2], argv[3], argc == 6 ? std::atoi(argv[4]) : -1,
                                             argc == 6 ? std::atoi(argv[5]) : -1);
  CLI::App app{
      "mslport-run: check committed targets/ (openmp/*.cpp, opencl/*.cl) against golden cases; "
      "`mslport-run bench` times them"};
  std::string targets_dir = "targets", target = "all", work_dir;
  mslport::runtime::CheckRequest req;
  app.add_option("--targets", targets_dir, "Directory written by `mslport regen`")->capture_default_str();
  app.add_option("--golden", req.golden_dir, "Golden cases directory")->capture_default_str();
  app.add_option("--target", target, "openmp, opencl or all")
      ->check(CLI::IsMember({"openmp", "opencl", "all"}))
      ->capture_default_str();
  app.add_option("--platform", req.platform, "OpenCL platform name substring (default: first platform)");
  app.add_option("--kernel", req.kernels, "Only these kernels");
  app.add_option("--format", req.format, "table, json or junit")
      ->check(CLI::IsMember({"table", "json", "junit"}))
      ->capture_default_str();
  app.add_flag("--allow-missing-cases", req.allow_missing_cases,
               "A kernel of the targets without a golden case is a warning, not a failure");
  app.add_flag("--allow-other-cases", req.allow_other_cases,
               "Golden cases of kernels that are not in the targets are skipped, not a failure");
  app.add_option("--work-dir", work_dir, "Where emitted code is built and cached (default: $TMPDIR/mslport-UID)");
  app.add_option("--case-timeout", req.case_timeout_s,
                 "Seconds a golden case may run before it is stopped and reported as timed out (0 = no limit)")
      ->capture_default_str();

  std::string bench_targets = "targets";
  mslport::tool::BenchCliOptions bench_opt;
  auto* bench = app.add_subcommand("bench",
                                   "Time the emitted kernels on bench cases against the memory roof "
                                   "measured in the same run (as `mslport bench`, without translating)");
  bench->add_option("--targets", bench_targets, "Directory written by `mslport regen` (or `mslport translate`)")
      ->capture_default_str();
  mslport::tool::add_bench_options(bench, &bench_opt);
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2, whatever CLI11's own code (105, 106, 109, ...).
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  req.version = MSLPORT_VERSION;

  // A file-system error nobody foresaw is a message, never an abort.
  try {
    return run(bench, bench_opt, bench_targets, req, targets_dir, target, work_dir);
  } catch (const std::exception& e) {
    std::cerr << "mslport-run: error: " << e.what() << "\n";
    return 1;
  }
}
