// The shared pass predicate_sync: a collective under a divergent condition
// moves out of it with the condition as its active-lane mask.
// RUN: %mslport ir %s --print-before=predicate_sync --print-after=predicate_sync --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before predicate_sync
// CHECK: if (lane < 16u) {
// CHECK-NEXT: %s: float = simd_sum(x[i])
// CHECK-LABEL: IR after predicate_sync
// CHECK: %mslport_mask0: bool = lane < 16u
// CHECK: simd_sum(x[i]) [mask: mslport_mask0]
// CHECK: if (mslport_mask0) {
// CHECK-NEXT: out[i] = s
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              uint lane [[thread_index_in_simdgroup]], uint i [[thread_position_in_grid]]) {
  if (lane < 16u) {
    float s = simd_sum(x[i]);
    out[i] = s;
  }
}
