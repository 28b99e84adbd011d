// Every position/size builtin of a 3-D dispatch, written out per thread:
// record r = out[21 * linear_grid_index + r].
#include <metal_stdlib>
using namespace metal;

kernel void feat_uint3_builtins(
    device uint* out [[buffer(0)]],
    uint3 gpos     [[thread_position_in_grid]],
    uint3 lpos     [[thread_position_in_threadgroup]],
    uint3 group    [[threadgroup_position_in_grid]],
    uint3 tg_dim   [[threads_per_threadgroup]],
    uint3 n_groups [[threadgroups_per_grid]],
    uint3 grid     [[threads_per_grid]],
    uint  lindex   [[thread_index_in_threadgroup]],
    uint  lane     [[thread_index_in_simdgroup]],
    uint  simd_id  [[simdgroup_index_in_threadgroup]])
{
    const uint linear = (gpos.z * grid.y + gpos.y) * grid.x + gpos.x;
    device uint* rec = out + linear * 21;
    rec[0] = gpos.x;     rec[1] = gpos.y;     rec[2] = gpos.z;
    rec[3] = lpos.x;     rec[4] = lpos.y;     rec[5] = lpos.z;
    rec[6] = group.x;    rec[7] = group.y;    rec[8] = group.z;
    rec[9] = tg_dim.x;   rec[10] = tg_dim.y;  rec[11] = tg_dim.z;
    rec[12] = n_groups.x; rec[13] = n_groups.y; rec[14] = n_groups.z;
    rec[15] = grid.x;    rec[16] = grid.y;    rec[17] = grid.z;
    rec[18] = lindex;
    rec[19] = lane;
    rec[20] = simd_id;
}
