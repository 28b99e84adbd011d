// The remaining SIMD-group functions and every barrier: on int values
// v = x[i], in a branch lanes with keep[i] == 0 skip (they write -99):
//   r[8 i + 0 .. 4] = simd_min(v), simd_and(v), simd_or(v), simd_xor(v),
//                     simd_broadcast_first(v)
//   r[8 i + 5, 6]   = the low and high words of simd_ballot(v > 3)
// in every lane (so every lane read is active):
//   r[8 i + 7]      = simd_shuffle(v, 7 l % 32) + 1000 * simd_shuffle_up(v, 3)
//                     (l: the lane; lanes below 3 keep their own v for _up)
// and through threadgroup memory behind barriers of every mem_flags
// combination (threadgroup_barrier with mem_threadgroup alone and with
// mem_device or mem_texture, and with none, mem_device, mem_texture alone;
// simdgroup_barrier within a SIMD group):
//   w[i] = v of the thread 1, 2, 3 places on in its threadgroup, plus v of
//          the lane 5 places on in its SIMD group.
// Dispatch: threadgroups of 64 threads.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_exchange(
    device const int*  x    [[buffer(0)]],
    device const uint* keep [[buffer(1)]],
    device int*        r    [[buffer(2)]],
    device int*        w    [[buffer(3)]],
    uint i    [[thread_position_in_grid]],
    uint tid  [[thread_index_in_threadgroup]],
    uint lane [[thread_index_in_simdgroup]])
{
    const int v = x[i];
    int o[7];
    for (int k = 0; k < 7; ++k) o[k] = -99;
    if (keep[i] != 0u) {
        o[0] = simd_min(v);
        o[1] = simd_and(v);
        o[2] = simd_or(v);
        o[3] = simd_xor(v);
        o[4] = simd_broadcast_first(v);
        const ulong b = ulong(simd_ballot(v > 3));
        o[5] = int(uint(b));
        o[6] = int(uint(b >> 32));
    }
    for (int k = 0; k < 7; ++k) r[8 * i + k] = o[k];
    r[8 * i + 7] = simd_shuffle(v, ushort((7 * lane) % 32)) + 1000 * simd_shuffle_up(v, 3);

    // One array per step: no step reads what a later one overwrites. Every
    // read follows a barrier that orders threadgroup memory; the barriers
    // with other flags only synchronise execution.
    threadgroup int sh1[64], sh2[64], sh3[64], sh4[64];
    int acc = 0;
    sh1[tid] = v;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    acc += sh1[(tid + 1) % 64];
    sh2[tid] = v;
    threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
    acc += sh2[(tid + 2) % 64];
    sh3[tid] = v;
    threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_texture);
    acc += sh3[(tid + 3) % 64];
    threadgroup_barrier(mem_flags::mem_none);
    threadgroup_barrier(mem_flags::mem_device);
    threadgroup_barrier(mem_flags::mem_texture);
    sh4[tid] = v;
    simdgroup_barrier(mem_flags::mem_threadgroup);
    acc += sh4[(tid & ~31u) + (lane + 5) % 32];
    simdgroup_barrier(mem_flags::mem_none);
    w[i] = acc;
}
