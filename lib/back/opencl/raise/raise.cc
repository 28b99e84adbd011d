// The OpenCL raise pipeline: read this function to learn the backend.
#include "back/opencl/raise/raise.h"

#include <set>

namespace mslport::back::opencl {

bool raise_module(RaiseContext& ctx, RaisedModule* out) {
  ir::Module& m = ctx.module;
  const int errors_before = ctx.diags.error_count();
  // First, so that no later step meets a construct it cannot handle.
  bool supported = true;
  for (auto& k : m.kernels) supported = check_supported(ctx, k) && supported;
  if (!supported) return false;
  // Before the steps that add locals: ir::add_var keeps those unique against the renamed names.
  rename_reserved(ctx);

  out->kernels.assign(m.kernels.size(), ClKernel{});
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    ir::Kernel& k = m.kernels[i];
    ClKernel& cl = out->kernels[i];
    // Before memory_types: `constant bfloat& x` must already read memory (*x).
    raise_kernel_interface(ctx, k, cl);
    // While collectives are still Collective nodes (how it finds synchronisation).
    raise_early_returns(ctx, k);
    // Before builtin_calls and simd_collectives: they choose by OpenCL value
    // types (a bfloat max is an fmax on floats; a half simd_sum sums floats).
    if (!raise_memory_types(ctx, k)) continue;
    // Before builtin_calls, which reports any function it does not know.
    if (!raise_simdgroup_matrix(ctx, k)) continue;
    // After kernel_interface: the grid guard needs the grid argument.
    if (!raise_builtin_calls(ctx, k, cl)) continue;
    raise_simd_collectives(ctx, k, cl);
    // After simd_collectives, which spells the loop vote as a helper call.
    raise_sync_loops(ctx, k);
    // After memory_types: half and bfloat locals are floats by now.
    raise_zero_init_locals(ctx, k);
    raise_vectors(ctx, k);
    // Last: it moves divisors in front of loops as the earlier steps left them.
    raise_invariant_division(ctx, k);
    // After invariant_division: it reads the loops' bounds and steps as they end up.
    raise_prefetch_strided_loads(ctx, k);
  }
  // After every kernel's memory_types, which reads the Metal field types.
  raise_struct_and_constant_types(ctx);
  // After struct_and_constant_types: padding is computed on storage types.
  raise_struct_layout(ctx);
  raise_global_constants(ctx);
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
