// Brace initialisers of vectors that give fewer elements than the vector
// has: the rest are zero, as in Metal (clang's ext-vector rule). An
// accumulator started with `{0.f}`, a partial list `{x, y}` whose z and w
// are zero, an empty `{}`, and a list in a template with a trailing comma.
//
// Dispatch: n threads (dispatchThreads). For thread i, with x = in[i]:
//   acc  = sum over j < 3 of x * (j + 1)                       (= 6x)
//   out[i] = acc + float4(x.x, x.y, 0, 0) + 0 + first2(x)
// where first2(v) = vec<T,4>{v.x, v.y,} (z, w zero) for T = float.
#include <metal_stdlib>
using namespace metal;

template <typename T>
vec<T, 4> first2(vec<T, 4> v) {
    vec<T, 4> r = {v.x, v.y,};
    return r;
}

kernel void feat_vector_init_lists(
    device const float4* in  [[buffer(0)]],
    device float4*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    float4 x = in[i];
    float4 acc = {0.f};
    for (int j = 0; j < 3; ++j) {
        acc += x * float(j + 1);
    }
    float4 part = {x.x, x.y};
    float4 none = {};
    out[i] = acc + part + none + first2(x);
}
