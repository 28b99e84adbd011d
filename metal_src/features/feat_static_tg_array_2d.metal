// A two-dimensional threadgroup array (padded rows) and a 2-D threadgroup:
// transposes an n x n matrix (n a multiple of 8) in 8 x 8 tiles.
#include <metal_stdlib>
using namespace metal;

kernel void feat_static_tg_array_2d(
    device const float* in  [[buffer(0)]],
    device float*       out [[buffer(1)]],
    constant uint&      n   [[buffer(2)]],
    uint3 local [[thread_position_in_threadgroup]],
    uint3 group [[threadgroup_position_in_grid]])
{
    threadgroup float tile[8][9];
    tile[local.y][local.x] = in[(group.y * 8 + local.y) * n + group.x * 8 + local.x];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[(group.x * 8 + local.y) * n + group.y * 8 + local.x] = tile[local.x][local.y];
}
