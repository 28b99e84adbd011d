// SIMD-group functions in a 3-D threadgroup: lanes are consecutive runs of
// 32 threads in the linear order x + y*X + z*X*Y (the last run partial when
// the size is not a multiple of 32). Record r = out[5 * linear_grid_index + r]:
// the group's lane-0 index, the lane (an exclusive prefix sum of 1), the
// index of lane ^ 1, and the group's sum and max of the thread indices.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_lanes_3d(
    device uint* out [[buffer(0)]],
    uint3 gpos   [[thread_position_in_grid]],
    uint3 grid   [[threads_per_grid]],
    uint  lindex [[thread_index_in_threadgroup]])
{
    const uint linear = (gpos.z * grid.y + gpos.y) * grid.x + gpos.x;
    device uint* rec = out + linear * 5;
    rec[0] = simd_broadcast(lindex, 0);
    rec[1] = simd_prefix_exclusive_sum(1u);
    rec[2] = simd_shuffle_xor(lindex, 1);
    rec[3] = simd_sum(lindex);
    rec[4] = simd_max(lindex);
}
