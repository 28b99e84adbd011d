// half arithmetic as Metal does it: every operation on half values rounds
// its result to half (round to nearest even), not only the final
// assignment:
//   out[4i]     = a * b + c
//   out[4i + 1] = (a - c) / b
//   out[4i + 2] = eight steps of acc = acc * a + c from acc = b
//   out[4i + 3] = (p.x - p.y) * p.z with p = half4(a, b, c, 1) * half4(c, a, b, 2)
//                 (a vector product, each lane rounded)
// (Chains of additions are left out: fast math, Metal's default and the
// ports', may reassociate them, and with each step rounded the order shows.)
//   approx[2i]  = sqrt(a * a + c * c), approx[2i + 1] = exp(a)   (as float)
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_half_arithmetic(
    device const half* a_in   [[buffer(0)]],
    device const half* b_in   [[buffer(1)]],
    device const half* c_in   [[buffer(2)]],
    device half*       out    [[buffer(3)]],
    device float*      approx [[buffer(4)]],
    uint i [[thread_position_in_grid]])
{
    const half a = a_in[i], b = b_in[i], c = c_in[i];
    out[4 * i + 0] = a * b + c;
    out[4 * i + 1] = (a - c) / b;
    half acc = b;
    for (int k = 0; k < 8; ++k) acc = acc * a + c;
    out[4 * i + 2] = acc;
    const half4 p = half4(a, b, c, 1.0h) * half4(c, a, b, 2.0h);
    out[4 * i + 3] = (p.x - p.y) * p.z;
    approx[2 * i + 0] = float(sqrt(a * a + c * c));
    approx[2 * i + 1] = float(exp(a));
}
