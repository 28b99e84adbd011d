// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
// RUN: not %mslport translate %s --target opencl 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], threadgroup float* sh [[threadgroup(0)]],
              uint tid [[thread_index_in_threadgroup]]) {
  // CHECK: barrier_divergent_loop.metal:[[@LINE+4]]:5: error: threadgroup_barrier in a loop whose trip count differs between threads
  // CHECK: barrier_divergent_loop.metal:[[@LINE+1]]:3: note: the loop
  for (uint i = 0; i < tid; ++i) {
    sh[tid] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  out[tid] = sh[0];
}
