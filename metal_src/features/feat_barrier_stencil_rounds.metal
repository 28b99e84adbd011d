// A runtime-count loop with two barriers per iteration: every round each
// thread adds its right neighbour's value (cyclically within the threadgroup).
// The first barrier separates the reads of a round from its writes.
#include <metal_stdlib>
using namespace metal;

kernel void feat_barrier_stencil_rounds(
    device const float* x      [[buffer(0)]],
    device float*       out    [[buffer(1)]],
    constant uint&      rounds [[buffer(2)]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint group   [[threadgroup_position_in_grid]],
    threadgroup float* buf [[threadgroup(0)]])
{
    const uint at = group * tg_size + tid;
    buf[tid] = x[at];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint r = 0; r < rounds; ++r) {
        const float next = buf[tid] + buf[(tid + 1) % tg_size];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        buf[tid] = next;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[at] = buf[tid];
}
