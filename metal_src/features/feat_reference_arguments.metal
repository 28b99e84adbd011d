// Values given to `const thread T&` parameters of scalar and vector type:
// C++ binds each reference to a temporary that holds the value (the first
// argument, a later one, a template's, and one computed from a call).
//
// Dispatch: n threads (dispatchThreads). For thread i, with a = x[i],
// v = y[i] (a half4):
//   out[i]  = scaled(a + 1, 3) + scaled(a, a * 0.5)   (scaled(p, q) = p * 2 + q)
//   outh[i] = doubled(v - half4(1)) + doubled(abs(v))  (doubled(w) = w + w)
#include <metal_stdlib>
using namespace metal;

static float scaled(const thread float& p, const thread float& q) { return p * 2.0f + q; }

template <typename T>
static T doubled(const thread T& w) { return w + w; }

kernel void feat_reference_arguments(
    device const float* x    [[buffer(0)]],
    device const half4* y    [[buffer(1)]],
    device float*       out  [[buffer(2)]],
    device half4*       outh [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    const float a = x[i];
    const half4 v = y[i];
    out[i] = scaled(a + 1.0f, 3.0f) + scaled(a, a * 0.5f);
    outh[i] = doubled(v - half4(1.0h)) + doubled(abs(v));
}
