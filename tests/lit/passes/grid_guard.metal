// The OpenCL pipeline's grid guard (lower_statements with guard_grid):
// OpenCL 1.2 rounds a dispatchThreads grid up to whole work-groups, and the
// guard is an early return like any other. The OpenMP pipeline has none.
// RUN: %mslport ir %s --target opencl --print-after=grid_guard --verify-each | FileCheck %s
// RUN: not %mslport ir %s --target openmp --print-after=grid_guard 2>&1 | FileCheck --check-prefix=OMP %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR after grid_guard
// CHECK: body {
// CHECK-NEXT: if (!__mslport_in_grid()) {
// CHECK-NEXT: return
// OMP: error: no step 'grid_guard' in the openmp pipeline (steps: compute_constants_in_kernels inline_functions read_computed_constants bind_function_constants flatten_argument_buffers rename_reserved struct_padding invariant_division verify
kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  out[i] = 1.0f;
}
