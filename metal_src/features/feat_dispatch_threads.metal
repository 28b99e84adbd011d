// Non-uniform dispatch (dispatchThreads): the grid is not a multiple of the
// threadgroup size, edge threadgroups are partial and threads_per_threadgroup
// reports their real size. Record r = out[10 * (gpos.y * grid.x + gpos.x) + r].
#include <metal_stdlib>
using namespace metal;

kernel void feat_dispatch_threads(
    device uint* out [[buffer(0)]],
    uint3 gpos   [[thread_position_in_grid]],
    uint3 lpos   [[thread_position_in_threadgroup]],
    uint3 group  [[threadgroup_position_in_grid]],
    uint3 tg_dim [[threads_per_threadgroup]],
    uint3 grid   [[threads_per_grid]])
{
    device uint* rec = out + (gpos.y * grid.x + gpos.x) * 10;
    rec[0] = gpos.x;   rec[1] = gpos.y;
    rec[2] = lpos.x;   rec[3] = lpos.y;
    rec[4] = group.x;  rec[5] = group.y;
    rec[6] = tg_dim.x; rec[7] = tg_dim.y;
    rec[8] = grid.x;   rec[9] = grid.y;
}
