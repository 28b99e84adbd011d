// simd_sum inside lane-divergent control flow: only the active lanes
// (lane < active[g] for SIMD group g of the grid) contribute, and only they
// receive the sum. Inactive lanes write -1.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_sum_divergent(
    device const float* x      [[buffer(0)]],
    device const uint*  active [[buffer(1)]],
    device float*       out    [[buffer(2)]],
    uint gid     [[thread_position_in_grid]],
    uint group   [[threadgroup_position_in_grid]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]])
{
    const uint g = group * ((tg_size + 31) / 32) + simd_id;
    float result = -1.0f;
    if (lane < active[g]) {
        result = simd_sum(x[gid]);
    }
    out[gid] = result;
}
