// The translations `mslport bench` times: per source the plain one, or with
// --golden one per function-constant set that the chosen golden cases of
// its kernels give (as `mslport check` translates them), each holding only
// the kernels that need it; a source none of whose kernels has a case is
// not translated further.
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "bench/golden_cases.h"
#include "commands.h"

namespace fs = std::filesystem;

namespace mslport::tool {

bool emit_bench_modules(const std::string& src, size_t index, Target tg, const BenchOptions& opt,
                        const std::string& run_dir, bench::BenchRequest* req, bool* failed) {
  std::string err;
  DiagEngine probe_diags;
  Translation probe;
  bool probe_ok = translate_file(src, tg, opt.translate, probe_diags, &probe);
  req->source_kernels.insert(req->source_kernels.end(), probe.kernel_names.begin(), probe.kernel_names.end());
  auto emit = [&](const Translation& t, const std::map<std::string, std::string>& set, size_t variant) {
    runtime::EmittedFiles files;
    fs::path dir = fs::path(run_dir) / std::to_string(index) / std::to_string(variant) / t.stem;
    if (!write_emitted(t, dir.string(), &files, &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return false;
    }
    files.function_constants = set;
    for (auto it = set.begin(); it != set.end(); ++it)
      files.source +=
          (it == set.begin() ? " [" : ", ") + it->first + "=" + it->second + (std::next(it) == set.end() ? "]" : "");
    req->modules.push_back(files);
    return true;
  };
  auto report_failure = [&](const std::string& what) {
    std::cerr << "mslport: error: " << what << " failed to translate; its kernels are not benchmarked\n";
    *failed = true;
  };
  if (opt.cli.golden_dir.empty()) {
    probe_diags.print_all(std::cerr);
    report_skipped(probe, opt.translate, /*always=*/false, std::cerr);
    if (!probe_ok) {
      report_failure(src);
      return true;
    }
    return emit(probe, {}, 0);
  }
  // The case each kernel of this source is timed on (run_bench chooses the
  // same, and reports the kernels that have none).
  std::vector<std::string> asked;
  const std::set<std::string> here(probe.kernel_names.begin(), probe.kernel_names.end());
  for (const auto& k : opt.cli.kernels)
    if (here.count(k)) asked.push_back(k);
  if (!opt.cli.kernels.empty() && asked.empty()) return true;
  bench::GoldenSelection sel =
      bench::select_golden_cases(opt.cli.golden_dir, probe.kernel_names, asked, opt.cli.case_name, nullptr);
  std::map<std::map<std::string, std::string>, std::vector<std::string>> kernels_by_set;
  // Every value of the case fixed at translation, those the host sets too:
  // the timed code is specialised, as a Metal pipeline is.
  for (const auto& [k, c] : sel.cases) kernels_by_set[c.function_constants].push_back(k);
  if (kernels_by_set.empty()) return true;
  size_t variant = 0;
  for (const auto& [set, kernels] : kernels_by_set) {
    TranslateOptions topt = opt.translate;
    topt.kernels = kernels;
    for (const auto& [name, value] : set) topt.parse.function_constants[name] = value;
    std::string what = src;
    if (!set.empty()) {
      what += " with the function constants of the golden cases of";
      for (const auto& k : kernels) what += " " + k;
    }
    DiagEngine diags;
    Translation t;
    bool ok = translate_file(src, tg, topt, diags, &t);
    if (!set.empty() && (!diags.diagnostics().empty() || !t.skipped.empty()))
      std::cerr << "mslport: note: translating " << what << "\n";
    diags.print_all(std::cerr);
    report_skipped(t, topt, /*always=*/false, std::cerr);
    if (!ok) {
      report_failure(what);
      continue;
    }
    if (!emit(t, set, variant++)) return false;
  }
  return true;
}

}  // namespace mslport::tool
