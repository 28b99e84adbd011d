// The OpenMP step invariant_division: a per-work-item unsigned division by
// a divisor fixed for the dispatch takes a divisor prepared once (before the
// lowering, on the declarations at the top of the kernel).
// RUN: %mslport ir %s --print-before=invariant_division --print-after=invariant_division --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before invariant_division
// CHECK: out[i] = in[i] / per_word
// CHECK-LABEL: IR after invariant_division
// CHECK: body {
// CHECK-NEXT: %mslport_div_group_size: const uint4 = __mslport_udiv_prepare(group_size / 8u)
// CHECK-NEXT: %per_word: const uint = group_size / 8u
// CHECK-NEXT: out[i] = __mslport_udiv_prepared(in[i], mslport_div_group_size)
kernel void k(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
              constant uint& group_size [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  const uint per_word = group_size / 8u;
  out[i] = in[i] / per_word;
}
