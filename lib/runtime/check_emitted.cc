#include "runtime/check_emitted.h"

#include <filesystem>
#include <iostream>
#include <memory>

#include "runtime/runner.h"

namespace fs = std::filesystem;

namespace mslport::runtime {

int check_emitted(const CheckRequest& req, bool failed) {
  std::vector<std::unique_ptr<Executor>> executors;
  for (auto& m : req.modules) {
    for (auto& target : req.targets) {
      std::string err;
      std::unique_ptr<Executor> ex;
      if (target == "openmp") {
        if (m.cpp.empty()) continue;
        ex = load_openmp_module(m.cpp, (fs::path(req.build_dir) / fs::path(m.cpp).stem()).string(), &err);
      } else {
        if (m.cl.empty()) continue;
        ex = load_opencl_program(m.cl, m.bindings, req.platform, &err);
      }
      if (!ex) {
        std::cerr << "mslport: error: " << m.source << ": the emitted " << target << " code failed to build:\n"
                  << err << "\n";
        failed = true;
        continue;
      }
      executors.push_back(std::move(ex));
    }
  }
  std::vector<LoadError> load_errors;
  auto cases = load_golden_dir(req.golden_dir, &load_errors);
  for (auto& e : load_errors) std::cerr << e.file << ": error: " << e.message << "\n";
  std::vector<Executor*> raw;
  for (auto& e : executors) raw.push_back(e.get());
  auto results = run_cases(cases, req.targets, raw, req.kernels);
  if (req.format == "json") std::cout << format_json(results) << "\n";
  else std::cout << format_table(results);
  failed = failed || !load_errors.empty();
  for (auto& r : results) failed = failed || r.status == "fail" || r.status == "error";
  return failed ? 1 : 0;
}

}  // namespace mslport::runtime
