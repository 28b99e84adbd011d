// Metal's conversions, element-wise on vectors:
//   ints[4i ..]   = static_cast<int4>(v)           (toward zero)
//   bits[2i ..]   = as_type<uint2>(half4(v))       (each lane rounded to
//                   half, nearest even, the four halves' bits as two uints)
//   small[4i ..]  = char4(int4(v * 8))             (wraps modulo 256)
//   pair[2i ..]   = as_type<ushort2>(v.x)          (the float's two halves)
//   mix[4i ..]    = int(vec<float, 3>(v.xyz).z + float(bool(v.x)))
//                   + long2(int2(v.xy)).y + ulong3(7).z, uint(ushort(abs(v.w) * 1000)),
//                   int(uchar(abs(v.y) * 6)), int(short(-v.z * 100))
// v = x[i], lanes in [-40, 40] with fractions.
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_conversions(
    device const float4* x     [[buffer(0)]],
    device int4*         ints  [[buffer(1)]],
    device uint2*        bits  [[buffer(2)]],
    device char4*        small [[buffer(3)]],
    device ushort2*      pair  [[buffer(4)]],
    device int4*         mix   [[buffer(5)]],
    uint i [[thread_position_in_grid]])
{
    const float4 v = x[i];
    ints[i] = static_cast<int4>(v);
    bits[i] = as_type<uint2>(half4(v));
    small[i] = char4(static_cast<int4>(v * 8.0f));
    pair[i] = as_type<ushort2>(v.x);
    const vec<float, 3> w = v.xyz;
    const long2 l = long2(int2(v.xy));
    const ulong3 m = ulong3(7ul);
    mix[i] = int4(int(w.z + float(bool(v.x))) + int(l.y) + int(m.z), int(uint(ushort(abs(v.w) * 1000.0f))),
                  int(uchar(abs(v.y) * 6.0f)), int(short(-v.z * 100.0f)));
}
