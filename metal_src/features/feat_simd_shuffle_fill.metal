// Metal's shuffle-and-fill, ballot and active-mask functions of SIMD groups
// and quad-groups (MSL 6.9.2, 6.9.3), per thread g (threadgroups of 64: two
// SIMD groups of 32 lanes, quads of 4), d = data[g], f = fill[g].
// fill_down(d, f, delta, m): in runs of m lanes (the group's width without
// m), lane i of a run takes d from lane i + delta of its run, or where that
// is past the run's end f from lane i + delta - m; fill_up: d from lane
// i - delta, or where that is negative f from lane i - delta + m.
//   out[6 g + ...] (every lane active) =
//     simd_shuffle_and_fill_down(d, f, delta), _up(d, f, delta),
//     simd_shuffle_and_fill_down(d, f, delta, 16), _up(d, f, delta, 16),
//     quad_shuffle_and_fill_down(d, f, qdelta), quad_shuffle_and_fill_up(d, f, qdelta, 4)
//   dout[4 g + ...] (only lanes with keep[g], whole runs of 8 lanes alike) =
//     simd_shuffle_and_fill_down(d, f, 3, 8), _up(d, f, 3, 8),
//     quad_shuffle_and_fill_down(d, f, 1, 2), quad_shuffle_and_fill_up(d, f, qdelta)
//   masks[4 g + ...] (only lanes with on[g], any lanes) =
//     simd_active_threads_mask() (low 32 bits), simd_ballot(vote[g] != 0)
//     (low 32 bits), quad_active_threads_mask(), quad_ballot(vote[g] != 0)
// Lanes left out keep dout's and masks' previous contents.
// Dispatch: threadgroups of 64 threads.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_shuffle_fill(
    device const float* data   [[buffer(0)]],
    device const float* fill   [[buffer(1)]],
    device const uint*  keep   [[buffer(2)]],
    device const uint*  on     [[buffer(3)]],
    device const uint*  vote   [[buffer(4)]],
    constant ushort&    delta  [[buffer(5)]],
    constant ushort&    qdelta [[buffer(6)]],
    device float*       out    [[buffer(7)]],
    device float*       dout   [[buffer(8)]],
    device uint*        masks  [[buffer(9)]],
    uint g [[thread_position_in_grid]])
{
    const float d = data[g], f = fill[g];
    out[6 * g + 0] = simd_shuffle_and_fill_down(d, f, delta);
    out[6 * g + 1] = simd_shuffle_and_fill_up(d, f, delta);
    out[6 * g + 2] = simd_shuffle_and_fill_down(d, f, delta, 16);
    out[6 * g + 3] = simd_shuffle_and_fill_up(d, f, delta, 16);
    out[6 * g + 4] = quad_shuffle_and_fill_down(d, f, qdelta);
    out[6 * g + 5] = quad_shuffle_and_fill_up(d, f, qdelta, 4);
    if (keep[g] != 0) {
        dout[4 * g + 0] = simd_shuffle_and_fill_down(d, f, 3, 8);
        dout[4 * g + 1] = simd_shuffle_and_fill_up(d, f, 3, 8);
        dout[4 * g + 2] = quad_shuffle_and_fill_down(d, f, 1, 2);
        dout[4 * g + 3] = quad_shuffle_and_fill_up(d, f, qdelta);
    }
    if (on[g] != 0) {
        const bool v = vote[g] != 0;
        masks[4 * g + 0] = uint(ulong(simd_active_threads_mask()));
        masks[4 * g + 1] = uint(ulong(simd_ballot(v)));
        masks[4 * g + 2] = uint(quad_active_threads_mask());
        masks[4 * g + 3] = uint(quad_ballot(v));
    }
}
