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
  const Target tg = opt.cli.target == "all" ? Target::All : opt.cli.target == "openmp" ? Target::OpenMP : Target::OpenCL;
  std::string err;
  auto sources = expand_sources(opt.sources, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 2;
  }
  if (sources.empty()) {
    std::cerr << "mslport: error: no .metal files to benchmark\n";
    return 2;
  }
  // This run's emitted files: a private folder of the work root (the
  // compiled-module cache stays in the root), removed at the end.
  RunDir run_dir;
  if (!run_dir.create(work.string(), "run", &err)) {
    std::cerr << "mslport: error: " << err << "\n";
    return 2;
  }
  bool failed = false;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& src = sources[i];
    DiagEngine diags;
    Translation t;
    bool ok = translate_file(src, tg, opt.translate, diags, &t);
    diags.print_all(std::cerr);
    report_skipped(t, opt.translate, /*always=*/false, std::cerr);
    if (!ok) {
      std::cerr << "mslport: error: " << src << " failed to translate; its kernels are not benchmarked\n";
      failed = true;
      continue;
    }
    runtime::EmittedFiles files;
    if (!write_emitted(t, (fs::path(run_dir.path()) / std::to_string(i) / t.stem).string(), &files, &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return 2;
    }
    req.modules.push_back(files);
  }
  return run_and_report(opt.cli, "mslport", req, failed);
}

}  // namespace mslport::tool
