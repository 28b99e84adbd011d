// `mslport check`: translate the sources, then check the emitted code
// against the golden cases (runtime/check_emitted.h).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <unistd.h>

#include "commands.h"
#include "runtime/check_emitted.h"
#include "runtime/runner.h"
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

  // The function-constant sets the golden cases ask for, by kernel: a
  // source is translated once per set its kernels' cases use.
  using ConstantSet = std::map<std::string, std::string>;
  std::map<std::string, std::set<ConstantSet>> sets_by_kernel;
  {
    std::vector<runtime::LoadError> reported_later;  // check_emitted loads and reports them
    for (auto& c : runtime::load_golden_dir(opt.golden_dir, &reported_later))
      sets_by_kernel[c.kernel].insert(c.function_constants);
  }

  bool failed = false;
  Target tg = req.targets.size() == 2 ? Target::All : (req.targets[0] == "openmp" ? Target::OpenMP : Target::OpenCL);
  // #line directives: a compiler error in emitted code points at the Metal line.
  TranslateOptions base = opt.translate;
  base.line_directives = true;
  base.sanitize = sanitize;
  Target target = req.sanitize ? Target::OpenMP : tg;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& src = sources[i];
    // Which kernels need which translation: those whose cases give no
    // function constants (or that have no case) the plain one, the others
    // one per set, each holding only the kernels that need it.
    DiagEngine probe_diags;
    Translation probe;
    bool probe_ok = translate_file(src, target, base, probe_diags, &probe);
    std::map<ConstantSet, std::vector<std::string>> kernels_by_set;
    for (const auto& k : probe.kernel_names) {
      auto it = sets_by_kernel.find(k);
      if (it == sets_by_kernel.end()) kernels_by_set[{}].push_back(k);
      else
        for (const auto& set : it->second) kernels_by_set[set].push_back(k);
    }
    bool plain_only = kernels_by_set.empty() || (kernels_by_set.size() == 1 && kernels_by_set.begin()->first.empty());
    size_t variant = 0;
    auto emit = [&](const Translation& t, const ConstantSet& set) {
      runtime::EmittedFiles files;
      // One folder per source and set: two sources may share a stem
      // (a/k.metal, b/k.metal).
      fs::path dir = work / std::to_string(i) / std::to_string(variant++) / (req.sanitize ? t.stem + ".sanitize" : t.stem);
      if (!write_emitted(t, dir.string(), &files, &err)) {
        std::cerr << "mslport: error: " << err << "\n";
        return false;
      }
      files.function_constants = set;
      if (!set.empty()) {
        files.source += " [";
        for (auto it = set.begin(); it != set.end(); ++it)
          files.source += (it == set.begin() ? "" : ", ") + it->first + "=" + it->second;
        files.source += "]";
      }
      req.modules.push_back(files);
      return true;
    };
    if (plain_only) {
      // The common case: the probe is the translation.
      probe_diags.print_all(std::cerr);
      report_skipped(probe, base, /*always=*/false, std::cerr);
      if (!probe_ok) {
        std::cerr << "mslport: error: " << src << " failed to translate; its kernels are not covered\n";
        failed = true;
        continue;
      }
      if (!emit(probe, {})) return 2;
      continue;
    }
    for (const auto& [set, kernels] : kernels_by_set) {
      TranslateOptions topt = base;
      topt.kernels = kernels;
      for (const auto& [name, value] : set) topt.parse.function_constants[name] = value;
      std::string what = src;
      if (!set.empty()) {
        what += " with the function constants of the golden cases of";
        for (auto& k : kernels) what += " " + k;
      }
      DiagEngine diags;
      Translation t;
      bool ok = translate_file(src, target, topt, diags, &t);
      if (!set.empty() && (!diags.diagnostics().empty() || !t.skipped.empty()))
        std::cerr << "mslport: note: translating " << what << "\n";
      diags.print_all(std::cerr);
      report_skipped(t, topt, /*always=*/false, std::cerr);
      if (!ok) {
        std::cerr << "mslport: error: " << what << " failed to translate; its kernels are not covered\n";
        failed = true;
        continue;
      }
      if (!emit(t, set)) return 2;
    }
  }
  return runtime::check_emitted(req, failed);
}

}  // namespace mslport::tool
