// Kernels with one defect each, for sanitize.test (fixed.metal: their
// corrected twins). Written for the test; line numbers are checked.
#include <metal_stdlib>
using namespace metal;

// A tree reduction without the barrier between its rounds.
kernel void san_tree_sum(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                         uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  threadgroup float sh[64];
  sh[tid] = x[g * 64 + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = 32; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
  }
  if (tid == 0) out[g] = sh[0];
}

// Every threadgroup writes the same elements of `out`.
kernel void san_scale(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                      uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  out[tid] = 2.0f * x[g * 64 + tid];
}

// Threads past 48 return before a barrier the others wait at.
kernel void san_early_exit(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                           uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  threadgroup float sh[48];
  if (tid >= 48) return;
  sh[tid] = x[g * 64 + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[g * 64 + tid] = sh[47 - tid];
}

// SIMD group 1 reads the tile SIMD group 0 stored, with no barrier between.
kernel void san_tile_swap(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                          uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]],
                          uint sg [[simdgroup_index_in_threadgroup]]) {
  threadgroup float t[64];
  simdgroup_matrix<float, 8, 8> m;
  if (sg == 0) {
    simdgroup_load(m, x + g * 64, 8);
    simdgroup_store(m, t, 8);
  }
  out[g * 64 + tid] = t[63 - tid];
}

// sh has 64 elements; thread 63 writes sh[64].
kernel void san_shift(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                      uint tid [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
  threadgroup float sh[64];
  sh[tid + 1] = x[g * 64 + tid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[g * 64 + tid] = sh[tid + 1];
}
