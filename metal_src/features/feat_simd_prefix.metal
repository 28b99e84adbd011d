// SIMD-group prefix sums and products over the active lanes, in lane order:
// lanes with keep[i] == 0 take no part (they write -99), so the prefixes
// skip them:
//   out[4i]     = simd_prefix_inclusive_sum(x)      (float)
//   out[4i + 1] = simd_prefix_exclusive_sum(x)
//   out[4i + 2] = simd_prefix_inclusive_product(p)  (p = 2^k, k in -2..2)
//   out[4i + 3] = simd_prefix_exclusive_product(p)
//   iout[2i]    = simd_prefix_inclusive_sum(int(x * 4))
//   iout[2i+1]  = simd_prefix_exclusive_product(int(x * 4) | 1)   (int, wraps)
// Dispatch: threadgroups of 64 threads (2 SIMD groups), the last
// threadgroup partial (threads past n return first).
#include <metal_stdlib>
using namespace metal;

kernel void feat_simd_prefix(
    device const float* x    [[buffer(0)]],
    device const float* p    [[buffer(1)]],
    device const uint*  keep [[buffer(2)]],
    device float*       out  [[buffer(3)]],
    device int*         iout [[buffer(4)]],
    constant uint&      n    [[buffer(5)]],
    uint i [[thread_position_in_grid]])
{
    if (i >= n) return;
    float a = -99.0f, b = -99.0f, c = -99.0f, d = -99.0f;
    int e = -99, f = -99;
    if (keep[i] != 0u) {
        a = simd_prefix_inclusive_sum(x[i]);
        b = simd_prefix_exclusive_sum(x[i]);
        c = simd_prefix_inclusive_product(p[i]);
        d = simd_prefix_exclusive_product(p[i]);
        const int xi = int(x[i] * 4.0f);
        e = simd_prefix_inclusive_sum(xi);
        f = simd_prefix_exclusive_product(xi | 1);
    }
    out[4 * i + 0] = a;
    out[4 * i + 1] = b;
    out[4 * i + 2] = c;
    out[4 * i + 3] = d;
    iout[2 * i + 0] = e;
    iout[2 * i + 1] = f;
}
