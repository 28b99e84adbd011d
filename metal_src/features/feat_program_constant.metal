// A program-scope constant used as a threadgroup array bound and a loop bound.
#include <metal_stdlib>
using namespace metal;

constant int TILE = 16;

kernel void feat_program_constant(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint tid   [[thread_index_in_threadgroup]],
    uint group [[threadgroup_position_in_grid]])
{
    threadgroup float tile[TILE];
    tile[tid] = x[group * TILE + tid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float acc = 0.0f;
    for (int k = 0; k < TILE; ++k) {
        acc += tile[k] * float(k + 1);
    }
    out[group * TILE + tid] = acc + float(tid);
}
