// Functional casts between packed vectors in device memory and aligned
// vectors, the way SPIRV-Cross writes struct members (`float3(buf.m)` and
// `buf.m = packed_float3(v)`), also changing the element type. One element
// of `buf` per thread (36 bytes: a 0, b 12, h 16, n 24, c 32):
//   a' = packed_float3(2 a + float3(h))          (packed -> vector -> packed)
//   h' = packed_half3(a)                         (float vector -> packed half)
//   n' = packed_int2(2.5 a.xy)                   (float -> int, toward zero)
//   c' = packed_uchar4(uint4(c) + 1)             (uchar -> uint -> uchar, 255 wraps to 0)
//   b' = float3(packed_float3(h)).z + n.x + n.y  (packed half -> packed float)
//   out = float4(float3(h) + float3(half3(a)), c.w)
// Dispatch: threads in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

struct Packed {
    packed_float3 a;
    float b;
    packed_half3 h;
    packed_int2 n;
    packed_uchar4 c;
};

kernel void feat_packed_vector_casts(
    device Packed* buf  [[buffer(0)]],
    device float4* out  [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    const float3 a = float3(buf[i].a);
    const float3 hf = float3(buf[i].h);
    const half3 ah = half3(buf[i].a);
    const int2 n = int2(buf[i].n);
    const uint4 c = uint4(buf[i].c);
    const packed_float3 pf = packed_float3(buf[i].h);
    buf[i].a = packed_float3(a * 2.0f + hf);
    buf[i].h = packed_half3(a);
    buf[i].n = packed_int2(a.xy * 2.5f);
    buf[i].c = packed_uchar4(c + 1u);
    buf[i].b = float3(pf).z + float(n.x + n.y);
    out[i] = float4(hf + float3(ah), float(c.w));
}
