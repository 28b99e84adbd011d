// Arithmetic between a vector and a scalar whose type ranks above the
// vector's element: Metal converts the scalar to the element type, then
// widens it to the vector (MSL 3.1), so `half4 * float` is a half4. Per
// thread i, with hv = h[i] (half4), s = scale (float), sv = sv_in[i]
// (short4), k = k_in[i] (int), hs = half(s):
//   oh[3 i + 0] = hv * s                         (half4: hv * hs, rounded to half)
//   oh[3 i + 1] = s + hv                         (half4)
//   oh[3 i + 2] = c, c = hv; c *= s; c -= 0.5f   (half4, rounded at each step)
//   of[i] = (float4)(i % 2 == 1 ? s * hv : 0.0f) (the ?: of a half4 and a float is a half4)
//   os[i] = sv * 3 + k                           (short4: 3 and k become shorts, k
//                                                 keeping its low 16 bits; wrapping)
// Dispatch: threads in threadgroups of 32.
//
// The same in a template kernel, per instance: feat_mixed_scalar_vector_f4
// (V = float4) and _h4 (V = half4). There clang types the unsuffixed literal
// 0.1 as a double, which Metal does not have; it converts to the element
// type as any scalar does. Per thread i, with v = x[i]:
//   y[i] = 0.1 * v   (half4: half(0.1) * v, rounded to half; float4: 0.1f * v)
#include <metal_stdlib>
using namespace metal;

kernel void feat_mixed_scalar_vector(
    device const half4*  h      [[buffer(0)]],
    constant float&      scale  [[buffer(1)]],
    device const short4* sv_in  [[buffer(2)]],
    device const int*    k_in   [[buffer(3)]],
    device half4*        oh     [[buffer(4)]],
    device float4*       of     [[buffer(5)]],
    device short4*       os     [[buffer(6)]],
    uint i [[thread_position_in_grid]])
{
    const half4 hv = h[i];
    const float s = scale;
    oh[3 * i + 0] = hv * s;
    oh[3 * i + 1] = s + hv;
    half4 c = hv;
    c *= s;
    c -= 0.5f;
    oh[3 * i + 2] = c;
    of[i] = (float4)(i % 2 == 1 ? s * hv : 0.0f);
    os[i] = sv_in[i] * 3 + k_in[i];
}

template <typename V>
kernel void feat_mixed_scalar_vector_template(
    device const V* x [[buffer(0)]],
    device V*       y [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    const V v = x[i];
    y[i] = 0.1 * v;
}

template [[host_name("feat_mixed_scalar_vector_f4")]] kernel void feat_mixed_scalar_vector_template<float4>(
    device const float4*, device float4*, uint);
template [[host_name("feat_mixed_scalar_vector_h4")]] kernel void feat_mixed_scalar_vector_template<half4>(
    device const half4*, device half4*, uint);
