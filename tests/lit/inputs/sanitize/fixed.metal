// The corrected twins of defects.metal's kernels (sanitize.test).
#include <metal_stdlib>
using namespace metal;

kernel void san_tree_sum(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                         uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  threadgroup float sh[64];
  sh[tid] = x[g * 64 + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = 32; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  if (tid == 0) out[g] = sh[0];
}

kernel void san_scale(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                      uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  out[g * 64 + tid] = 2.0f * x[g * 64 + tid];
}

kernel void san_early_exit(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                           uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  threadgroup float sh[48];
  if (tid < 48) sh[tid] = x[g * 64 + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[g * 64 + tid] = tid < 48 ? sh[47 - tid] : 0.0f;
}

kernel void san_tile_swap(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                          uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]],
                          uint sg [[simdgroup_index_in_threadgroup]]) {
  threadgroup float t[64];
  simdgroup_matrix<float, 8, 8> m;
  if (sg == 0) {
    simdgroup_load(m, x + g * 64, 8);
    simdgroup_store(m, t, 8);
  }
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[g * 64 + tid] = t[63 - tid];
}

kernel void san_shift(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                      uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  threadgroup float sh[65];
  sh[tid + 1] = x[g * 64 + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[g * 64 + tid] = sh[tid + 1];
}
