// `mslport check`: translate the sources, then check the emitted code
// against the golden cases (runtime/check_emitted.h).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "back/openmp/raise/sanitize.h"
#include "commands.h"
#include "runtime/check_emitted.h"
#include "runtime/runner.h"
#include "support/atomic_file.h"
#include "support/work_dir.h"

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

using ConstantSet = std::map<std::string, std::string>;

// Translates one source for `target` into `dir`: once when no case of its
// kernels gives function constants, else once per set those cases use
// (each translation holding only the kernels that need it). Appends the
// emitted modules to *modules and its kernels to *kernels; sets *incomplete
// when the source failed before its kernels were known. False when the
// source (or one of its sets) failed to translate, after saying so. Sets
// *fatal on an I/O error.
bool translate_for_check(const std::string& src, const fs::path& dir, Target target, const TranslateOptions& base,
                         const std::map<std::string, std::set<ConstantSet>>& sets_by_kernel, bool report,
                         std::map<std::string, std::string>* kernels, bool* incomplete,
                         std::vector<runtime::EmittedFiles>* modules, bool* fatal) {
  DiagEngine probe_diags;
  Translation probe;
  bool probe_ok = translate_file(src, target, base, probe_diags, &probe);
  if (kernels)
    for (const auto& k : probe.kernel_names) kernels->emplace(k, src);
  if (incomplete && !probe_ok && probe.kernel_names.empty()) *incomplete = true;
  std::map<ConstantSet, std::vector<std::string>> kernels_by_set;
  for (const auto& k : probe.kernel_names) {
    auto it = sets_by_kernel.find(k);
    if (it == sets_by_kernel.end()) kernels_by_set[{}].push_back(k);
    else {
      // The constants the host sets are the case's at dispatch, not the
      // translation's: a case that gives only those runs on the probe.
      std::set<ConstantSet> fixed;
      for (const auto& set : it->second) fixed.insert(fixed_at_translation(probe, k, set));
      for (const auto& set : fixed) kernels_by_set[set].push_back(k);
    }
  }
  bool plain_only = kernels_by_set.empty() || (kernels_by_set.size() == 1 && kernels_by_set.begin()->first.empty());
  size_t variant = 0;
  std::string err;
  auto emit = [&](const Translation& t, const ConstantSet& set) {
    runtime::EmittedFiles files;
    // One folder per source and set: two sources may share a stem
    // (a/k.metal, b/k.metal).
    if (!write_emitted(t, (dir / std::to_string(variant++) / t.stem).string(), &files, &err)) {
      ToolMessage(Severity::Error) << err;
      *fatal = true;
      return false;
    }
    files.function_constants = set;
    if (!set.empty()) {
      files.source += " [";
      for (auto it = set.begin(); it != set.end(); ++it)
        files.source += (it == set.begin() ? "" : ", ") + it->first + "=" + it->second;
      files.source += "]";
    }
    modules->push_back(files);
    return true;
  };
  if (plain_only) {
    // The common case: the probe is the translation.
    if (report) {
      probe_diags.print_all(std::cerr);
      report_skipped(probe, base, /*always=*/false, std::cerr);
    }
    if (!probe_ok) {
      ToolMessage(Severity::Error) << src << " failed to translate; its kernels are not covered";
      return false;
    }
    return emit(probe, {});
  }
  bool ok = true;
  for (const auto& [set, names] : kernels_by_set) {
    TranslateOptions topt = base;
    topt.kernels = names;
    for (const auto& [name, value] : set) topt.parse.function_constants[name] = value;
    std::string what = src;
    if (!set.empty()) {
      what += " with the function constants of the golden cases of";
      for (auto& k : names) what += " " + k;
    }
    DiagEngine diags;
    Translation t;
    bool tok = translate_file(src, target, topt, diags, &t);
    if (report) {
      if (!set.empty() && (!diags.diagnostics().empty() || !t.skipped.empty()))
        ToolMessage(Severity::Note) << "translating " << what;
      diags.print_all(std::cerr);
      report_skipped(t, topt, /*always=*/false, std::cerr);
    }
    if (!tok) {
      ToolMessage(Severity::Error) << what << " failed to translate; its kernels are not covered";
      ok = false;
      continue;
    }
    if (!emit(t, set)) return false;
  }
  return ok;
}

}  // namespace

