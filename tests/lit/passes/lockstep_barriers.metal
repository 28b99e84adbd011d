// The shared pass lockstep_barriers: Metal runs a SIMD group in lock-step
// and kernels rely on it; a write of threadgroup memory that an earlier
// statement of the interval read gets a (lockstep) barrier before it.
// RUN: %mslport ir %s --print-before=lockstep_barriers --print-after=lockstep_barriers --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before lockstep_barriers
// CHECK: %v: float = shared[0]
// CHECK-NEXT: shared[0] = v + 1.0f
// CHECK-LABEL: IR after lockstep_barriers
// CHECK: threadgroup_barrier(mem_threadgroup){{$}}
// CHECK-NEXT: %v: float = shared[0]
// CHECK-NEXT: threadgroup_barrier(mem_threadgroup) [lockstep]
// CHECK-NEXT: shared[0] = v + 1.0f
kernel void k(device float* out [[buffer(0)]], threadgroup float* shared [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]]) {
  if (tid == 0u) shared[0] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float v = shared[0];
  shared[0] = v + 1.0f;
  out[tid] = v;
}
