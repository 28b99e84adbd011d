// Raising: rewrites (a copy of) the lowered IR, step by step, until it has
// exactly the shape of OpenCL C 1.2, so that printer.cc only prints.
// raise.cc runs the steps in order; each step is one file in this folder.
#pragma once

#include "back/opencl/cl_kernel.h"
#include "passes/pipeline.h"
#include "support/diagnostics.h"

namespace mslport::back::opencl {

struct RaiseContext {
  ir::Module& module;
  DiagEngine& diags;
  Prelude& prelude;
  const passes::PipelineOptions* pipeline = nullptr;  // printing / verifying around each step
  // "error: <construct> is not supported by the OpenCL backend yet".
  void unsupported(const ir::SourceLoc& loc, const std::string& construct) {
    diags.error(loc, construct + " is not supported by the OpenCL backend yet");
  }
};

// Runs every step, the shared lowering included, on `out->module` (a copy of
// the front end's). Returns false when a step reported errors.
bool raise_module(RaiseContext& ctx, RaisedModule* out);

// ---- the steps, in pipeline order (see raise.cc for why) ----

// Reports IR the backend cannot print yet (half matrices, a
// kernel named like an OpenCL C reserved word, ...).
bool check_supported(RaiseContext& ctx, const ir::Kernel& k);
// (Then passes::rename_reserved with keywords.h: Metal names that OpenCL C
// reserves, `global`, `half2`, `M_PI`, get names of their own.)
// Kernel arguments: buffers -> `__global` pointers; ConstantRef -> `__constant
// T*` used as `(*p)`; builtins -> locals computed at the top of the kernel;
// the `grid` argument.
void raise_kernel_interface(RaiseContext& ctx, ir::Kernel& k, ClKernel& cl);
// Uniform early returns in kernels with synchronisation -> the alive flag.
void raise_early_returns(RaiseContext& ctx, ir::Kernel& k);
// Operators giving bool vectors -> OpenCL's -1/0 lanes negated to the 1/0 of
// a char vector, OpenCL's form of a bool vector.
void raise_bool_vectors(RaiseContext& ctx, ir::Kernel& k);
// half / bfloat kept as ushort bits in memory and computed in float; bool in
// memory as uchar; bool vectors as char vectors.
bool raise_memory_types(RaiseContext& ctx, ir::Kernel& k);
void raise_struct_and_constant_types(RaiseContext& ctx);
// simdgroup_matrix<float, 8, 8> operations -> prelude helpers.
bool raise_simdgroup_matrix(RaiseContext& ctx, ir::Kernel& k);
// Metal builtin functions -> OpenCL C builtins or prelude helpers.
bool raise_builtin_calls(RaiseContext& ctx, ir::Kernel& k, const ClKernel& cl);
// SIMD-group collectives (and passes::kThreadgroupAny) -> prelude helpers
// over local scratch.
void raise_simd_collectives(RaiseContext& ctx, ir::Kernel& k, ClKernel& cl);
// Loops whose condition synchronises: evaluated before and after the body.
void raise_sync_loops(RaiseContext& ctx, ir::Kernel& k);
// Scalar, vector and pointer locals without an initialiser start at zero.
void raise_zero_init_locals(RaiseContext& ctx, ir::Kernel& k);
// Constant vector indices -> swizzles; vector literal lanes of the lane type.
void raise_vectors(RaiseContext& ctx, ir::Kernel& k);
// Unsigned divisions by a divisor a loop does not change -> a reciprocal
// prepared before the loop (prelude helpers).
void raise_invariant_division(RaiseContext& ctx, ir::Kernel& k);
// Thread-strided loops reading a __global buffer at the loop variable ask
// for the next iteration's element first (an L2 prefetch on NVIDIA).
void raise_prefetch_strided_loads(RaiseContext& ctx, ir::Kernel& k);
// Struct layouts: explicit padding where OpenCL's natural layout differs.
bool raise_struct_layout(RaiseContext& ctx);
// Program-scope constants: initialisers that are OpenCL constant expressions.
void raise_global_constants(RaiseContext& ctx);

}  // namespace mslport::back::opencl
