// predicate_sync on a loop whose trip count differs between threads and
// which holds a SIMD-group function: `break` clears the loop mask, `break`
// and `continue` the iteration mask, and what follows runs under it.
// RUN: %mslport ir %s --print-after=predicate_sync --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR after predicate_sync
// CHECK: %mslport_loop_mask0: bool = i < n[gid]
// CHECK-NEXT: %mslport_iter_mask1: bool = false
// CHECK-NEXT: while (__mslport_threadgroup_any(mslport_loop_mask0)) {
// CHECK: if (mslport_loop_mask0) {
// CHECK-NEXT: mslport_iter_mask1 = mslport_loop_mask0
// CHECK: if (t < -2.0f) {
// CHECK-NEXT: {
// CHECK-NEXT: mslport_loop_mask0 = false
// CHECK-NEXT: mslport_iter_mask1 = false
// CHECK: mslport_iter_mask1 = false
// CHECK: simd_sum(t) [mask:
// CHECK: if (mslport_loop_mask0) {
// CHECK-NEXT: ++i
// CHECK-NEXT: mslport_loop_mask0 = i < n[gid]
kernel void k(device const float* y [[buffer(0)]], device const uint* n [[buffer(1)]],
              device float* out [[buffer(2)]], uint gid [[thread_position_in_grid]]) {
  float acc = 0.0f;
  for (uint i = 0; i < n[gid]; ++i) {
    const float t = y[8 * gid + i];
    if (t < -2.0f) break;
    if (t < 0.0f) continue;
    acc += simd_sum(t);
  }
  out[gid] = acc;
}
