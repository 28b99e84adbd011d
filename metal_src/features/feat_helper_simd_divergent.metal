// A helper with a SIMD-group function, called from divergent code: only the
// lanes that take the branch call it, so simd_sum adds over those lanes
// (Metal's active-lane semantics), and the other lanes write -1.
//
// Dispatch: threadgroups of 64 threads (two SIMD groups), n threads in all.
//   out[i] = sum of x[j] over the lanes j of i's SIMD group with x[j] > 0,
//            when x[i] > 0; otherwise -1.
#include <metal_stdlib>
using namespace metal;

static inline float sum_over_active_lanes(float v) {
    float partial = v;
    partial = simd_sum(partial);
    return partial;
}

kernel void feat_helper_simd_divergent(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint gid [[thread_position_in_grid]])
{
    float v = x[gid];
    if (v > 0.0f) {
        out[gid] = sum_over_active_lanes(v);
    } else {
        out[gid] = -1.0f;
    }
}
