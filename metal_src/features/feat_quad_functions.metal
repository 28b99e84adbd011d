// Quad-group functions (over the 4-lane runs of a SIMD group) and the other
// lane-exchanging SIMD-group functions, on int values v = x[i]. Reductions
// run in a branch lanes with keep[i] == 0 skip: they combine only the
// active lanes of their quad or SIMD group. Lane exchanges run in a branch
// taken by whole quads (keepq), so that every lane they read is active
// (reading an inactive lane is undefined in Metal); the rotations run in
// every lane. Lanes outside a branch write -99.
//   q[16 i + 0 .. 6]  = quad_sum, quad_product, quad_max, quad_min, quad_and,
//                       quad_or, quad_xor of v (product of v % 3 + 1)
//   q[16 i + 7, 8]    = quad_prefix_inclusive_sum(v), quad_prefix_exclusive_sum(v)
//   q[16 i + 9, 10]   = quad_all(v > 0), quad_any(v > 5)
//   q[16 i + 11 .. 15] = quad_broadcast(v, 2), quad_shuffle(v, 3 - l),
//                       quad_shuffle_down(v, 1), quad_shuffle_up(v, 1),
//                       quad_shuffle_xor(v, 2)    (l: the lane in the quad; keepq)
//   s[4 i + 0, 1]     = simd_is_first(), simd_product(v % 3 + 1)   (keep)
//   s[4 i + 2, 3]     = simd_shuffle_rotate_down(v, 5), simd_shuffle_rotate_up(v, 3)
// Dispatch: threadgroups of 64 threads.
#include <metal_stdlib>
using namespace metal;

kernel void feat_quad_functions(
    device const int*  x     [[buffer(0)]],
    device const uint* keep  [[buffer(1)]],
    device const uint* keepq [[buffer(2)]],
    device int*        q     [[buffer(3)]],
    device int*        s     [[buffer(4)]],
    uint i    [[thread_position_in_grid]],
    uint lane [[thread_index_in_quadgroup]])
{
    const int v = x[i];
    int r[16];
    int t[4];
    for (int k = 0; k < 16; ++k) r[k] = -99;
    for (int k = 0; k < 4; ++k) t[k] = -99;
    if (keep[i] != 0u) {
        r[0] = quad_sum(v);
        r[1] = quad_product(v % 3 + 1);
        r[2] = quad_max(v);
        r[3] = quad_min(v);
        r[4] = quad_and(v);
        r[5] = quad_or(v);
        r[6] = quad_xor(v);
        r[7] = quad_prefix_inclusive_sum(v);
        r[8] = quad_prefix_exclusive_sum(v);
        r[9] = quad_all(v > 0) ? 1 : 0;
        r[10] = quad_any(v > 5) ? 1 : 0;
        t[0] = simd_is_first() ? 1 : 0;
        t[1] = simd_product(v % 3 + 1);
    }
    if (keepq[i] != 0u) {
        r[11] = quad_broadcast(v, 2);
        r[12] = quad_shuffle(v, ushort(3 - lane));
        r[13] = quad_shuffle_down(v, 1);
        r[14] = quad_shuffle_up(v, 1);
        r[15] = quad_shuffle_xor(v, 2);
    }
    t[2] = simd_shuffle_rotate_down(v, 5);
    t[3] = simd_shuffle_rotate_up(v, 3);
    for (int k = 0; k < 16; ++k) q[16 * i + k] = r[k];
    for (int k = 0; k < 4; ++k) s[4 * i + k] = t[k];
}
