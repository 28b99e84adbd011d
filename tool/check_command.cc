// `mslport check`: translate the sources, then check the emitted code
// against the golden cases (runtime/check_emitted.h).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "commands.h"
#include "runtime/check_emitted.h"
#include "support/atomic_file.h"
#include "support/work_dir.h"

namespace fs = std::filesystem;

namespace mslport::tool {

bool parse_targets(const std::string& target, std::vector<std::string>* out) {
  if (target == "all") *out = {"openmp", "opencl"};
  else if (target == "openmp" || target == "opencl") *out = {target};
  else {
    std::cerr << "mslport: error: unknown target '" << target << "' (openmp, opencl, all)\n";
    return false;
  }
  return true;
}

int run_check(const CheckOptions& opt) {
  runtime::CheckRequest req;
  if (!parse_targets(opt.target, &req.targets)) return 2;
  std::string err;
  auto sources = expand_sources(opt.sources, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 2;
  }
  if (sources.empty()) {
    std::cerr << "mslport: error: no .metal files in";
    for (auto& p : opt.sources) std::cerr << " " << p;
    std::cerr << ": nothing to check\n";
    return 2;
  }
  if (!(opt.case_timeout >= 0)) {
    std::cerr << "mslport: error: --case-timeout must be a number of seconds (0 = no limit)\n";
    return 2;
  }
  // The work root keeps the compiled-module cache; this run's emitted files
  // go to a private directory in it, removed at the end.
  std::string root;
  RunDir run_dir;
  if (!prepare_work_root(opt.work_dir, &root, &err) || !run_dir.create(root, "run", &err)) {
    std::cerr << "mslport: error: " << err << "\n";
    return 2;
  }
  fs::path work = run_dir.path();
  req.golden_dir = opt.golden_dir;
  req.platform = opt.platform;
  req.format = opt.format;
  req.kernels = opt.kernels;
  req.build_dir = (fs::path(root) / "build").string();
  req.case_timeout_s = opt.case_timeout;
  unsigned sanitize = 0;
  if (!opt.sanitize.empty()) {
    if (!parse_sanitize_list(opt.sanitize, &sanitize, &err)) {
      std::cerr << "mslport: error: --sanitize: " << err << "\n";
      return 2;
    }
    // The sanitizer instruments the C++/OpenMP output only.
    if (std::find(req.targets.begin(), req.targets.end(), "openmp") == req.targets.end()) {
      std::cerr << "mslport: error: --sanitize needs --target openmp\n";
      return 2;
    }
    req.targets = {"openmp"};
    req.sanitize = true;
  }

  bool failed = false;
  Target tg = req.targets.size() == 2 ? Target::All : (req.targets[0] == "openmp" ? Target::OpenMP : Target::OpenCL);
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& src = sources[i];
    DiagEngine diags;
    Translation t;
    // #line directives: a compiler error in emitted code points at the Metal line.
    TranslateOptions topt = opt.translate;
    topt.line_directives = true;
    topt.sanitize = sanitize;
    bool ok = translate_file(src, req.sanitize ? Target::OpenMP : tg, topt, diags, &t);
    diags.print_all(std::cerr);
    report_skipped(t, topt, /*always=*/false, std::cerr);
    if (!ok) {
      std::cerr << "mslport: error: " << src << " failed to translate; its kernels are not covered\n";
      failed = true;
      continue;
    }
    runtime::EmittedFiles files;
    // One folder per source: two sources may share a stem (a/k.metal, b/k.metal).
    if (!write_emitted(t, (work / std::to_string(i) / (req.sanitize ? t.stem + ".sanitize" : t.stem)).string(), &files,
                       &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return 2;
    }
    req.modules.push_back(files);
  }
  return runtime::check_emitted(req, failed);
}

}  // namespace mslport::tool
