// A helper function with threadgroup barriers inside, called from two
// kernels. It sums one value per thread over the threadgroup through
// threadgroup memory (a tree: halve the active range, barrier each round).
//
// Dispatch: threadgroups of 64 threads (a power of two), one row of x each.
//   feat_helper_barrier_sum:    out[g]          = sum_t x[g*64 + t]
//   feat_helper_barrier_center: out[g*64 + t]   = x[g*64 + t] - mean_t x[g*64 + t]
#include <metal_stdlib>
using namespace metal;

#define MSLPORT_FEATURE_INLINE inline __attribute__((always_inline))

MSLPORT_FEATURE_INLINE float threadgroup_sum(threadgroup float* scratch, float value, uint lid, uint width) {
    scratch[lid] = value;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_width = width / 2; half_width > 0; half_width /= 2) {
        if (lid < half_width) {
            scratch[lid] += scratch[lid + half_width];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    float total = scratch[0];
    // Every thread has read the total before anyone reuses the scratch.
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return total;
}

kernel void feat_helper_barrier_sum(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint lid   [[thread_position_in_threadgroup]],
    uint group [[threadgroup_position_in_grid]],
    uint width [[threads_per_threadgroup]])
{
    threadgroup float scratch[64];
    float total = threadgroup_sum(scratch, x[group * width + lid], lid, width);
    if (lid == 0) {
        out[group] = total;
    }
}

kernel void feat_helper_barrier_center(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint lid   [[thread_position_in_threadgroup]],
    uint group [[threadgroup_position_in_grid]],
    uint width [[threads_per_threadgroup]])
{
    threadgroup float scratch[64];
    float v = x[group * width + lid];
    float mean = threadgroup_sum(scratch, v, lid, width) / float(width);
    out[group * width + lid] = v - mean;
}
