// The shared pass hoist_collectives: each SIMD-group function gets a
// statement of its own (both backends lower a collective as a unit).
// RUN: %mslport ir %s --print-before=hoist_collectives --print-after=hoist_collectives --verify-each | FileCheck %s
// RUN: %mslport ir %s --target opencl --print-after=hoist_collectives --verify-each | FileCheck --check-prefix=CL %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before hoist_collectives (kernel k)
// CHECK: out[i] = simd_sum(x[i]) * 2.0f
// CHECK-LABEL: IR after hoist_collectives (kernel k)
// CHECK-NEXT: kernel k
// CHECK: %simd_sum_tmp: float = simd_sum(x[i])
// CHECK-NEXT: out[i] = simd_sum_tmp * 2.0f
// CL: %simd_sum_tmp: float = simd_sum(x[i])
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              uint i [[thread_position_in_grid]]) {
  out[i] = simd_sum(x[i]) * 2.0f;
}
