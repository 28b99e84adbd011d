// Two dynamically sized threadgroup buffers of different element types,
// bound at threadgroup indices 0 and 1.
#include <metal_stdlib>
using namespace metal;

kernel void feat_dynamic_tg_memory(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint group   [[threadgroup_position_in_grid]],
    threadgroup float* values [[threadgroup(0)]],
    threadgroup uint*  tags   [[threadgroup(1)]])
{
    const uint at = group * tg_size + tid;
    values[tid] = x[at];
    tags[tid] = tid * 3u + group;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint j = (tid + 1) % tg_size;
    out[at] = values[j] + float(tags[j] % 7u);
}
