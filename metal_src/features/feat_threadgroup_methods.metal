// A member function called on an element of threadgroup memory whose index
// the call itself changes: the object is bound once, by a pointer in
// threadgroup memory's space (MLX's sorts convert threadgroup complex_t
// values through their `operator U() const threadgroup`).
//
// Dispatch: threadgroups of 32 threads, the grid a multiple of 32.
//   j = (tid + 1) % 32; the element is that of thread j of the same group
//   out[gid] = in[group * 32 + j].a + in[group * 32 + j].b + (j + 1)
#include <metal_stdlib>
using namespace metal;

struct cell {
  float a;
  float b;
  // Reads this cell, then moves the caller's index on.
  float take(thread uint& next) const threadgroup {
    next += 1;
    return a + b;
  }
};

kernel void feat_threadgroup_methods(device const cell* in [[buffer(0)]], device float* out [[buffer(1)]],
                                     uint tid [[thread_index_in_threadgroup]], uint gid [[thread_position_in_grid]]) {
  threadgroup cell shared[32];
  shared[tid] = in[gid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  uint j = (tid + 1) % 32;
  float t = shared[j].take(j);
  out[gid] = t + float(j);
}
