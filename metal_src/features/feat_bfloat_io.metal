// bfloat load, conversion to float, arithmetic, conversion back (round to
// nearest even) and store, plus as_type<ushort> on a bfloat.
#include <metal_stdlib>
using namespace metal;

kernel void feat_bfloat_io(
    device const bfloat* x    [[buffer(0)]],
    device bfloat*       y    [[buffer(1)]],
    device float*        yf   [[buffer(2)]],
    device ushort*       bits [[buffer(3)]],
    uint gid [[thread_position_in_grid]])
{
    const float v = float(x[gid]);
    const float w = v * 3.0f + 0.5f;
    y[gid] = bfloat(w);
    yf[gid] = w;
    bits[gid] = as_type<ushort>(x[gid]);
}
