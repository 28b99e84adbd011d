// The OpenCL backend's entry point: lower (shared passes), raise (raise/),
// print (printer.cc), describe the arguments (bindings.cc).
#include "back/opencl/emit_opencl.h"

#include "back/opencl/bindings.h"
#include "back/opencl/printer.h"
#include "back/opencl/raise/raise.h"
#include "passes/inline_functions.h"
#include "passes/lower_execution_model.h"

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
  // Helpers first: every later step sees kernels only.
  if (!passes::inline_functions(raised.module, diags)) return false;
  passes::LowerOptions lower;
  lower.guard_grid = true;  // OpenCL 1.2 rounds dispatchThreads grids up to whole work-groups
  for (auto& k : raised.module.kernels) passes::lower_execution_model(raised.module, k, diags, lower);
  if (diags.error_count() != errors_before) return false;

  RaiseContext ctx{raised.module, diags, raised.prelude};
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
