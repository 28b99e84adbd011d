// SIMD-group functions that only some lanes evaluate: an operand of `?:`,
// and the right of `&&` and `||`. Only the lanes that evaluate the call take
// part in it:
//   out[3i]     = x > 0 ? (sum of x over the group's lanes with x > 0) : -1
//   out[3i + 1] = x > 1 && (some lane of the group with x > 1 has x > 2)
//   out[3i + 2] = x >= 0 || (every lane of the group with x < 0 has x < -1)
// Dispatch: threadgroups of 64 threads.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_conditional(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint gid [[thread_position_in_grid]])
{
    const float v = x[gid];
    const float pos = v > 0.0f ? simd_sum(v) : -1.0f;
    const bool big = v > 1.0f && simd_any(v > 2.0f);
    const bool low = v >= 0.0f || simd_all(v < -1.0f);
    out[3 * gid + 0] = pos;
    out[3 * gid + 1] = big ? 1.0f : 0.0f;
    out[3 * gid + 2] = low ? 1.0f : 0.0f;
}
