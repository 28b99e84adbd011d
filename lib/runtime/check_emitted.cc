#include "runtime/check_emitted.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "runtime/runner.h"
#include "support/file_transaction.h"

namespace fs = std::filesystem;

namespace mslport::runtime {

std::vector<EmittedFiles> find_emitted_targets(const std::string& targets_dir, std::string* error) {
  std::set<std::string> stems;
  std::error_code ec;
  if (has_unfinished_transaction(targets_dir)) {
    if (error)
      *error = "an interrupted `mslport regen` left " + targets_dir + "/ half-written; run `mslport regen` (or "
               "`mslport diff`) to complete it";
    return {};
  }
  for (auto sub : {"openmp", "opencl"}) {
    fs::path d = fs::path(targets_dir) / sub;
    if (!fs::is_directory(d, ec)) continue;
    for (auto& e : fs::directory_iterator(d, ec)) {
      auto ext = e.path().extension().string();
      if (ext == ".cpp" || ext == ".cl") stems.insert(e.path().stem().string());
    }
  }
  std::vector<EmittedFiles> out;
  for (auto& stem : stems) {
    EmittedFiles f;
    f.source = stem;
    fs::path cpp = fs::path(targets_dir) / "openmp" / (stem + ".cpp");
    fs::path cl = fs::path(targets_dir) / "opencl" / (stem + ".cl");
    if (fs::exists(cpp, ec)) f.cpp = cpp.string();
    if (fs::exists(cl, ec)) {
      f.cl = cl.string();
      f.bindings = (fs::path(targets_dir) / "opencl" / (stem + ".bindings.json")).string();
    }
    out.push_back(f);
  }
  if (out.empty() && error)
    *error = "no emitted files under " + targets_dir + "/openmp or " + targets_dir + "/opencl";
  return out;
}

int check_emitted(const CheckRequest& req, bool failed) {
  // The golden cases first: a missing --golden is known in a millisecond,
  // before minutes of building.
  std::error_code ec;
  if (!fs::exists(req.golden_dir, ec)) {
    std::cerr << "mslport: error: --golden '" << req.golden_dir << "': no such directory\n";
    return 1;
  }
  std::vector<LoadError> load_errors;
  auto cases = load_golden_dir(req.golden_dir, &load_errors);
  for (auto& e : load_errors) std::cerr << e.file << ": error: " << e.message << "\n";

  std::vector<std::unique_ptr<Executor>> executors;
  std::vector<std::string> sources;  // of each executor, for messages
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
      ex->set_case_timeout(req.case_timeout_s);
      ex->set_function_constants(m.function_constants);
      executors.push_back(std::move(ex));
      sources.push_back(m.source);
    }
  }
  // One definition per kernel and target: a stale module beside a fresh one
  // would otherwise decide by the order of the files.
  std::map<std::tuple<std::string, std::string, std::map<std::string, std::string>>, std::string> defined;
  for (size_t i = 0; i < executors.size(); ++i)
    for (const auto& k : executors[i]->kernel_names()) {
      auto [it, fresh] =
          defined.emplace(std::make_tuple(executors[i]->target(), k, executors[i]->function_constants()), sources[i]);
      if (!fresh) {
        std::cerr << "mslport: error: kernel '" << k << "' is defined by both " << it->second << " and " << sources[i]
                  << " (" << executors[i]->target() << "); only the first is run\n";
        failed = true;
      }
    }
  std::vector<Executor*> raw;
  for (auto& e : executors) raw.push_back(e.get());
  // A --kernel that names nothing would otherwise check nothing and pass.
  for (const auto& k : req.kernels) {
    bool known = std::any_of(raw.begin(), raw.end(), [&](const Executor* e) { return e->has_kernel(k); }) ||
                 std::any_of(cases.begin(), cases.end(), [&](const GoldenCase& c) { return c.kernel == k; });
    if (!known) {
      std::cerr << "mslport: error: --kernel " << k << ": no kernel or golden case of that name\n";
      failed = true;
    }
  }
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
  size_t ran = 0;
  for (auto& r : results) {
    failed = failed || r.status == "fail" || r.status == "error";
    ran += r.status != "not_covered";
  }
  if (ran == 0) {
    if (cases.empty())
      std::cerr << "mslport: error: no golden case under '" << req.golden_dir << "': nothing was checked\n";
    else
      std::cerr << "mslport: error: none of the " << cases.size() << " golden cases under '" << req.golden_dir
                << "' is of a kernel in the checked modules" << (req.kernels.empty() ? "" : " and --kernel")
                << ": nothing was checked\n";
    failed = true;
  }
  return failed ? 1 : 0;
}

}  // namespace mslport::runtime
