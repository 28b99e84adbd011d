// `mslport check`: translate the sources, build every emitted kernel for
// each target, run every golden case, compare, report.
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <unistd.h>

#include "commands.h"
#include "runtime/runner.h"
#include "support/atomic_file.h"

namespace fs = std::filesystem;

namespace mslport::tool {

int run_check(const CheckOptions& opt) {
  std::vector<std::string> targets;
  if (opt.target == "all") targets = {"openmp", "opencl"};
  else if (opt.target == "openmp" || opt.target == "opencl") targets = {opt.target};
  else {
    std::cerr << "mslport: error: unknown target '" << opt.target << "' (openmp, opencl, all)\n";
    return 2;
  }
  std::string err;
  auto sources = expand_sources(opt.sources, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 2;
  }
  fs::path work = opt.work_dir.empty() ? fs::temp_directory_path() / ("mslport-check-" + std::to_string(::getuid()))
                                       : fs::path(opt.work_dir);
  fs::create_directories(work);

  bool translate_failed = false;
  std::vector<std::unique_ptr<runtime::Executor>> executors;
  for (auto& src : sources) {
    DiagEngine diags;
    Translation t;
    Target tg = targets.size() == 2 ? Target::All : (targets[0] == "openmp" ? Target::OpenMP : Target::OpenCL);
    bool ok = translate_file(src, tg, false, diags, &t);
    diags.print_all(std::cerr);
    if (!ok) {
      std::cerr << "mslport: error: " << src << " failed to translate; its kernels are not covered\n";
      translate_failed = true;
      continue;
    }
    fs::path dir = work / t.stem;
    fs::create_directories(dir);
    for (auto& target : targets) {
      std::string load_err;
      std::unique_ptr<runtime::Executor> ex;
      if (target == "openmp") {
        write_file_atomic((dir / (t.stem + ".h")).string(), t.header, &load_err);
        write_file_atomic((dir / (t.stem + ".cpp")).string(), t.cpp, &load_err);
        ex = runtime::load_openmp_module((dir / (t.stem + ".cpp")).string(), (dir / "build").string(), &load_err);
      } else {
        write_file_atomic((dir / (t.stem + ".cl")).string(), t.cl, &load_err);
        write_file_atomic((dir / (t.stem + ".bindings.json")).string(), t.bindings, &load_err);
        ex = runtime::load_opencl_program((dir / (t.stem + ".cl")).string(),
                                          (dir / (t.stem + ".bindings.json")).string(), opt.platform, &load_err);
      }
      if (!ex) {
        std::cerr << "mslport: error: " << src << ": the emitted " << target << " code failed to build:\n"
                  << load_err << "\n";
        translate_failed = true;
        continue;
      }
      executors.push_back(std::move(ex));
    }
  }

  std::vector<runtime::LoadError> load_errors;
  auto cases = runtime::load_golden_dir(opt.golden_dir, &load_errors);
  for (auto& e : load_errors) std::cerr << e.file << ": error: " << e.message << "\n";
  std::vector<runtime::Executor*> raw;
  for (auto& e : executors) raw.push_back(e.get());
  auto results = runtime::run_cases(cases, targets, raw, opt.kernels);
  if (opt.format == "json") std::cout << runtime::format_json(results) << "\n";
  else std::cout << runtime::format_table(results);

  bool failed = translate_failed || !load_errors.empty();
  for (auto& r : results) failed = failed || r.status == "fail" || r.status == "error";
  return failed ? 1 : 0;
}

}  // namespace mslport::tool
