// `mslport bench`: translate the sources (as `mslport check` does), then time
// every kernel that has a bench case on the OpenMP module and the OpenCL
// devices, against each backend's memory roof measured in the same run
// (lib/bench). Options and output are shared with `mslport-run bench`
// (shared/bench_cli.h).
#include <iostream>

#include "bench/bench.h"
#include "commands.h"
#include "support/work_dir.h"

namespace fs = std::filesystem;

namespace mslport::tool {

int run_bench(const BenchOptions& opt) {
  bench::BenchRequest req;
  fs::path work;
  if (int rc = make_bench_request(opt.cli, "mslport", &req, &work)) return rc;
  const Target tg = opt.cli.target == "all"      ? Target::All
                    : opt.cli.target == "openmp" ? Target::OpenMP
                                                 : Target::OpenCL;
  std::string err;
  auto sources = expand_sources(opt.sources, &err);
  if (!err.empty()) {
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  if (sources.empty()) {
    ToolMessage(Severity::Error) << "no .metal files to benchmark";
    return 1;
  }
  // This run's emitted files: a private folder of the work root (the
  // compiled-module cache stays in the root), removed at the end.
  RunDir run_dir;
  if (!run_dir.create(work.string(), "run", &err)) {
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  bool failed = false;
  for (size_t i = 0; i < sources.size(); ++i)
    if (!emit_bench_modules(sources[i], i, tg, opt, run_dir.path(), &req, &failed)) return 1;
  return run_and_report(opt.cli, "mslport", req, failed);
}

}  // namespace mslport::tool
