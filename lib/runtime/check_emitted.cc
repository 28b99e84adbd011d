#include "runtime/check_emitted.h"

#include <filesystem>
#include <iostream>
#include <map>
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
  // Findings once per kind and source-line pair, over all cases.
  std::vector<Finding> findings;
  std::map<std::string, size_t> seen;
  for (auto& r : results) {
    for (auto f : r.findings) {
      std::string a = f.file + ":" + std::to_string(f.line), b = f.note_file + ":" + std::to_string(f.note_line);
      if (b < a) std::swap(a, b);
      auto [it, fresh] = seen.emplace(f.kind + "|" + a + "|" + b, findings.size());
      if (fresh) {
        f.kernel = r.kernel;
        f.case_name = r.case_name;
        findings.push_back(f);
      }
      ++findings[it->second].cases;
    }
  }
  if (req.sanitize)
    for (auto& f : findings) std::cerr << format_finding(f);
  if (req.format == "json") std::cout << format_json(results, req.sanitize ? &findings : nullptr) << "\n";
  else std::cout << format_table(results);
  if (req.sanitize && req.format != "json") std::cout << findings.size() << " sanitizer findings\n";
  failed = failed || !findings.empty();
  failed = failed || !load_errors.empty();
  for (auto& r : results) failed = failed || r.status == "fail" || r.status == "error";
  return failed ? 1 : 0;
}

}  // namespace mslport::runtime
