// The quad-group forms of the prefix products, broadcast_first, is_first
// and the rotations (over the 4-lane runs of a SIMD group), on int
// v = x[i] and float f = 0.5 * v. The first four run in a branch that lanes
// with keep[i] == 0 skip: they combine only the active lanes of their quad.
// The rotations run in every lane. Lanes outside the branch write -99.
//   o[8 i + 0, 1] = quad_prefix_inclusive_product(v), quad_prefix_exclusive_product(v)
//   o[8 i + 2]    = quad_broadcast_first(v)
//   o[8 i + 3]    = quad_is_first()
//   o[8 i + 4, 5] = quad_shuffle_rotate_down(v, 1), quad_shuffle_rotate_up(v, 3)
//   o[8 i + 6]    = quad_shuffle_rotate_down(v, 6)          (6 lanes: 2 modulo 4)
//   p[i]          = quad_prefix_exclusive_product(f)       (keep; 1 in the first active lane)
// Dispatch: threadgroups of 64 threads.
#include <metal_stdlib>
using namespace metal;

kernel void feat_quad_prefix_rotate(
    device const int*  x    [[buffer(0)]],
    device const uint* keep [[buffer(1)]],
    device int*        o    [[buffer(2)]],
    device float*      p    [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    const int v = x[i];
    int r[8] = {-99, -99, -99, -99, -99, -99, -99, -99};
    float pf = -99.0f;
    if (keep[i] != 0u) {
        r[0] = quad_prefix_inclusive_product(v);
        r[1] = quad_prefix_exclusive_product(v);
        r[2] = quad_broadcast_first(v);
        r[3] = quad_is_first() ? 1 : 0;
        pf = quad_prefix_exclusive_product(0.5f * float(v));
    }
    r[4] = quad_shuffle_rotate_down(v, 1);
    r[5] = quad_shuffle_rotate_up(v, 3);
    r[6] = quad_shuffle_rotate_down(v, 6);
    for (int k = 0; k < 8; ++k) o[8 * i + k] = r[k];
    p[i] = pf;
}
