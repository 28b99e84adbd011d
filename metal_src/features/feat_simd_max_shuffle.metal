// simd_max, simd_shuffle_down (the top `delta` lanes keep their own value:
// no wrap-around) and simd_broadcast over full SIMD groups.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_max_shuffle(
    device const float* x         [[buffer(0)]],
    device float*       max_out   [[buffer(1)]],
    device float*       down_out  [[buffer(2)]],
    device float*       bcast_out [[buffer(3)]],
    uint gid [[thread_position_in_grid]])
{
    const float v = x[gid];
    max_out[gid] = simd_max(v);
    down_out[gid] = simd_shuffle_down(v, 3);
    bcast_out[gid] = simd_broadcast(v, 5);
}
