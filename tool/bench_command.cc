// `mslport bench`: translate the sources (as `mslport check` does), then time
// every kernel that has a bench case on the OpenMP module and the OpenCL
// devices, against each backend's memory roof measured in the same run
// (lib/bench).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/bench.h"
#include "commands.h"
#include "support/atomic_file.h"

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

// Runs argv (no shell); returns the exit status, or -1 if it could not start.
int spawn(const std::vector<std::string>& argv) {
  std::cout.flush();
  std::cerr.flush();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::vector<char*> a;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    execv(a[0], a.data());
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int plot(const bench::BenchReport& report, const fs::path& work, const std::string& png) {
  const char* py_env = std::getenv("MSLPORT_PYTHON");
  std::string python = py_env && *py_env ? py_env : "/usr/bin/python3";
  std::string script = std::string(MSLPORT_SOURCE_DIR) + "/scripts/plot_bench.py";
  fs::path data = work / "bench-plot.json";
  std::string err;
  if (!write_file_atomic(data.string(), bench::format_plot_json(report), &err)) {
    std::cerr << "mslport: error: " << err << "\n";
    return 1;
  }
  int rc = spawn({python, script, data.string(), png});
  if (rc != 0) {
    std::cerr << "mslport: error: plotting failed (" << python << " " << script << " exited with " << rc
              << "; it needs python3-matplotlib)\n";
    return 1;
  }
  std::cerr << "mslport: wrote " << png << "\n";
  return 0;
}

}  // namespace

int run_bench(const BenchOptions& opt) {
  bench::BenchRequest req;
  Target tg;
  if (opt.target == "all") {
    req.targets = {"openmp", "opencl"};
    tg = Target::All;
  } else if (opt.target == "openmp" || opt.target == "opencl") {
    req.targets = {opt.target};
    tg = opt.target == "openmp" ? Target::OpenMP : Target::OpenCL;
  } else {
    std::cerr << "mslport: error: unknown target '" << opt.target << "' (openmp, opencl, all)\n";
    return 2;
  }
  if (opt.repeats < 0) {
    std::cerr << "mslport: error: --repeats must be positive\n";
    return 2;
  }
  std::string err;
  auto sources = expand_sources(opt.sources, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 2;
  }
  fs::path work = opt.work_dir.empty() ? fs::temp_directory_path() / ("mslport-bench-" + std::to_string(::getuid()))
                                       : fs::path(opt.work_dir);
  fs::create_directories(work);
  req.build_dir = (work / "build").string();
  req.platforms = opt.platforms;
  req.kernels = opt.kernels;
  req.plan.repeats = opt.repeats;
  req.progress = [](const std::string& line) { std::cerr << "bench: " << line << "\n"; };

  bool failed = false;
  for (auto& src : sources) {
    DiagEngine diags;
    Translation t;
    bool ok = translate_file(src, tg, false, diags, &t);
    diags.print_all(std::cerr);
    if (!ok) {
      std::cerr << "mslport: error: " << src << " failed to translate; its kernels are not benchmarked\n";
      failed = true;
      continue;
    }
    runtime::EmittedFiles files;
    if (!write_emitted(t, (work / t.stem).string(), &files, &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return 2;
    }
    req.modules.push_back(files);
  }

  bench::BenchReport report = bench::run_bench(req);
  if (opt.format == "json") {
    std::cout << bench::format_bench_json(report);
    for (const auto& w : report.warnings) std::cerr << "mslport: warning: " << w << "\n";
    for (const auto& s : report.skipped) std::cerr << "mslport: skipped " << s << "\n";
    for (const auto& e : report.errors) std::cerr << "mslport: error: " << e << "\n";
  } else {
    std::cout << bench::format_bench_table(report);
  }
  if (!opt.plot.empty() && plot(report, work, opt.plot) != 0) failed = true;
  return failed || !report.errors.empty() ? 1 : 0;
}

}  // namespace mslport::tool
