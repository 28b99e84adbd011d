// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: threadgroup_memory_limit.metal:[[@LINE+1]]:13: error: kernel 'k' declares 36000 bytes of threadgroup memory; Metal allows at most 32768
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  threadgroup float big[9000];
  big[tid] = 1.0f;
  out[tid] = big[0];
}
