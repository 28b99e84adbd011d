// Kernel parameters declared as arrays: C++ adjusts a parameter of array
// type to a pointer to its element, so `constant const int64_t strides[2]`
// is a buffer of int64_t and `device const float x[]` a buffer of float,
// bound in order like any buffer without [[buffer(n)]]. MLX declares its
// stride arguments this way.
//
// Dispatch: dispatchThreads n, any threadgroup size.
//   out[i] = x[strides[0] * (i / cols) + strides[1] * (i % cols)] * scale[i % 4]
//   with cols = strides[2]
#include <metal_stdlib>
using namespace metal;

kernel void feat_array_params(
    device const float    x[],
    constant const int64_t strides[3],
    constant float        scale[4] [[buffer(2)]],
    device float*         out,
    uint i [[thread_position_in_grid]])
{
    const int64_t cols = strides[2];
    const int64_t at = strides[0] * (int64_t(i) / cols) + strides[1] * (int64_t(i) % cols);
    out[i] = x[at] * scale[i % 4];
}
