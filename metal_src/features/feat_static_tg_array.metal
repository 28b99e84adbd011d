// A threadgroup array declared inside the kernel: each threadgroup of 64
// threads reverses its 64 inputs through it.
#include <metal_stdlib>
using namespace metal;

kernel void feat_static_tg_array(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint tid   [[thread_index_in_threadgroup]],
    uint group [[threadgroup_position_in_grid]])
{
    threadgroup float tile[64];
    tile[tid] = x[group * 64 + tid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[group * 64 + tid] = tile[63 - tid];
}
