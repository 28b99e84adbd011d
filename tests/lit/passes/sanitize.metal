// The OpenMP step sanitize (`check --sanitize`): accesses to device and
// threadgroup memory become checked accesses (site, use 0 read / 1 write /
// 2 both, region), and a barrier is followed by its event for the checker.
// RUN: %mslport ir %s --sanitize race,bounds --print-after=sanitize --verify-each | FileCheck %s
// RUN: %mslport ir %s --print-after=all | FileCheck --check-prefix=PLAIN %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR after sanitize
// CHECK: *__mslport_san_access(0, 1, 2, &sh[tid]) = *__mslport_san_access(1, 0, 0, &x[i])
// CHECK-NEXT: threadgroup_barrier(mem_threadgroup)
// CHECK-NEXT: __mslport_san_barrier(2, false)
// CHECK-NEXT: *__mslport_san_access(3, 2, 1, &out[i]) += *__mslport_san_access(4, 0, 2, &sh[0])
// PLAIN-NOT: __mslport_san
kernel void k(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              threadgroup float* sh [[threadgroup(0)]], uint tid [[thread_index_in_threadgroup]],
              uint i [[thread_position_in_grid]]) {
  sh[tid] = x[i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[i] += sh[0];
}
