// The OpenCL raise pipeline: read this function to learn the backend.
#include "back/opencl/raise/raise.h"

#include <set>

#include "back/opencl/keywords.h"
#include "passes/bind_function_constants.h"
#include "passes/compute_constants_in_kernels.h"
#include "passes/flatten_argument_buffers.h"
#include "passes/inline_functions.h"
#include "passes/lower_execution_model.h"
#include "passes/rename_reserved.h"

namespace mslport::back::opencl {

bool raise_module(RaiseContext& ctx, RaisedModule* out) {
  ir::Module& m = ctx.module;
  passes::Pipeline p(m, ctx.diags, ctx.pipeline);
  const int errors_before = ctx.diags.error_count();
  // Before everything: the steps after it see kernels only, and a barrier or
  // SIMD-group function of a helper is lowered like one in the kernel.
  // First: a constant computed by a helper gets a local in each kernel that
  // reads it, whose initializer's calls the inliner then inlines.
  p.run("compute_constants_in_kernels", [&] { return passes::compute_constants_in_kernels(m), true; });
  if (!p.run("inline_functions", [&] { return passes::inline_functions(m, ctx.diags); })) return false;
  // Then, with every helper's code in the kernels: constants computed by a
  // helper are read from the kernels' locals, and the constants the host
  // sets from the kernels' parameters.
  p.run("read_computed_constants", [&] { return passes::read_computed_constants(m), true; });
  if (!p.run("bind_function_constants", [&] { return passes::bind_function_constants(m, ctx.diags); })) return false;
  // Then the pointers that argument buffers hold become buffer parameters,
  // bound through them (after inlining, a helper's reads of them are the
  // kernel's; before rename_reserved, which renames those parameters too).
  if (!p.run("flatten_argument_buffers", [&] { return passes::flatten_argument_buffers(m, ctx.diags); })) return false;
  // Then, before any step adds names: ir::add_var keeps those unique
  // against the renamed ones (keywords.h says which names OpenCL C reserves).
  p.run("rename_reserved", [&] { return passes::rename_reserved(m, opencl_reserved_names()), true; });
  // The shared lowering of Metal's execution model (lower_execution_model.h),
  // with a grid guard: OpenCL 1.2 rounds dispatchThreads grids up to whole
  // work-groups, and the guard is an early return the lowering handles.
  passes::LowerOptions lower;
  lower.guard_grid = true;
  for (auto& k : m.kernels) passes::lower_statements(p, m, k, lower) && passes::lower_synchronisation(p, m, k);
  if (ctx.diags.error_count() != errors_before) return false;
  // Then, so that no later step meets a construct it cannot handle.
  bool supported = true;
  for (auto& k : m.kernels)
    supported = p.run("check_supported", k, [&] { return check_supported(ctx, k); }) && supported;
  if (!supported) return false;

  out->kernels.assign(m.kernels.size(), ClKernel{});
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    ir::Kernel& k = m.kernels[i];
    ClKernel& cl = out->kernels[i];
    // Before memory_types: `constant bfloat& x` must already read memory (*x).
    p.run("kernel_interface", k, [&] { return raise_kernel_interface(ctx, k, cl), true; });
    // While collectives are still Collective nodes (how it finds synchronisation).
    p.run("early_returns", k, [&] { return raise_early_returns(ctx, k), true; });
    // Before memory_types: it reads the Metal lane types of the operands,
    // which memory_types turns into OpenCL's.
    p.run("bool_vectors", k, [&] { return raise_bool_vectors(ctx, k), true; });
    // Before builtin_calls and simd_collectives: they choose by OpenCL value
    // types (a bfloat max is an fmax on floats; a half simd_sum sums floats).
    if (!p.run("memory_types", k, [&] { return raise_memory_types(ctx, k); })) continue;
    // Before builtin_calls, which reports any function it does not know.
    if (!p.run("simdgroup_matrix", k, [&] { return raise_simdgroup_matrix(ctx, k); })) continue;
    // After kernel_interface: the grid guard needs the grid argument.
    if (!p.run("builtin_calls", k, [&] { return raise_builtin_calls(ctx, k, cl); })) continue;
    p.run("simd_collectives", k, [&] { return raise_simd_collectives(ctx, k, cl), true; });
    // After simd_collectives, which spells the loop vote as a helper call.
    p.run("sync_loops", k, [&] { return raise_sync_loops(ctx, k), true; });
    // After memory_types: half and bfloat locals are floats by now.
    p.run("zero_init_locals", k, [&] { return raise_zero_init_locals(ctx, k), true; });
    p.run("vectors", k, [&] { return raise_vectors(ctx, k), true; });
    // Last: it moves divisors in front of loops as the earlier steps left them.
    p.run("invariant_division", k, [&] { return raise_invariant_division(ctx, k), true; });
    // After invariant_division: it reads the loops' bounds and steps as they end up.
    p.run("prefetch_strided_loads", k, [&] { return raise_prefetch_strided_loads(ctx, k), true; });
  }
  // After every kernel's memory_types, which reads the Metal field types.
  p.run("struct_and_constant_types", [&] { return raise_struct_and_constant_types(ctx), true; });
  // After struct_and_constant_types: padding is computed on storage types.
  p.run("struct_layout", [&] { return raise_struct_layout(ctx); });
  p.run("global_constants", [&] { return raise_global_constants(ctx), true; });
  // Last: print only the helpers that the raised IR still calls.
  std::set<std::string> called;
  auto note = [&](const ir::Expr& e) {
    if (e.kind == ir::Expr::Kind::Call) called.insert(e.spelling);
    return true;
  };
  for (auto& k : m.kernels) {
    if (k.body) ir::walk_stmt_exprs(*k.body, note);
    for (auto& v : k.vars)
      if (v.type.kind == ir::Type::Kind::SimdMatrix) called.insert(Prelude::kSimdMatrixType);
  }
  for (auto& c : m.constants)
    if (c.init) ir::walk_exprs(*c.init, note);
  ctx.prelude.keep_only(called);
  return ctx.diags.error_count() == errors_before;
}

}  // namespace mslport::back::opencl
