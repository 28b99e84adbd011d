// Loops around SIMD-group functions that threads leave at different times:
//  * a loop whose condition is a SIMD-group vote: halve x until no lane of
//    the group is above 1 (out[3i] = x / 2^h + 16 h);
//  * a loop with a per-lane trip count n[i] that `break`s at a value below
//    -2 and `continue`s past a negative one: each iteration sums t over the
//    lanes still in it (out[3i + 1] = sum of those sums over the lane's
//    iterations), t = y[8i + iteration];
//  * a loop with a uniform `break` (after `stop` iterations) inside a
//    branch only lanes below `k` take: out[3i + 2] = k * min(stop, 4) for
//    those lanes, 0 for the others.
// Dispatch: threadgroups of 64 threads; n[i] <= 8.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_loop_exit(
    device const float* x    [[buffer(0)]],
    device const float* y    [[buffer(1)]],
    device const uint*  n    [[buffer(2)]],
    device float*       out  [[buffer(3)]],
    constant uint&      k    [[buffer(4)]],
    constant uint&      stop [[buffer(5)]],
    uint gid  [[thread_position_in_grid]],
    uint lane [[thread_index_in_simdgroup]])
{
    float v = x[gid];
    uint halvings = 0;
    while (simd_any(v > 1.0f)) {
        v *= 0.5f;
        ++halvings;
    }
    float acc = 0.0f;
    for (uint i = 0; i < n[gid]; ++i) {
        const float t = y[8 * gid + i];
        if (t < -2.0f) break;
        if (t < 0.0f) continue;
        acc += simd_sum(t);
    }
    float below = 0.0f;
    if (lane < k) {
        for (uint i = 0; i < 4; ++i) {
            if (i == stop) break;
            below += simd_sum(1.0f);
        }
    }
    out[3 * gid + 0] = v + 16.0f * float(halvings);
    out[3 * gid + 1] = acc;
    out[3 * gid + 2] = below;
}
