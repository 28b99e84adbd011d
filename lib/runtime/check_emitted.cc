#include "runtime/check_emitted.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "runtime/case_buffers.h"
#include "runtime/compare.h"
#include "runtime/npy.h"
#include "runtime/runner.h"
#include "support/diagnostics.h"
#include "support/file_transaction.h"
#include "support/project_file.h"
#include "support/work_dir.h"

namespace fs = std::filesystem;

namespace mslport::runtime {

std::vector<EmittedFiles> find_emitted_targets(const std::string& targets_dir, std::string* error) {
  std::set<std::string> stems;
  std::error_code ec;
  if (has_unfinished_transaction(targets_dir)) {
    if (error)
      *error = "an interrupted `mslport regen` left " + targets_dir +
               "/ half-written; run `mslport regen` (or "
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
  if (out.empty() && error) *error = "no emitted files under " + targets_dir + "/openmp or " + targets_dir + "/opencl";
  return out;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Builds an executor per module and target; false when any failed to build.
bool load_executors(const std::vector<EmittedFiles>& modules, const std::vector<std::string>& targets,
                    const CheckRequest& req, const std::string& build_subdir,
                    std::vector<std::unique_ptr<Executor>>* executors, std::vector<std::string>* sources) {
  bool ok = true;
  for (auto& m : modules) {
    for (auto& target : targets) {
      std::string err;
      std::unique_ptr<Executor> ex;
      if (target == "openmp") {
        if (m.cpp.empty()) continue;
        ex =
            load_openmp_module(m.cpp, (fs::path(req.build_dir) / build_subdir / fs::path(m.cpp).stem()).string(), &err);
      } else {
        if (m.cl.empty()) continue;
        ex = load_opencl_program(m.cl, m.bindings, req.platform, &err);
      }
      if (!ex) {
        ToolMessage(Severity::Error) << m.source << ": the emitted " << target << " code failed to build:\n" << err;
        ok = false;
        continue;
      }
      ex->set_case_timeout(req.case_timeout_s);
      ex->set_function_constants(m.function_constants);
      executors->push_back(std::move(ex));
      sources->push_back(m.source);
    }
  }
  return ok;
}

// One definition per kernel and target: a stale module beside a fresh one
// would otherwise decide by the order of the files.
bool unique_definitions(const std::vector<std::unique_ptr<Executor>>& executors,
                        const std::vector<std::string>& sources) {
  bool ok = true;
  std::map<std::tuple<std::string, std::string, std::map<std::string, std::string>>, std::string> defined;
  for (size_t i = 0; i < executors.size(); ++i)
    for (const auto& k : executors[i]->kernel_names()) {
      auto [it, fresh] =
          defined.emplace(std::make_tuple(executors[i]->target(), k, executors[i]->function_constants()), sources[i]);
      if (!fresh) {
        ToolMessage(Severity::Error) << "kernel '" << k << "' is defined by both " << it->second << " and "
                                     << sources[i] << " (" << executors[i]->target() << "); only the first is run";
        ok = false;
      }
    }
  return ok;
}

std::vector<Executor*> raw(const std::vector<std::unique_ptr<Executor>>& executors) {
  std::vector<Executor*> out;
  for (auto& e : executors) out.push_back(e.get());
  return out;
}

// The differential row of a case of inputs only: the C++/OpenMP outputs
// against the OpenCL ones, element by element within the case's tolerance
// (the OpenCL output in the expected value's place; integers exactly).
CaseResult compare_targets(const GoldenCase& c, const CaseResult& omp, const CaseResult& cl) {
  CaseResult r;
  r.kernel = c.kernel;
  r.case_name = c.name;
  r.target = "openmp-vs-opencl";
  r.seconds = std::max(omp.seconds, 0.0) + std::max(cl.seconds, 0.0);
  for (const CaseResult* side : {&omp, &cl}) {
    if (side->status == "not_covered") {
      r.status = "not_covered";
      r.message = side->message;
      return r;
    }
  }
  std::string msg;
  auto add = [&](const std::string& m) { msg += (msg.empty() ? "" : "\n") + m; };
  bool errored = false;
  for (const CaseResult* side : {&omp, &cl}) {
    if (side->status == "error") {
      errored = true;
      add(side->target + ": " + side->message);
    }
  }
  if (errored) {
    r.status = "error";
    r.message = msg;
    return r;
  }
  bool pass = true;
  // What each side's own checks found (writes past the end, read-only
  // buffers changed).
  for (const CaseResult* side : {&omp, &cl}) {
    if (side->status == "fail") {
      pass = false;
      add(side->target + ": " + side->message);
      for (auto f : side->failures) {
        f.buffer = side->target + ": " + f.buffer;
        r.failures.push_back(std::move(f));
      }
    }
  }
  for (const BufferSpec& b : c.buffers) {
    if (b.access == Access::Read) continue;
    const std::string file = buffer_key(b) + ".npy";
    NpyArray a, e;
    std::string err;
    if (!read_npy((fs::path(c.capture_dir) / "openmp" / file).string(), &a, &err) ||
        !read_npy((fs::path(c.capture_dir) / "opencl" / file).string(), &e, &err)) {
      r.status = "error";
      r.message = "the output of buffer(" + buffer_key(b) + ") '" + b.name + "' was not kept: " + err;
      return r;
    }
    CompareResult cr = compare_output(e, a.data.data(), a.data.size(), b.atol, b.rtol, b.compare_as, b.name);
    r.max_abs_err = std::max(r.max_abs_err, cr.max_abs_err);
    r.max_rel_err = std::max(r.max_rel_err, cr.max_rel_err);
    if (!cr.pass) {
      pass = false;
      add("openmp (got) vs opencl (expected): " + cr.message);
      r.failures.push_back(buffer_failure(b, cr));
    }
  }
  r.status = pass ? "pass" : "fail";
  r.message = msg;
  return r;
}

}  // namespace

int check_emitted(const CheckRequest& req, bool failed) {
  const Clock::time_point started = Clock::now();
  // The golden cases first: a missing --golden is known in a millisecond,
  // before minutes of building.
  std::error_code ec;
  if (!fs::exists(req.golden_dir, ec)) {
    ToolMessage(Severity::Error) << "--golden '" << req.golden_dir
                                 << "': no such directory (golden cases live in GOLDEN/KERNEL/CASE/case.json; "
                                    "`mslport new-case KERNEL` writes one)";
    return 1;
  }
  std::vector<LoadError> load_errors;
  auto cases = load_golden_dir(req.golden_dir, &load_errors);
  for (auto& e : load_errors)
    emit_diagnostic(Diagnostic{Severity::Error, ir::SourceLoc{e.file, 0, 0}, e.message}, std::cerr);

  const Clock::time_point build_start = Clock::now();
  std::vector<std::unique_ptr<Executor>> executors, sanitized;
  std::vector<std::string> sources, sanitized_sources;  // of each executor, for messages
  failed = !load_executors(req.modules, req.targets, req, "", &executors, &sources) || failed;
  if (req.differential)
    failed =
        !load_executors(req.sanitized_modules, {"openmp"}, req, "sanitize", &sanitized, &sanitized_sources) || failed;
  const double build_seconds = since(build_start);
  failed = !unique_definitions(executors, sources) || failed;
  failed = !unique_definitions(sanitized, sanitized_sources) || failed;

  // The sources' kernels: only their cases run and are reported.
  std::map<std::string, std::string> kernels = req.source_kernels;
  if (kernels.empty())
    for (size_t i = 0; i < executors.size(); ++i)
      for (const auto& k : executors[i]->kernel_names()) kernels.emplace(k, sources[i]);
  for (const auto& k : req.kernels) {
    if (!kernels.count(k)) {
      ToolMessage(Severity::Error) << "--kernel " << k << ": no kernel of that name in the sources";
      failed = true;
    }
  }
  auto wanted = [&](const std::string& k) {
    return req.kernels.empty() || std::find(req.kernels.begin(), req.kernels.end(), k) != req.kernels.end();
  };

  // Cases of kernels that are not in the sources: a typo, a renamed or a
  // removed kernel, or another library's cases.
  std::map<std::string, std::vector<const GoldenCase*>> others;
  std::vector<GoldenCase> golden, inputs_only;
  std::map<std::string, size_t> golden_count, inputs_count;
  for (const GoldenCase& c : cases) {
    if (!kernels.count(c.kernel)) {
      others[c.kernel].push_back(&c);
      continue;
    }
    if (!wanted(c.kernel)) continue;
    if (c.inputs_only()) {
      inputs_only.push_back(c);
      ++inputs_count[c.kernel];
    } else {
      golden.push_back(c);
      ++golden_count[c.kernel];
    }
  }
  if (!others.empty() && req.kernels.empty()) {
    if (req.allow_other_cases || req.sources_incomplete) {
      size_t n = 0;
      for (auto& [k, cs] : others) n += cs.size();
      ToolMessage(Severity::Note) << "skipped " << n << " golden case" << (n == 1 ? "" : "s") << " of " << others.size()
                                  << " kernel" << (others.size() == 1 ? "" : "s")
                                  << " that are not in the sources (--allow-other-cases)";
    } else {
      for (auto& [k, cs] : others) {
        std::string file = (fs::path(cs.front()->dir) / "case.json").string();
        emit_diagnostic(
            Diagnostic{
                Severity::Error, ir::SourceLoc{path_inside(file, fs::current_path(ec).string()), 0, 0},
                "golden case '" + cs.front()->name + "' is of kernel '" + k + "', which no source defines" +
                    (cs.size() > 1 ? " (nor the other " + std::to_string(cs.size() - 1) + " cases of that kernel)"
                                   : "") +
                    "; --allow-other-cases skips the cases of other kernels"},
            std::cerr);
      }
      failed = true;
    }
  }
  // Kernels of the sources without a case.
  for (const auto& [k, source] : kernels) {
    if (!wanted(k) || golden_count.count(k) || (req.differential && inputs_count.count(k))) continue;
    // A case that failed to load (reported above) is not a missing one.
    const fs::path kernel_dir = fs::path(req.golden_dir) / k;
    const bool unloadable = std::any_of(load_errors.begin(), load_errors.end(), [&](const LoadError& e) {
      return path_inside(fs::path(e.file).lexically_normal().string(), kernel_dir.lexically_normal().string()) !=
             fs::path(e.file).lexically_normal().string();
    });
    std::string why = unloadable ? "has no golden case that loads (see the errors above)"
                      : inputs_count.count(k)
                          ? "has only cases that give inputs (no expected outputs); `mslport check --differential` "
                            "runs them"
                          : "has no golden case under '" + req.golden_dir + "' (`mslport new-case " + k + " --src " +
                                source + "` writes a skeleton)";
    emit_diagnostic(Diagnostic{req.allow_missing_cases ? Severity::Warning : Severity::Error,
                               ir::SourceLoc{source, 0, 0}, "kernel '" + k + "' " + why},
                    std::cerr);
    failed = failed || !req.allow_missing_cases;
  }
  if (!inputs_only.empty() && !req.differential)
    ToolMessage(Severity::Note) << inputs_only.size() << " case" << (inputs_only.size() == 1 ? "" : "s")
                                << (inputs_only.size() == 1 ? " gives" : " give")
                                << " inputs only and did not run; `mslport check --differential` runs them";

  const Clock::time_point run_start = Clock::now();
  auto results = run_cases(golden, req.targets, raw(executors), {});
  // Findings once per kind and source-line pair, over all cases.
  std::vector<Finding> findings;
  std::map<std::string, size_t> seen;
  auto collect = [&](const CaseResult& r) {
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
  };
  for (auto& r : results) collect(r);

  if (req.differential && !inputs_only.empty()) {
    RunDir capture;
    std::string err;
    if (!capture.create(req.work_dir.empty() ? req.build_dir : req.work_dir, "outputs", &err)) {
      ToolMessage(Severity::Error) << err;
      return 1;
    }
    std::vector<GoldenCase> runs = inputs_only;
    for (size_t i = 0; i < runs.size(); ++i)
      runs[i].capture_dir = (fs::path(capture.path()) / std::to_string(i)).string();
    auto both = run_cases(runs, {"openmp", "opencl"}, raw(executors), {});
    auto checked = run_cases(inputs_only, {"openmp"}, raw(sanitized), {});
    for (size_t i = 0; i < runs.size(); ++i) {
      results.push_back(compare_targets(runs[i], both[2 * i], both[2 * i + 1]));
      CaseResult s = checked[i];
      s.target = "openmp-sanitized";
      // Its outputs are not compared (the row above does): findings only.
      if (s.status == "pass") s.message.clear();
      collect(s);
      if (s.status == "pass" && !s.findings.empty()) {
        s.status = "fail";
        s.message = std::to_string(s.findings.size()) + " sanitizer finding" + (s.findings.size() == 1 ? "" : "s") +
                    " (printed above)";
      }
      results.push_back(std::move(s));
    }
  }
  const double run_seconds = since(run_start);
  const bool sanitizing = req.sanitize || req.differential;
  if (sanitizing) {
    for (auto& f : findings) {
      emit_diagnostic(Diagnostic{Severity::Warning, ir::SourceLoc{f.file, f.line, f.col},
                                 f.message + " [" + f.kernel + " / " + f.case_name +
                                     (f.cases > 1 ? " and " + std::to_string(f.cases - 1) + " more" : "") + "]"},
                      std::cerr);
      if (!f.note_file.empty())
        emit_diagnostic(Diagnostic{Severity::Note, ir::SourceLoc{f.note_file, f.note_line, f.note_col}, f.note},
                        std::cerr);
    }
  }

  ReportContext ctx;
  ctx.version = req.version;
  ctx.golden_dir = req.golden_dir;
  if (std::find(req.targets.begin(), req.targets.end(), "openmp") != req.targets.end()) {
    OpenMpCompileCommand cmd = openmp_compile_command();
    ctx.compiler = cmd.compiler;
    ctx.compiler_flags = cmd.flags;
  }
  std::set<std::pair<std::string, std::string>> devices;
  for (auto& e : executors)
    if (!e->device().empty()) devices.emplace(e->target(), e->device());
  ctx.devices.assign(devices.begin(), devices.end());
  for (const auto& [k, source] : kernels)
    if (wanted(k)) {
      ctx.kernels.emplace_back(k, source);
      ctx.case_counts[k] =
          (golden_count.count(k) ? golden_count[k] : 0) + (inputs_count.count(k) ? inputs_count[k] : 0);
    }
  ctx.translate_seconds = req.translate_seconds;
  ctx.build_seconds = build_seconds;
  ctx.run_seconds = run_seconds;
  ctx.total_seconds = since(started) + std::max(req.translate_seconds, 0.0);
  ctx.sanitized = sanitizing;
  const std::vector<Finding>* reported = sanitizing ? &findings : nullptr;
  if (req.format == "json") std::cout << format_json(results, reported, &ctx);
  else if (req.format == "junit") std::cout << format_junit(results, reported, ctx);
  else std::cout << format_table(results);
  if (sanitizing && req.format == "table") std::cout << findings.size() << " sanitizer findings\n";
  failed = failed || !findings.empty();
  failed = failed || !load_errors.empty();
  size_t ran = 0;
  for (auto& r : results) {
    failed = failed || r.status == "fail" || r.status == "error";
    ran += r.status != "not_covered";
  }
  if (ran == 0) {
    if (cases.empty())
      ToolMessage(Severity::Error) << "no golden case under '" << req.golden_dir << "': nothing was checked";
    else
      ToolMessage(Severity::Error) << "no case of the sources' kernels ran"
                                   << (req.kernels.empty() ? "" : " (--kernel)") << ": nothing was checked";
    failed = true;
  }
  return failed ? 1 : 0;
}

}  // namespace mslport::runtime
