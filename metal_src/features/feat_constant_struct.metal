// A constant struct whose layout has padding: float2 is 8-byte aligned, so
// `bias` sits at offset 16 and the struct is 24 bytes.
#include <metal_stdlib>
using namespace metal;

struct FeatParams {
    uint   n;
    float  scale;
    int    shift;    // in (-n, 0]
    float2 bias;
};

kernel void feat_constant_struct(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    constant FeatParams& p  [[buffer(2)]],
    uint gid [[thread_position_in_grid]])
{
    if (gid >= p.n) {
        return;
    }
    int src = int(gid) + p.shift;
    if (src < 0) {
        src += int(p.n);
    }
    out[gid] = x[src] * p.scale + ((gid & 1u) != 0u ? p.bias.y : p.bias.x);
}
