// Kernels that misbehave, for the runner's isolation tests: each case runs
// in a process of its own (both targets), so these cost their own case an
// error and nothing else.
#include <metal_stdlib>
using namespace metal;

// Passes: out = x.
kernel void iso_copy(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                     uint gid [[thread_position_in_grid]]) {
  out[gid] = x[gid];
}

// Writes 400 MB past the end of `out`: a segfault on the CPU (in the
// OpenCL driver's thread on PoCL).
kernel void iso_crash(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                           uint gid [[thread_position_in_grid]]) {
  out[gid * 100000000u + 100000000u] = x[gid];
}

// Never finishes in practice (2^32 dependent steps per thread).
kernel void iso_spin(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                     uint gid [[thread_position_in_grid]]) {
  float v = x[gid];
  for (uint i = 0; i < 0xffffffffu; ++i) {
    v = v * 1.0000001f + 1.0f;
    if (v == -3.0f) break;
  }
  out[gid] = v;
}

// Goes through dynamic threadgroup memory: out = x when the case gives it.
kernel void iso_tg_copy(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                        uint gid [[thread_position_in_grid]], uint tid [[thread_index_in_threadgroup]],
                        threadgroup float* stage [[threadgroup(0)]]) {
  stage[tid] = x[gid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[gid] = stage[tid];
}
