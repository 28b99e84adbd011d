// Vectors subscripted at a run-time index: read (`w[i]`, `words[gid][j]`,
// `f[j]` on a float3), written (`m[i] = x`) and updated (`m[j] += x`).
// OpenCL C has no subscript on vectors: reads become a chain of selects.
#include <metal_stdlib>
using namespace metal;

kernel void feat_vector_subscript(
    device const uint4* words  [[buffer(0)]],
    device const uint*  sel    [[buffer(1)]],
    device uint*        picked [[buffer(2)]],
    device uint4*       mixed  [[buffer(3)]],
    device float*       lane3  [[buffer(4)]],
    constant uint&      n      [[buffer(5)]],
    uint gid [[thread_position_in_grid]])
{
    if (gid >= n) return;
    const uint4 w = words[gid];
    const uint i = sel[gid] & 3u;
    picked[gid] = w[i] * 1000u + words[gid][(i + 1u) & 3u];
    uint4 m = w;
    m[i] = 100u + gid;
    m[(i + 2u) & 3u] += 7u;
    mixed[gid] = m;
    const float3 f = float3(float(w.x), float(w.y), float(w.z)) * 0.5f;
    const int j = int(sel[gid] % 3u);
    lane3[gid] = f[j];
}
