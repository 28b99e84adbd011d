// A loop around barriers whose bounds both move with the thread (llama.cpp's
// rwkv_wkv walks its tokens so): `for (t = start + tid; t < end + tid; t +=
// 64)` runs the same number of times in every thread, though its condition
// reads a per-thread value.
//
// Dispatch: threadgroups of 64 threads, g = threadgroup index, l = thread
// index in it, n = the steps per threadgroup. Step j (0 <= j < n) shares
// x[(g * n + j) * 64 + l] through threadgroup memory, and thread l adds its
// neighbour's value (lane (l + 1) % 64):
//   out[g * 64 + l] = sum over j of x[(g * n + j) * 64 + (l + 1) % 64]
#include <metal_stdlib>
using namespace metal;

kernel void feat_uniform_trip_loop(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    constant uint&      n   [[buffer(2)]],
    uint l [[thread_position_in_threadgroup]],
    uint g [[threadgroup_position_in_grid]])
{
    threadgroup float shared_x[64];
    const uint start_t = g * n * 64 + l;
    const uint end_t = (g + 1) * n * 64 + l;
    float acc = 0.0f;
    for (uint t = start_t; t < end_t; t += 64) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        shared_x[l] = x[t];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        acc += shared_x[(l + 1) % 64];
    }
    out[g * 64 + l] = acc;
}
