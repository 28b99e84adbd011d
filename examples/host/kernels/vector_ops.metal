// A small kernel library of a user's own, as mslport ports it: the host
// programs beside this folder call both kernels from C and C++ (the
// C++/OpenMP output) and from C through OpenCL (the OpenCL C output).
#include <metal_stdlib>
using namespace metal;

// y = a * x + y over n elements; dispatched as a grid of n threads
// (dispatchThreads), so the last threadgroup may be partial.
kernel void saxpy(device const float* x [[buffer(0)]],
                  device float* y [[buffer(1)]],
                  constant float& a [[buffer(2)]],
                  constant uint& n [[buffer(3)]],
                  uint i [[thread_position_in_grid]]) {
  if (i >= n) return;
  y[i] = a * x[i] + y[i];
}

struct SoftmaxParams {
  uint rows;
  uint cols;
};

// out[r, :] = softmax(x[r, :]): one threadgroup per row, its threads strided
// over the columns; `partial` holds one float per SIMD group.
kernel void row_softmax(device const float* x [[buffer(0)]],
                        device float* out [[buffer(1)]],
                        constant SoftmaxParams& p [[buffer(2)]],
                        threadgroup float* partial [[threadgroup(0)]],
                        uint row [[threadgroup_position_in_grid]],
                        uint tid [[thread_position_in_threadgroup]],
                        uint ntg [[threads_per_threadgroup]],
                        uint lane [[thread_index_in_simdgroup]],
                        uint sg [[simdgroup_index_in_threadgroup]],
                        uint nsg [[simdgroups_per_threadgroup]]) {
  if (row >= p.rows) return;
  const uint base = row * p.cols;
  float m = -INFINITY;
  for (uint c = tid; c < p.cols; c += ntg) m = max(m, x[base + c]);
  m = simd_max(m);
  if (lane == 0) partial[sg] = m;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  m = partial[0];
  for (uint i = 1; i < nsg; ++i) m = max(m, partial[i]);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float s = 0.0f;
  for (uint c = tid; c < p.cols; c += ntg) s += exp(x[base + c] - m);
  s = simd_sum(s);
  if (lane == 0) partial[sg] = s;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  s = 0.0f;
  for (uint i = 0; i < nsg; ++i) s += partial[i];
  for (uint c = tid; c < p.cols; c += ntg) out[base + c] = exp(x[base + c] - m) / s;
}
