// Explicit conversions between half and bfloat, scalars and vectors: Metal
// converts explicitly between any two of its scalar types (only implicit
// mixing of half and bfloat is refused). The conversion goes through float,
// which holds every half and every bfloat exactly, and rounds to nearest
// even once, at the final narrowing. The casts are written every way Metal
// code writes them: static_cast, functional, C-style, through typedefs
// (MLX's float16_t and bfloat16_t) and to a template parameter.
//
// Dispatch: n threads (dispatchThreads). For thread i, with x = h[i] and
// y = b[i]:
//   ob[i]  = bfloat4(static_cast<bfloat>(x.x), bfloat(x.y), (bfloat)x.z,
//                    static_cast<bfloat16_t>(float16_t(x.w)))
//   oh[i]  = half4(static_cast<half>(y.x), half(y.y), (half)y.z,
//                  cast_to<float16_t>(y.w))
//   obv[i] = static_cast<bfloat4>(x) for even i, bfloat4(x) for odd i
//   ohv[i] = (half4)y
// where cast_to<T>(v) = static_cast<T>(v).
#include <metal_stdlib>
using namespace metal;

typedef half float16_t;
typedef bfloat bfloat16_t;

template <typename T>
T cast_to(bfloat16_t v) {
    return static_cast<T>(v);
}

kernel void feat_half_bfloat_casts(
    device const half4*   h   [[buffer(0)]],
    device const bfloat4* b   [[buffer(1)]],
    device bfloat4*       ob  [[buffer(2)]],
    device half4*         oh  [[buffer(3)]],
    device bfloat4*       obv [[buffer(4)]],
    device half4*         ohv [[buffer(5)]],
    uint i [[thread_position_in_grid]])
{
    half4 x = h[i];
    bfloat4 y = b[i];
    float16_t w = x.w;
    ob[i] = bfloat4(static_cast<bfloat>(x.x), bfloat(x.y), (bfloat)x.z, static_cast<bfloat16_t>(w));
    oh[i] = half4(static_cast<half>(y.x), half(y.y), (half)y.z, cast_to<float16_t>(y.w));
    obv[i] = (i % 2 == 0) ? static_cast<bfloat4>(x) : bfloat4(x);
    ohv[i] = (half4)y;
}
