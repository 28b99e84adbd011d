// `mslport check`: translate the sources, then check the emitted code
// against the golden cases (runtime/check_emitted.h).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "commands.h"
#include "runtime/check_emitted.h"
#include "support/atomic_file.h"

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
  fs::path work = opt.work_dir.empty() ? fs::temp_directory_path() / ("mslport-check-" + std::to_string(::getuid()))
                                       : fs::path(opt.work_dir);
  fs::create_directories(work);
  req.golden_dir = opt.golden_dir;
  req.platform = opt.platform;
  req.format = opt.format;
  req.kernels = opt.kernels;
  req.build_dir = (work / "build").string();
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
  for (auto& src : sources) {
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
    if (!write_emitted(t, (work / (req.sanitize ? t.stem + ".sanitize" : t.stem)).string(), &files, &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return 2;
    }
    req.modules.push_back(files);
  }
  return runtime::check_emitted(req, failed);
}

}  // namespace mslport::tool
