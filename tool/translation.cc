#include <algorithm>
#include <filesystem>
#include <ostream>

#include "back/opencl/emit_opencl.h"
#include "back/openmp/emit_openmp.h"
#include "back/openmp/raise/sanitize.h"
#include "commands.h"
#include "front/parse_metal.h"
#include "ir/verifier.h"
#include "passes/compute_constants_in_kernels.h"
#include "passes/inline_functions.h"
#include "support/atomic_file.h"
#include "support/large_stack.h"
#include "support/phase_times.h"

namespace fs = std::filesystem;

namespace mslport::tool {

const char* const kVersion = MSLPORT_VERSION;

namespace {

// Runs one backend over the module; a kernel it cannot take is removed from
// the module and listed in *skipped (its diagnostics as the reasons), so the
// other kernels still come out. A failure outside any kernel fails.
template <typename Emit>
bool emit_isolating_kernels(ir::Module& module, const Emit& emit, DiagEngine& diags,
                            std::vector<SkippedKernel>* skipped) {
  DiagEngine scratch;
  if (emit(module, scratch)) {
    for (auto& d : scratch.diagnostics()) diags.report(d.severity, d.loc, d.message);
    return true;
  }
  // Which kernels fail on their own? (Each on a module holding it alone:
  // the kernels are moved out first, so that no copy copies them all.)
  std::vector<ir::Kernel> all = std::move(module.kernels), keep;
  module.kernels.clear();
  for (auto& k : all) {
    ir::Module one = ir::clone_module(module);
    one.kernels.push_back(ir::clone_kernel(k));
    DiagEngine d;
    if (emit(one, d)) {
      keep.push_back(std::move(k));
    } else {
      skipped->push_back(SkippedKernel{k.name, k.loc, d.diagnostics()});
    }
  }
  module.kernels = std::move(keep);
  if (module.kernels.empty()) return true;  // the caller reports "nothing translated"
  scratch.clear();
  bool ok = emit(module, scratch);
  for (auto& d : scratch.diagnostics()) diags.report(d.severity, d.loc, d.message);
  return ok;
}

bool translate_on_this_stack(const std::string& path, Target target, const TranslateOptions& options, DiagEngine& diags,
                             Translation* out) {
  out->source = path;
  out->stem = options.stem.empty() ? fs::path(path).stem().string() : options.stem;
  std::vector<SkippedKernel>& skipped = out->skipped;
  auto module = options.source_text
                    ? front::parse_metal_source(path, *options.source_text, diags, options.parse, &skipped)
                    : front::parse_metal_file(path, diags, options.parse, &skipped);
  if (module)
    for (auto& k : module->kernels) {
      out->kernel_names.push_back(k.name);
      for (auto& p : k.params)
        if (p.kind == ir::Param::Kind::FunctionConstant) {
          out->set_at_dispatch[k.name].push_back(p.name);
          out->set_at_dispatch[k.name].push_back(std::to_string(p.index));
        }
    }
  for (auto& k : skipped) out->kernel_names.push_back(k.name);
  if (!module || diags.has_errors()) return false;
  // Translating a file without a kernel is almost always a mistake (the
  // wrong file, or kernels not marked `kernel`): say so, once.
  if (module->kernels.empty() && skipped.empty())
    diags.warning(ir::SourceLoc{path, 0, 0}, "no kernel in this file: the translation defines none");
  if (!options.kernels.empty()) {
    std::vector<ir::Kernel> keep;
    for (auto& name : options.kernels) {
      auto it = std::find_if(module->kernels.begin(), module->kernels.end(),
                             [&](const ir::Kernel& k) { return k.name == name; });
      bool was_skipped = std::any_of(skipped.begin(), skipped.end(), [&](auto& s) { return s.name == name; });
      if (it != module->kernels.end()) keep.push_back(std::move(*it));
      else if (!was_skipped) diags.error(ir::SourceLoc{path, 0, 0}, "no kernel named '" + name + "' in this file");
    }
    module->kernels = std::move(keep);
    skipped.erase(std::remove_if(skipped.begin(), skipped.end(),
                                 [&](auto& s) {
                                   return std::find(options.kernels.begin(), options.kernels.end(), s.name) ==
                                          options.kernels.end();
                                 }),
                  skipped.end());
    if (diags.has_errors()) return false;
  }
  {
    // A kernel (or a helper it calls) the verifier rejects is a bug of
    // mslport's; under partial translation it costs that kernel only.
    PhaseTimer timer("IR verifier");
    DiagEngine v;
    if (!ir::verify_module(*module, v)) {
      std::vector<bool> bad_function(module->functions.size());
      for (size_t f = 0; f < module->functions.size(); ++f) {
        DiagEngine d;
        bad_function[f] = !ir::verify_function(*module, module->functions[f], d);
      }
      std::vector<ir::Kernel> keep;
      for (auto& k : module->kernels) {
        DiagEngine d;
        bool ok = ir::verify_kernel(*module, k, d);
        std::vector<Diagnostic> reasons = d.diagnostics();
        // Functions it calls, directly or through others (a called function's
        // calls are in its own body).
        std::vector<int> todo;
        std::vector<bool> seen(module->functions.size());
        auto calls = [&](const ir::Stmt& body) {
          ir::walk_stmt_exprs(body, [&](const ir::Expr& e) {
            if (e.kind == ir::Expr::Kind::UserCall && !seen[e.index]) {
              seen[e.index] = true;
              todo.push_back(e.index);
            }
            return true;
          });
        };
        calls(*k.body);
        while (!todo.empty()) {
          int f = todo.back();
          todo.pop_back();
          if (bad_function[f]) {
            ok = false;
            DiagEngine fd;
            ir::verify_function(*module, module->functions[f], fd);
            for (auto& x : fd.diagnostics()) reasons.push_back(x);
          }
          calls(*module->functions[f].def.body);
        }
        if (ok) keep.push_back(std::move(k));
        else skipped.push_back(SkippedKernel{k.name, k.loc, reasons});
      }
      module->kernels = std::move(keep);
    }
  }
  {
    // Helpers are inlined once here, for both backends, and the module
    // keeps no function: every copy the backends make is of kernels only
    // (their pipelines start with the same step, which then finds nothing;
    // `mslport ir --print-after=inline_functions` shows it working).
    PhaseTimer timer("inline helper functions");
    // Constants a helper computes first: each kernel computes them in
    // locals, whose calls are inlined with the others.
    passes::compute_constants_in_kernels(*module);
    std::vector<ir::Kernel> keep;
    for (auto& k : module->kernels) {
      DiagEngine d;
      if (passes::inline_functions(*module, k, d)) keep.push_back(std::move(k));
      else skipped.push_back(SkippedKernel{k.name, k.loc, d.diagnostics()});
    }
    module->kernels = std::move(keep);
    module->functions.clear();
  }
  bool ok = true;
  back::openmp::EmitOptions openmp;
  openmp.tool_version = kVersion;
  openmp.header_name = out->stem + ".h";
  openmp.line_directives = options.line_directives;
  openmp.sanitize = options.sanitize;
  if (target != Target::OpenCL) {
    const back::openmp::EmitOptions& o = openmp;
    back::openmp::EmitResult r;
    PhaseTimer timer("C++/OpenMP: lowering passes + emit");
    ok = emit_isolating_kernels(
        *module, [&](const ir::Module& m, DiagEngine& d) { return back::openmp::emit_module(m, o, d, &r); }, diags,
        &skipped);
    out->cpp = std::move(r.cpp_source);
    out->header = std::move(r.header_source);
  }
  if (ok && target != Target::OpenMP) {
    back::opencl::EmitOptions o;
    o.tool_version = kVersion;
    o.line_directives = options.line_directives;
    back::opencl::EmitResult r;
    PhaseTimer timer("OpenCL: raise + lowering passes + emit");
    size_t before = module->kernels.size();
    ok = emit_isolating_kernels(
        *module, [&](const ir::Module& m, DiagEngine& d) { return back::opencl::emit_module(m, o, d, &r); }, diags,
        &skipped);
    out->cl = std::move(r.cl_source);
    out->bindings = std::move(r.bindings_json);
    // A kernel OpenCL left out must leave the C++ too: both targets carry
    // the same kernels.
    if (ok && target == Target::All && module->kernels.size() != before) {
      back::openmp::EmitResult r2;
      ok = back::openmp::emit_module(*module, openmp, diags, &r2);
      out->cpp = std::move(r2.cpp_source);
      out->header = std::move(r2.header_source);
    }
  }
  out->kernels = (int)module->kernels.size();
  if (!ok || diags.has_errors()) return false;
  if (out->kernels == 0) {
    // Nothing left: the reasons are the file's errors.
    for (auto& s : skipped)
      for (auto& r : s.reasons) diags.report(r.severity, r.loc, r.message);
    // A file without any kernel was warned about above and translates to
    // an empty module; one whose kernels all failed is an error.
    if (skipped.empty()) return true;
    skipped.clear();
    diags.error(ir::SourceLoc{path, 0, 0}, "no kernel of this file can be translated");
    return false;
  }
  return !(options.werror && !skipped.empty());
}

}  // namespace

void report_skipped(const Translation& t, const TranslateOptions& options, bool always, std::ostream& os) {
  for (auto& s : t.skipped) {
    for (auto& r : s.reasons) {
      Diagnostic d = r;
      if (d.severity == Severity::Error) {
        d.severity = options.werror ? Severity::Error : Severity::Warning;
        d.message += " [kernel '" + s.name + "' " + (options.werror ? "not translated" : "skipped") + "]";
      }
      emit_diagnostic(d, os);
    }
  }
  if (always || !t.skipped.empty()) {
    std::string summary = std::to_string(t.kernels) + " kernel" + (t.kernels == 1 ? "" : "s") + " translated, " +
                          std::to_string(t.skipped.size()) + " skipped";
    // Text: the summary line as it always was; JSON and SARIF: a note.
    if (diagnostic_style().format == DiagFormat::Text) os << t.source << ": " << summary << "\n";
    else emit_diagnostic(Diagnostic{Severity::Note, ir::SourceLoc{t.source, 0, 0}, summary}, os);
  }
}

bool translate_file(const std::string& path, Target target, const TranslateOptions& options, DiagEngine& diags,
                    Translation* out) {
  // Every phase recurses over the input's nesting (bounded by the front end
  // at ir::kMaxNestingDepth): on a stack sized for that, not the 8 MB a
  // process or std::thread gets.
  bool ok = false;
  run_with_stack(kTranslationStackBytes, [&] { ok = translate_on_this_stack(path, target, options, diags, out); });
  return ok;
}

bool parse_sanitize_list(const std::string& list, unsigned* checks, std::string* error) {
  *checks = 0;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name == "race") *checks |= back::openmp::kSanitizeRace;
    else if (name == "bounds") *checks |= back::openmp::kSanitizeBounds;
    else if (name == "init") *checks |= back::openmp::kSanitizeInit;
    else if (name == "divergence") *checks |= back::openmp::kSanitizeDivergence;
    else {
      *error = "unknown sanitizer check '" + name + "' (race, bounds, init, divergence)";
      return false;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

bool write_emitted(const Translation& t, const std::string& dir, runtime::EmittedFiles* files, std::string* error) {
  fs::path d(dir);
  std::error_code ec;
  fs::create_directories(d, ec);
  if (ec) {
    *error = "cannot create '" + dir + "': " + ec.message();
    return false;
  }
  files->source = t.source;
  if (!t.cpp.empty()) {
    files->cpp = (d / (t.stem + ".cpp")).string();
    if (!write_files_atomic({{(d / (t.stem + ".h")).string(), t.header}, {files->cpp, t.cpp}}, error)) return false;
  }
  if (!t.cl.empty()) {
    files->cl = (d / (t.stem + ".cl")).string();
    files->bindings = (d / (t.stem + ".bindings.json")).string();
    if (!write_files_atomic({{files->cl, t.cl}, {files->bindings, t.bindings}}, error)) return false;
  }
  return true;
}

std::vector<std::string> expand_sources(const std::vector<std::string>& paths, std::string* error) {
  std::vector<std::string> out;
  for (auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (fs::recursive_directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".metal") found.push_back(it->path().string());
      if (ec) {
        *error = p + ": cannot list: " + ec.message();
        return {};
      }
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      out.push_back(p);
    } else {
      *error = p + ": no such file or directory";
      return {};
    }
  }
  return out;
}

std::map<std::string, std::string> fixed_at_translation(const Translation& probe, const std::string& kernel,
                                                        const std::map<std::string, std::string>& case_constants) {
  auto it = probe.set_at_dispatch.find(kernel);
  if (it == probe.set_at_dispatch.end()) return case_constants;
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : case_constants)
    if (std::find(it->second.begin(), it->second.end(), key) == it->second.end()) out.emplace(key, value);
  return out;
}

}  // namespace mslport::tool
