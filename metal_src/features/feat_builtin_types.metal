// Thread-position attributes in the types real files give them (ushort,
// ushort2, uint3) and the quad-group and SIMD-group counts.
//
// Dispatch: threadgroups of (16, 4) threads (64: two SIMD groups, 16 quads),
// a grid of (2, 3) threadgroups. For the thread with linear index
// l = x + 16*y in its threadgroup and grid position (gx, gy):
//   out[gy * 32 + gx] = 1000*(l / 4) + 100*(l % 4) + 10*simdgroups(2) + threads_per_simdgroup(32)/32
//                       + 0 * (uses of the ushort2/ushort values, added as 0 below)
#include <metal_stdlib>
using namespace metal;

kernel void feat_builtin_types(
    device float* out [[buffer(0)]],
    ushort2 lpos  [[thread_position_in_threadgroup]],
    uint3   gpos  [[thread_position_in_grid]],
    ushort  quad  [[quadgroup_index_in_threadgroup]],
    ushort  lane4 [[thread_index_in_quadgroup]],
    uint    sgs   [[simdgroups_per_threadgroup]],
    uint    width [[threads_per_simdgroup]])
{
    float check = float(lpos.x + 16 * lpos.y) - float(quad * 4 + lane4);  // 0: both name the same thread
    out[gpos.y * 32 + gpos.x] = 1000.0f * float(quad) + 100.0f * float(lane4) + 10.0f * float(sgs) +
                                float(width) / 32.0f + check;
}
