// half load, conversion to float, arithmetic, conversion back (round to
// nearest even) and store.
#include <metal_stdlib>
using namespace metal;

kernel void feat_half_io(
    device const half* x  [[buffer(0)]],
    device half*       y  [[buffer(1)]],
    device float*      yf [[buffer(2)]],
    uint gid [[thread_position_in_grid]])
{
    const float v = float(x[gid]);
    const float w = v * 3.0f + 0.25f;
    y[gid] = half(w);
    yf[gid] = w;
}
