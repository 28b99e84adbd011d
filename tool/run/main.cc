// mslport-run: checks committed targets/ against golden/ without translating,
// and `mslport-run bench` times them like `mslport bench` (same flags and
// report, shared/bench_cli.h). Links the runtime and the bench library only
// (no libclang), so a user's CI image or a GPU machine without libclang can
// run it.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "runtime/check_emitted.h"
#include "shared/bench_cli.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  CLI::App app{"mslport-run: check committed targets/ (openmp/*.cpp, opencl/*.cl) against golden cases; "
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
  app.add_option("--format", req.format, "table or json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  app.add_option("--work-dir", work_dir, "Where emitted code is built (default: a temp dir)");

  std::string bench_targets = "targets";
  mslport::tool::BenchCliOptions bench_opt;
  auto* bench = app.add_subcommand("bench", "Time the emitted kernels on bench cases against the memory roof "
                                            "measured in the same run (as `mslport bench`, without translating)");
  bench->add_option("--targets", bench_targets, "Directory written by `mslport regen` (or `mslport translate`)")
      ->capture_default_str();
  mslport::tool::add_bench_options(bench, &bench_opt);
  app.require_subcommand(0, 1);
  CLI11_PARSE(app, argc, argv);

  std::string err;
  if (*bench) {
    mslport::bench::BenchRequest breq;
    fs::path work;
    if (int rc = mslport::tool::make_bench_request(bench_opt, "mslport-run", &breq, &work)) return rc;
    breq.modules = mslport::runtime::find_emitted_targets(bench_targets, &err);
    if (breq.modules.empty()) {
      std::cerr << "mslport-run: error: " << err << "\n";
      return 2;
    }
    return mslport::tool::run_and_report(bench_opt, "mslport-run", breq, false);
  }

  req.targets = target == "all" ? std::vector<std::string>{"openmp", "opencl"} : std::vector<std::string>{target};
  fs::path work = work_dir.empty() ? fs::temp_directory_path() / ("mslport-run-" + std::to_string(::getuid()))
                                   : fs::path(work_dir);
  req.build_dir = (work / "build").string();
  req.modules = mslport::runtime::find_emitted_targets(targets_dir, &err);
  if (req.modules.empty()) {
    std::cerr << "mslport-run: error: " << err << "\n";
    return 2;
  }
  return mslport::runtime::check_emitted(req, false);
}
