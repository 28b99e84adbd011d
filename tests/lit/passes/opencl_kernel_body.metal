// The OpenCL steps that rewrite a kernel body, each after the one before:
// builtin_calls (Metal functions, the grid guard), simd_collectives (prelude
// helpers over local scratch), zero_init_locals, vectors (a run-time vector
// index as a select chain), invariant_division (a reciprocal prepared before
// the loop), prefetch_strided_loads (the next iteration's element asked
// for).
// RUN: %mslport ir %s --target opencl --print-after=builtin_calls,simd_collectives,zero_init_locals,vectors,invariant_division,prefetch_strided_loads --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR after builtin_calls
// CHECK: if (!mslport_in_grid(mslport_grid)) {
// CHECK: v[j] = fmax(x[i], 0.5f)
// CHECK: s = simd_sum(v[j]) [mask: mslport_alive]
// CHECK-LABEL: IR after simd_collectives
// CHECK: %simd_sum_result: float = mslport_simd_sum_float(mslport_alive ? v[j] : 0.0f, mslport_alive, mslport_simd_scratch, mslport_grid)
// CHECK-LABEL: IR after zero_init_locals
// CHECK: %acc: float = 0.0f
// CHECK: %v: float4 = cast<float4>(0)
// CHECK-LABEL: IR after vectors
// CHECK: ((j == 0u) ? v.x : ((j == 1u) ? v.y : ((j == 2u) ? v.z : v.w)))
// CHECK-LABEL: IR after invariant_division
// CHECK: %mslport_div_n: const uint4 = mslport_udiv_prepare(*n)
// CHECK-NEXT: for (%c: uint = lane; c < *n; c += 32u) {
// CHECK-NEXT: acc += x[c] * cast<float>(mslport_udiv(c, mslport_div_n))
// CHECK-LABEL: IR after prefetch_strided_loads
// CHECK: for (%c: uint = lane; c < *n; c += 32u) {
// CHECK-NEXT: if ((c + 32u) < *n) {
// CHECK-NEXT: mslport_prefetch_l2(&x[c + 32u])
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              constant uint& n [[buffer(2)]], device const uint* idx [[buffer(3)]],
              uint lane [[thread_index_in_simdgroup]], uint i [[thread_position_in_grid]]) {
  float4 v;
  uint j = idx[i] % 4u;
  v[j] = max(x[i], 0.5f);
  float s = simd_sum(v[j]);
  float acc = 0.0f;
  for (uint c = lane; c < n; c += 32) acc += x[c] * float(c / n);
  out[i] = s + acc;
}
