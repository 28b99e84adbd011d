// The shared pass eliminate_returns: in a kernel that synchronises, a return
// only some threads take becomes the alive flag; the rest runs under it.
// RUN: %mslport ir %s --print-before=eliminate_returns --print-after=eliminate_returns --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before eliminate_returns
// CHECK: if ((gid >= n) || (keep[gid] == 0u)) {
// CHECK-NEXT: return
// CHECK-LABEL: IR after eliminate_returns
// CHECK: %mslport_alive: bool = true
// CHECK-NEXT: if ((gid >= n) || (keep[gid] == 0u)) {
// CHECK-NEXT: {
// CHECK-NEXT: mslport_alive = false
// CHECK: if (mslport_alive) {
// CHECK-NEXT: %simd_sum_tmp: float = simd_sum(x[gid])
// CHECK-NOT: return
kernel void k(device const float* x [[buffer(0)]], device const uint* keep [[buffer(1)]],
              device float* out [[buffer(2)]], constant uint& n [[buffer(3)]],
              uint gid [[thread_position_in_grid]]) {
  if (gid >= n || keep[gid] == 0) return;
  out[gid] = simd_sum(x[gid]);
}
