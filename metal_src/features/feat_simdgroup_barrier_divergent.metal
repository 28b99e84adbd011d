// simdgroup_barrier where control flow differs between SIMD groups but not
// within one (MSL 6.9.1: every thread of the SIMD group must reach it; the
// other SIMD groups need not). SIMD group s runs 2 + 3*s rounds; in each, a
// lane publishes its value in threadgroup memory and, after the barrier,
// adds half of its neighbour's (lane ^ 1). SIMD group 1 then rotates its
// values by one lane through threadgroup memory, under a condition on the
// SIMD group's index.
//
// Dispatch: threadgroups of 64 threads (two SIMD groups of 32).
//   v = x[i], then per round v += 0.5 * (neighbour's v), all lanes at once;
//   out[i] = v, or, in SIMD group 1, the v of lane (lane + 1) % 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simdgroup_barrier_divergent(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint   gid  [[thread_position_in_grid]],
    ushort tid  [[thread_index_in_threadgroup]],
    ushort lane [[thread_index_in_simdgroup]],
    ushort sg   [[simdgroup_index_in_threadgroup]])
{
    threadgroup float slots[64];
    float v = x[gid];
    const uint rounds = 2 + 3 * uint(sg);
    for (uint r = 0; r < rounds; ++r) {
        slots[tid] = v;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        v += 0.5f * slots[tid ^ 1];
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (sg == 1) {
        slots[tid] = v;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        v = slots[(tid & ~ushort(31)) | ((lane + 1) & 31)];
    }
    out[gid] = v;
}
