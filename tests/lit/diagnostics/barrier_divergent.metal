// A barrier that only some threads reach is a compile-time error when the
// condition provably depends on the thread; the note points at it.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
// RUN: not %mslport translate %s --target opencl 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  // CHECK: barrier_divergent.metal:[[@LINE+4]]:5: error: threadgroup_barrier in divergent control flow: not every thread of the threadgroup reaches it
  // CHECK-NEXT: threadgroup_barrier(mem_flags::mem_threadgroup);
  // CHECK: barrier_divergent.metal:[[@LINE+1]]:7: note: the condition is varying
  if (tid < 4u) {
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  out[tid] = 1.0f;
}
