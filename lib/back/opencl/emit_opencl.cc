// The OpenCL backend's entry point: raise (raise/, the shared lowering
// included), print (printer.cc), describe the arguments (bindings.cc).
#include "back/opencl/emit_opencl.h"

#include "back/opencl/bindings.h"
#include "back/opencl/printer.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {

namespace {
std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}
}  // namespace

bool emit_module(const ir::Module& module, const EmitOptions& options, DiagEngine& diags, EmitResult* out) {
  const int errors_before = diags.error_count();
  RaisedModule raised;
  raised.module = ir::clone_module(module);
  RaiseContext ctx{raised.module, diags, raised.prelude, options.pipeline};
  if (!raise_module(ctx, &raised)) return false;

  const std::string source = base_name(module.source_path);
  PrintOptions print;
  print.tool_version = options.tool_version;
  print.source_name = source;
  print.line_directives = options.line_directives;
  out->cl_source = print_module(raised, print);
  out->bindings_json = bindings_json(module, raised, source);
  return diags.error_count() == errors_before;
}

}  // namespace mslport::back::opencl
