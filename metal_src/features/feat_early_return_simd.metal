// Some threads return early (past n, or keep[gid] == 0); the survivors then
// call simd_sum, which combines only the lanes still running.
#include <metal_stdlib>
using namespace metal;

kernel void feat_early_return_simd(
    device const float* x    [[buffer(0)]],
    device const uint*  keep [[buffer(1)]],
    device float*       out  [[buffer(2)]],
    constant uint&      n    [[buffer(3)]],
    uint gid [[thread_position_in_grid]])
{
    if (gid >= n || keep[gid] == 0u) {
        return;
    }
    out[gid] = simd_sum(x[gid]);
}