bool parse_targets(const std::string& target, std::vector<std::string>* out) {
  if (target == "all") *out = {"openmp", "opencl"};
  else if (target == "openmp" || target == "opencl") *out = {target};
  else {
    ToolMessage(Severity::Error) << "unknown target '" << target << "' (openmp, opencl, all)";
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
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  if (sources.empty()) {
    std::string list;
    for (auto& p : opt.sources) list += " " + p;
    ToolMessage(Severity::Error) << "no .metal files in" << list << ": nothing to check";
    return 1;
  }
  if (!(opt.case_timeout >= 0)) {
    ToolMessage(Severity::Error) << "--case-timeout must be a number of seconds (0 = no limit)";
    return 2;
  }
  if (opt.differential && req.targets.size() != 2) {
    ToolMessage(Severity::Error) << "--differential compares the two targets with each other: it needs --target all";
    return 2;
  }
  unsigned sanitize = 0;
  if (!opt.sanitize.empty()) {
    if (!parse_sanitize_list(opt.sanitize, &sanitize, &err)) {
      ToolMessage(Severity::Error) << "--sanitize: " << err;
      return 2;
    }
    // The sanitizer instruments the C++/OpenMP output only.
    if (std::find(req.targets.begin(), req.targets.end(), "openmp") == req.targets.end()) {
      ToolMessage(Severity::Error) << "--sanitize needs --target openmp";
      return 2;
    }
  }
  // The work root keeps the compiled-module cache; this run's emitted files
  // go to a private directory in it, removed at the end.
  std::string root;
  RunDir run_dir;
  if (!prepare_work_root(opt.work_dir, &root, &err) || !run_dir.create(root, "run", &err)) {
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  fs::path work = run_dir.path();
  req.golden_dir = opt.golden_dir;
  req.platform = opt.platform;
  req.format = opt.format;
  req.kernels = opt.kernels;
  req.build_dir = (fs::path(root) / "build").string();
  req.work_dir = work.string();
  req.case_timeout_s = opt.case_timeout;
  req.allow_missing_cases = opt.allow_missing_cases;
  req.allow_other_cases = opt.allow_other_cases;
  req.differential = opt.differential;
  req.version = kVersion;
  // --sanitize alone: every case on the instrumented C++ only. With
  // --differential: the plain code on both targets, and the instrumented
  // C++ on the cases that give inputs only.
  if (sanitize && !opt.differential) {
    req.targets = {"openmp"};
    req.sanitize = true;
  }
  if (opt.differential && !sanitize)
    sanitize = back::openmp::kSanitizeRace | back::openmp::kSanitizeBounds | back::openmp::kSanitizeInit |
               back::openmp::kSanitizeDivergence;

  // The function-constant sets the golden cases ask for, by kernel.
  std::map<std::string, std::set<ConstantSet>> sets_by_kernel;
  {
    std::vector<runtime::LoadError> reported_later;  // check_emitted loads and reports them
    for (auto& c : runtime::load_golden_dir(opt.golden_dir, &reported_later))
      sets_by_kernel[c.kernel].insert(c.function_constants);
  }

  const auto translate_start = std::chrono::steady_clock::now();
  bool failed = false;
  Target tg = req.targets.size() == 2 ? Target::All : (req.targets[0] == "openmp" ? Target::OpenMP : Target::OpenCL);
  // #line directives: a compiler error in emitted code points at the Metal line.
  TranslateOptions base = opt.translate;
  base.line_directives = true;
  if (req.sanitize) base.sanitize = sanitize;
  for (size_t i = 0; i < sources.size(); ++i) {
    bool fatal = false;
    fs::path dir = work / std::to_string(i) / (req.sanitize ? "sanitize" : "plain");
    if (!translate_for_check(sources[i], dir, tg, base, sets_by_kernel, /*report=*/true, &req.source_kernels,
                             &req.sources_incomplete, &req.modules, &fatal))
      failed = true;
    if (fatal) return 1;
    if (opt.differential) {
      // The same source instrumented, for the sanitizer's run of the cases
      // of inputs only (its diagnostics were printed above).
      TranslateOptions sopt = base;
      sopt.sanitize = sanitize;
      if (!translate_for_check(sources[i], work / std::to_string(i) / "sanitize", Target::OpenMP, sopt, sets_by_kernel,
                               /*report=*/false, nullptr, nullptr, &req.sanitized_modules, &fatal))
        failed = true;
      if (fatal) return 1;
    }
  }
  req.translate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - translate_start).count();
  return runtime::check_emitted(req, failed);
}

}  // namespace mslport::tool
