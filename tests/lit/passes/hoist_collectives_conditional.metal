// The shared pass hoist_collectives: a SIMD-group function that only some
// threads evaluate (an operand of ?:, right of && and ||) moves into an `if`
// of its own; predicate_sync then gives it that condition as its mask.
// RUN: %mslport ir %s --print-after=hoist_collectives --print-after=predicate_sync --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR after hoist_collectives
// CHECK: %mslport_cond: float
// CHECK-NEXT: if (v > 0.0f) {
// CHECK-NEXT: %simd_sum_tmp: float = simd_sum(v)
// CHECK-NEXT: mslport_cond = simd_sum_tmp
// CHECK-NEXT: } else {
// CHECK-NEXT: mslport_cond = -1.0f
// CHECK: %mslport_cond_1: bool = v > 1.0f
// CHECK-NEXT: if (mslport_cond_1) {
// CHECK-NEXT: %simd_any_tmp: bool = simd_any(v > 2.0f)
// CHECK-LABEL: IR after predicate_sync
// CHECK: simd_sum(v) [mask: mslport_mask0]
// CHECK: simd_any(v > 2.0f) [mask: mslport_mask2]
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              uint i [[thread_position_in_grid]]) {
  const float v = x[i];
  const float pos = v > 0.0f ? simd_sum(v) : -1.0f;
  const bool big = v > 1.0f && simd_any(v > 2.0f);
  out[i] = pos + (big ? 1.0f : 0.0f);
}
