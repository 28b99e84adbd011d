// An atomic histogram: each threadgroup counts its values into 16 bins in
// threadgroup memory (atomic_uint, zeroed with atomic_store), then adds its
// bins into the device histogram; the device summaries are updated by every
// thread of every threadgroup. None of the results depends on the order in
// which the atomics happen:
//   bins[b]      = number of x[i] with x[i] % 16 == b
//   stats[0]     = max over i of int(x[i]) - 500     (atomic_fetch_max, int)
//   stats[1]     = min over i of int(x[i]) - 500     (atomic_fetch_min, int)
//   stats[2]     = OR of 1 << (x[i] % 32)            (atomic_fetch_or, uint)
//   stats[3]     = XOR of x[i]                       (atomic_fetch_xor, uint)
//   stats[4]     = AND of (x[i] | 0xF0000000)        (atomic_fetch_and, uint)
//   stats[5]     = initial - number of values         (atomic_fetch_sub, uint)
//   total        = sum of float(x[i] % 64)           (atomic_float; every
//                  partial sum is an integer below 2^24, so exact)
// Dispatch: threadgroups of 64 threads over n = 64 * threadgroups values.
#include <metal_stdlib>
using namespace metal;

kernel void feat_atomic_histogram(
    device const uint*   x     [[buffer(0)]],
    device atomic_uint*  bins  [[buffer(1)]],
    device atomic_int*   imax  [[buffer(2)]],
    device atomic_uint*  stats [[buffer(3)]],
    device atomic_float* total [[buffer(4)]],
    uint gid [[thread_position_in_grid]],
    uint tid [[thread_index_in_threadgroup]])
{
    threadgroup atomic_uint local_bins[16];
    if (tid < 16) {
        atomic_store_explicit(&local_bins[tid], 0u, memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint v = x[gid];
    atomic_fetch_add_explicit(&local_bins[v % 16], 1u, memory_order_relaxed);
    atomic_fetch_max_explicit(&imax[0], int(v) - 500, memory_order_relaxed);
    atomic_fetch_min_explicit(&imax[1], int(v) - 500, memory_order_relaxed);
    atomic_fetch_or_explicit(&stats[0], 1u << (v % 32), memory_order_relaxed);
    atomic_fetch_xor_explicit(&stats[1], v, memory_order_relaxed);
    atomic_fetch_and_explicit(&stats[2], v | 0xF0000000u, memory_order_relaxed);
    atomic_fetch_sub_explicit(&stats[3], 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(total, float(v % 64), memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid < 16) {
        const uint count = atomic_load_explicit(&local_bins[tid], memory_order_relaxed);
        atomic_fetch_add_explicit(&bins[tid], count, memory_order_relaxed);
    }
}
