// modf (the fraction returned, the whole part through a reference) and frexp
// (the mantissa in [0.5, 1) returned, the exponent through an int reference)
// of vectors, lane by lane as Metal declares them (T modf(T, thread T&),
// T frexp(T, thread intN&)), for a float4 and a half2, per thread i:
//   f4[i] = modf(x4[i], w4[i]);  m4[i] = frexp(x4[i], e4[i])   (int4)
//   fh[i] = modf(h2[i], wh[i]);  mh[i] = frexp(h2[i], eh[i])   (int2)
// Both are exact. Inputs: finite, of both signs, zeros included (frexp(0)
// is (0, 0)).
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_modf_frexp_vectors(
    device const float4* x4 [[buffer(0)]],
    device const half2*  h2 [[buffer(1)]],
    device float4*       f4 [[buffer(2)]],
    device float4*       w4 [[buffer(3)]],
    device float4*       m4 [[buffer(4)]],
    device int4*         e4 [[buffer(5)]],
    device half2*        fh [[buffer(6)]],
    device half2*        wh [[buffer(7)]],
    device half2*        mh [[buffer(8)]],
    device int2*         eh [[buffer(9)]],
    uint i [[thread_position_in_grid]])
{
    float4 w;
    f4[i] = modf(x4[i], w);
    w4[i] = w;
    int4 e;
    m4[i] = frexp(x4[i], e);
    e4[i] = e;
    half2 wv;
    fh[i] = modf(h2[i], wv);
    wh[i] = wv;
    int2 ev;
    mh[i] = frexp(h2[i], ev);
    eh[i] = ev;
}
