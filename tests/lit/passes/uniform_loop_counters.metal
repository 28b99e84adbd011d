// uniform_loop_counters: a loop around a barrier whose bounds both move with
// the thread (read through constants declared with them) runs on a uniform
// counter, its variable set from it at the top of the body; a loop with one
// bound that moves stays as it is (its trip count does differ).
// RUN: %mslport ir %s --print-after=uniform_loop_counters --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

kernel void k(device float* x [[buffer(0)]], constant uint& n [[buffer(1)]],
              uint l [[thread_position_in_threadgroup]], uint grp [[threadgroup_position_in_grid]]) {
  threadgroup float s[64];
  const uint start_t = grp * n + l;
  const uint end_t = (grp + 2) * n + l;
  for (uint t = start_t; t < end_t; t += 64) {
    s[l] = x[t];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  for (uint i = l; i < n; i += 64) {
    x[i] = s[l];
  }
}

// CHECK-LABEL: IR after uniform_loop_counters
// CHECK: for (%t_from: uint = grp * n; t_from < ((grp + 2u) * n); t_from += 64u) {
// CHECK-NEXT: %t: uint = t_from + l
// CHECK: for (%i: uint = l; i < n; i += 64u) {
