// Buffer parameters without [[buffer(n)]]: Metal numbers them 0, 1, 2, 3 in
// declaration order.
#include <metal_stdlib>
using namespace metal;

kernel void feat_implicit_buffer_index(
    device const float* a,
    device const float* b,
    device float*       out,
    constant uint&      n,
    uint gid [[thread_position_in_grid]])
{
    if (gid >= n) {
        return;
    }
    out[gid] = a[gid] * 2.0f - b[gid];
}
