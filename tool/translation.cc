#include <algorithm>
#include <filesystem>

#include "back/opencl/emit_opencl.h"
#include "back/openmp/emit_openmp.h"
#include "back/openmp/raise/sanitize.h"
#include "commands.h"
#include "front/parse_metal.h"
#include "ir/verifier.h"
#include "support/atomic_file.h"
#include "support/large_stack.h"
#include "support/phase_times.h"

namespace fs = std::filesystem;

namespace mslport::tool {

const char* const kVersion = MSLPORT_VERSION;

namespace {

bool translate_on_this_stack(const std::string& path, Target target, bool line_directives, DiagEngine& diags,
                             Translation* out, unsigned sanitize) {
  out->source = path;
  out->stem = fs::path(path).stem().string();
  auto module = front::parse_metal_file(path, diags);
  if (!module || diags.has_errors()) return false;
  // Translating a file without a kernel is almost always a mistake (the
  // wrong file, or kernels not marked `kernel`): say so, once.
  if (module->kernels.empty())
    diags.warning(ir::SourceLoc{path, 0, 0}, "no kernel in this file: the translation defines none");
  {
    PhaseTimer timer("IR verifier");
    if (!ir::verify_module(*module, diags)) return false;
  }
  bool ok = true;
  if (target != Target::OpenCL) {
    back::openmp::EmitOptions o;
    o.tool_version = kVersion;
    o.header_name = out->stem + ".h";
    o.line_directives = line_directives;
    o.sanitize = sanitize;
    back::openmp::EmitResult r;
    PhaseTimer timer("C++/OpenMP: lowering passes + emit");
    if (back::openmp::emit_module(*module, o, diags, &r)) {
      out->cpp = std::move(r.cpp_source);
      out->header = std::move(r.header_source);
    } else {
      ok = false;
    }
  }
  if (target != Target::OpenMP) {
    back::opencl::EmitOptions o;
    o.tool_version = kVersion;
    o.line_directives = line_directives;
    back::opencl::EmitResult r;
    PhaseTimer timer("OpenCL: raise + lowering passes + emit");
    if (back::opencl::emit_module(*module, o, diags, &r)) {
      out->cl = std::move(r.cl_source);
      out->bindings = std::move(r.bindings_json);
    } else {
      ok = false;
    }
  }
  return ok && !diags.has_errors();
}

}  // namespace

bool translate_file(const std::string& path, Target target, bool line_directives, DiagEngine& diags,
                    Translation* out, unsigned sanitize) {
  // Every phase recurses over the input's nesting (bounded by the front end
  // at ir::kMaxNestingDepth): on a stack sized for that, not the 8 MB a
  // process or std::thread gets.
  bool ok = false;
  run_with_stack(kTranslationStackBytes,
                 [&] { ok = translate_on_this_stack(path, target, line_directives, diags, out, sanitize); });
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

}  // namespace mslport::tool
