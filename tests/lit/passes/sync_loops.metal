// The OpenCL steps early_returns (a return left under the alive flag
// becomes the flag, as every work-item must reach the barrier) and
// sync_loops (a loop whose condition is the threadgroup's vote evaluates it
// before each iteration, where every work-item reaches it).
// RUN: %mslport ir %s --target opencl --print-before=early_returns --print-after=early_returns,sync_loops --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before early_returns
// CHECK: if (p->n == 0u) {
// CHECK-NEXT: return
// CHECK-LABEL: IR after early_returns
// CHECK: if (p->n == 0u) {
// CHECK-NEXT: mslport_alive = false
// CHECK: while (__mslport_threadgroup_any(mslport_loop_mask0)) {
// CHECK-LABEL: IR after sync_loops
// CHECK: for (%mslport_go: bool = mslport_threadgroup_any(mslport_loop_mask0, mslport_simd_scratch); mslport_go; mslport_go = mslport_threadgroup_any(mslport_loop_mask0, mslport_simd_scratch)) {
struct P { float3 a; uint n; };
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]], constant P& p [[buffer(2)]],
              threadgroup float* sh [[threadgroup(0)]], uint tid [[thread_index_in_threadgroup]],
              uint i [[thread_position_in_grid]]) {
  if (p.n == 0u) return;
  float acc = 0.0f;
  for (uint c = tid; c < uint(x[0]); c += 32) acc += simd_sum(x[c]);
  sh[tid] = acc + p.a.x;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[i] = sh[0];
}
