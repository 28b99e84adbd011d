// Tree reduction: a loop whose body ends in a threadgroup barrier.
// out[group] = sum of the group's tg_size inputs (tg_size a power of two).
#include <metal_stdlib>
using namespace metal;

kernel void feat_barrier_in_loop(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint group   [[threadgroup_position_in_grid]],
    threadgroup float* buf [[threadgroup(0)]])
{
    buf[tid] = x[group * tg_size + tid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint stride = tg_size / 2; stride > 0; stride /= 2) {
        if (tid < stride) {
            buf[tid] += buf[tid + stride];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (tid == 0) {
        out[group] = buf[0];
    }
}
