#include <algorithm>
#include <filesystem>

#include "back/opencl/emit_opencl.h"
#include "back/openmp/emit_openmp.h"
#include "commands.h"
#include "front/parse_metal.h"
#include "ir/verifier.h"

namespace fs = std::filesystem;

namespace mslport::tool {

const char* const kVersion = MSLPORT_VERSION;

bool translate_file(const std::string& path, Target target, bool line_directives, DiagEngine& diags,
                    Translation* out) {
  out->source = path;
  out->stem = fs::path(path).stem().string();
  auto module = front::parse_metal_file(path, diags);
  if (!module || diags.has_errors()) return false;
  if (!ir::verify_module(*module, diags)) return false;
  bool ok = true;
  if (target != Target::OpenCL) {
    back::openmp::EmitOptions o;
    o.tool_version = kVersion;
    o.header_name = out->stem + ".h";
    o.line_directives = line_directives;
    back::openmp::EmitResult r;
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
    if (back::opencl::emit_module(*module, o, diags, &r)) {
      out->cl = std::move(r.cl_source);
      out->bindings = std::move(r.bindings_json);
    } else {
      ok = false;
    }
  }
  return ok && !diags.has_errors();
}

std::vector<std::string> expand_sources(const std::vector<std::string>& paths, std::string* error) {
  std::vector<std::string> out;
  for (auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().extension() == ".metal") found.push_back(e.path().string());
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
