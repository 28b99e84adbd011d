// sincos (the sine returned, the cosine through a reference) and ilogb (the
// unbiased exponent, an int per lane) of a float4, a half and a half2, per
// thread i:
//   s4[i] = sincos(x4[i], c4[i]), e4[i] = ilogb(x4[i])   (int4)
//   hs[i] = sincos(hx[i], hc[i]), he[i] = ilogb(hx[i])    (half, int)
//   hs2[i] = sincos(hx2[i], hc2[i]), he2[i] = ilogb(hx2[i]) (half2, int2)
// Every x is finite and non-zero (ilogb of 0 is implementation-defined);
// some halves are subnormal (ilogb gives their own exponent).
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_sincos_ilogb_vectors(
    device const float4* x4  [[buffer(0)]],
    device const half*   hx  [[buffer(1)]],
    device const half2*  hx2 [[buffer(2)]],
    device float4*       s4  [[buffer(3)]],
    device float4*       c4  [[buffer(4)]],
    device int4*         e4  [[buffer(5)]],
    device half*         hs  [[buffer(6)]],
    device half*         hc  [[buffer(7)]],
    device int*          he  [[buffer(8)]],
    device half2*        hs2 [[buffer(9)]],
    device half2*        hc2 [[buffer(10)]],
    device int2*         he2 [[buffer(11)]],
    uint i [[thread_position_in_grid]])
{
    float4 c;
    s4[i] = sincos(x4[i], c);
    c4[i] = c;
    e4[i] = ilogb(x4[i]);
    half hcv;
    hs[i] = sincos(hx[i], hcv);
    hc[i] = hcv;
    he[i] = ilogb(hx[i]);
    half2 hcv2;
    hs2[i] = sincos(hx2[i], hcv2);
    hc2[i] = hcv2;
    he2[i] = ilogb(hx2[i]);
}
