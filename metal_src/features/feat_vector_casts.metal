// Casts between vector types convert element by element, as in Metal:
// (float4)h of a half4, (T4)(*p) in a template whose T4 is float4,
// static_cast<float4> of an int4, and (int4) of a float4, which truncates
// toward zero. (clang's own vector casts would reinterpret the bits of an
// int4 as a float4, and refuse half4 to float4 for its size.)
//
// Dispatch: n threads (dispatchThreads). For thread i:
//   out[i] = (float4)h[i] + 2 * widen<float4>(&h[i]) + static_cast<float4>(k[i])
//            + float4((int4)f[i])
// where widen<T4>(p) = (T4)(*p).
#include <metal_stdlib>
using namespace metal;

template <typename T4>
T4 widen(device const half4* p) {
    return (T4)(*p);
}

kernel void feat_vector_casts(
    device const half4*  h   [[buffer(0)]],
    device const int4*   k   [[buffer(1)]],
    device const float4* f   [[buffer(2)]],
    device float4*       out [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    float4 a = (float4)h[i];
    float4 b = 2.0f * widen<float4>(&h[i]);
    float4 c = static_cast<float4>(k[i]);
    float4 d = float4((int4)f[i]);
    out[i] = a + b + c + d;
}
