// A loop with a simdgroup_barrier whose `break` and `continue` each SIMD group
// takes as a whole (MSL 6.9.1 only asks the SIMD group to agree), shaped like
// a flash-attention loop over key blocks. Threadgroup t reads row t of x
// (n values, n a multiple of 32). SIMD group s of the threadgroup takes the
// blocks of 32 values b = s, s + 2, s + 4, ...: it stops at the first block
// past the row (break), skips a block whose largest value is negative
// (continue, decided by simd_max), and otherwise publishes the block in
// threadgroup memory, and after the barrier each lane adds its neighbour's
// value (lane ^ 1) to its sum.
//
// Dispatch: threadgroups of 64 threads (two SIMD groups), one per row.
//   out[64*t + 32*s + lane] = sum over the blocks b of SIMD group s with
//                             max(x[t][32b .. 32b+31]) >= 0 of x[t][32b + (lane ^ 1)]
#include <metal_stdlib>
using namespace metal;

kernel void feat_simdgroup_loop_exit(
    device const float* x   [[buffer(0)]],
    constant uint&      n   [[buffer(1)]],
    device float*       out [[buffer(2)]],
    uint   tg   [[threadgroup_position_in_grid]],
    ushort tid  [[thread_index_in_threadgroup]],
    ushort lane [[thread_index_in_simdgroup]],
    ushort sg   [[simdgroup_index_in_threadgroup]])
{
    threadgroup float block[64];
    device const float* row = x + tg * n;
    float sum = 0.0f;
    for (uint b0 = 0; b0 < n; b0 += 64) {
        const uint b = b0 + 32 * sg;
        if (b >= n) {
            break;
        }
        const float v = row[b + lane];
        if (simd_max(v) < 0.0f) {
            continue;
        }
        block[tid] = v;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        sum += block[tid ^ 1];
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[tg * 64 + tid] = sum;
}

// The same loop with its trip count read from memory: SIMD group s of
// threadgroup t takes limits[2*t + s] blocks of row t at most (a count the
// translator cannot see), so the groups leave the loop at different times;
// each lane also adds simd_sum of its block's values when the block is kept.
//   out[64*t + 32*s + lane] = sum over the first limits[2t+s] blocks b of
//                             SIMD group s with max >= 0 of
//                             x[t][32b + (lane ^ 1)] + sum(x[t][32b .. 32b+31])
kernel void feat_simdgroup_loop_exit_memory(
    device const float* x      [[buffer(0)]],
    constant uint&      n      [[buffer(1)]],
    device const uint*  limits [[buffer(2)]],
    device float*       out    [[buffer(3)]],
    uint   tg   [[threadgroup_position_in_grid]],
    ushort tid  [[thread_index_in_threadgroup]],
    ushort lane [[thread_index_in_simdgroup]],
    ushort sg   [[simdgroup_index_in_threadgroup]])
{
    threadgroup float block[64];
    device const float* row = x + tg * n;
    const uint limit = limits[2 * tg + sg];
    float sum = 0.0f;
    for (uint i = 0; i < limit; ++i) {
        const uint b = 64 * i + 32 * sg;
        if (b >= n) {
            break;
        }
        const float v = row[b + lane];
        if (simd_max(v) < 0.0f) {
            continue;
        }
        block[tid] = v;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        sum += block[tid ^ 1] + simd_sum(v);
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[tg * 64 + tid] = sum;
}
