// #define constants as a private array size and loop bound.
#include <metal_stdlib>
using namespace metal;

#define GROUP 4
#define BIAS 0.5f

kernel void feat_define_macro(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    constant uint&      n   [[buffer(2)]],
    uint gid [[thread_position_in_grid]])
{
    if (gid >= n) {
        return;
    }
    float v[GROUP];
    for (int k = 0; k < GROUP; ++k) {
        v[k] = x[gid * GROUP + k];
    }
    float acc = BIAS;
    for (int k = GROUP - 1; k >= 0; --k) {
        acc = acc * 2.0f + v[k];
    }
    out[gid] = acc;
}
