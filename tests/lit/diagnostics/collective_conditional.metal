// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]]) {
  // CHECK: collective_conditional.metal:[[@LINE+1]]:25: error: SIMD-group function evaluated conditionally (inside '?:', '&&' or '||') is not supported yet
  out[tid] = tid > 3u ? simd_sum(1.0f) : 0.0f;
}
