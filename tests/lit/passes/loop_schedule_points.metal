// The OpenMP step loop_schedule_points: a kernel loop with a uniform trip
// count gets a schedule point (a lockstep barrier), so it runs once per
// threadgroup with a work-item loop per iteration; a thread-strided loop
// first gets a uniform trip count, its full iterations peeled from the tail.
// RUN: %mslport ir %s --print-after=loop_schedule_points --verify-each | FileCheck %s
// RUN: %mslport ir %s --target opencl --print-after=all | FileCheck --check-prefix=CL %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR after loop_schedule_points (kernel slots)
// CHECK: for (%s: uint = 0u; s < n; s++) {
// CHECK-NEXT: threadgroup_barrier(mem_none) [lockstep]
// CHECK-NEXT: sum += w[s] * x[(s * h) + i]
// CL-NOT: [lockstep]
kernel void slots(device const float* w [[buffer(0)]], device const float* x [[buffer(1)]],
                  device float* out [[buffer(2)]], constant uint& n [[buffer(3)]], constant uint& h [[buffer(4)]],
                  uint i [[thread_position_in_grid]]) {
  float sum = 0.0f;
  for (uint s = 0; s < n; s++) sum += w[s] * x[s * h + i];
  out[i] = sum;
}

// CHECK-LABEL: IR after loop_schedule_points (kernel strided)
// CHECK: %mslport_start0: const uint = lane
// CHECK-NEXT: for (%mslport_iter0: uint = 0u; mslport_iter0 < __mslport_full_trips(n, 32u, 32u); mslport_iter0 += 1u) {
// CHECK-NEXT: threadgroup_barrier(mem_none) [lockstep]
// CHECK: for (%mslport_tail0: uint = 0u;
// CHECK: if (c < n) {
kernel void strided(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                    constant uint& n [[buffer(2)]], uint lane [[thread_index_in_simdgroup]],
                    uint i [[thread_position_in_grid]]) {
  float acc = 0.0f;
  for (uint c = lane; c < n; c += 32) acc += x[c];
  out[i] = acc;
}
