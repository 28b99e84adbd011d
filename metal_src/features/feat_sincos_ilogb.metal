// sincos (the sine returned, the cosine through a reference) and ilogb
// (the unbiased exponent of x as an int), per element of x:
//   s[i] = sincos(x[i], c[i]) (c[i] the cosine), e[i] = ilogb(x[i])
// x holds finite non-zero values (ilogb of 0 is implementation-defined).
// Dispatch: dispatchThreads n.
#include <metal_stdlib>
using namespace metal;

kernel void feat_sincos_ilogb(
    device const float* x [[buffer(0)]],
    device float*       s [[buffer(1)]],
    device float*       c [[buffer(2)]],
    device int*         e [[buffer(3)]],
    constant uint&      n [[buffer(4)]],
    uint i [[thread_position_in_grid]])
{
    if (i >= n) return;
    float cv;
    s[i] = sincos(x[i], cv);
    c[i] = cv;
    e[i] = ilogb(x[i]);
}
