// simd_vote and quad_vote as classes (MSL 6.9.2, 6.9.3): all(), any(), the
// explicit conversion to vote_t, construction, copies and assignment. Only
// lanes with on[g] != 0 run the votes (c = vote[g] != 0); their eight results
// r[8 g + k] are
//   0: simd_ballot(c).all()   every lane of the SIMD group has its bit set
//                             (an inactive lane's bit is 0, so false then)
//   1: simd_ballot(c).any()   some lane's bit is set
//   2: simd_all(c)            every ACTIVE lane has c (for contrast)
//   3: quad_ballot(c).all()   the four bits of the quad set
//   4: quad_ballot(c).any()
//   5: uint(static_cast<uint64_t>(simd_ballot(c)))   bit j for active lane j
//      with c (the low 32 bits: the others are undefined on 32-lane groups)
//   6: uint(quad_ballot(c))   bit j for active lane j of the quad with c
//   7: 1 if simd_vote(0xFFFFFFFF).all(), + 2 if simd_vote(1 << 40).any(),
//      + uint(quad_vote(0x1F)) << 2 (the constructor keeps 0xF),
//      + 64 if quad_vote(0xF0).any(),
//      + 128 if a copy of simd_ballot(c), assigned simd_active_threads_mask(),
//        is all(): every lane of the SIMD group active
// Lanes left out keep r's contents. Dispatch: threadgroups of 64 threads.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_votes(
    device const uint* on   [[buffer(0)]],
    device const uint* vote [[buffer(1)]],
    device uint*       r    [[buffer(2)]],
    uint g [[thread_position_in_grid]])
{
    if (on[g] != 0) {
        const bool c = vote[g] != 0;
        const simd_vote sv = simd_ballot(c);
        r[8 * g + 0] = sv.all() ? 1u : 0u;
        r[8 * g + 1] = simd_ballot(c).any() ? 1u : 0u;
        r[8 * g + 2] = simd_all(c) ? 1u : 0u;
        const quad_vote qv = quad_ballot(c);
        r[8 * g + 3] = qv.all() ? 1u : 0u;
        r[8 * g + 4] = quad_ballot(c).any() ? 1u : 0u;
        r[8 * g + 5] = uint(static_cast<uint64_t>(sv));
        r[8 * g + 6] = uint(qv);
        simd_vote w = sv;
        w = simd_active_threads_mask();
        uint k = simd_vote(0xFFFFFFFFul).all() ? 1u : 0u;
        k += simd_vote(1ul << 40).any() ? 2u : 0u;
        k += quad_vote::vote_t(quad_vote(0x1Fu)) << 2;
        k += quad_vote(0xF0u).any() ? 64u : 0u;
        k += w.all() ? 128u : 0u;
        r[8 * g + 7] = k;
    }
}
