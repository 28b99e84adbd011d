// `mslport bench`: translate the sources (as `mslport check` does), then time
// every kernel that has a bench case on the OpenMP module and the OpenCL
// devices, against each backend's memory roof measured in the same run
// (lib/bench). Options and output are shared with `mslport-run bench`
// (shared/bench_cli.h).
#include <iostream>

#include "bench/bench.h"
#include "commands.h"

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
  bool failed = false;
  for (auto& src : sources) {
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
    if (!write_emitted(t, (work / t.stem).string(), &files, &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return 2;
    }
    req.modules.push_back(files);
  }
  return run_and_report(opt.cli, "mslport", req, failed);
}

}  // namespace mslport::tool
