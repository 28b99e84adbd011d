// Metal's geometric and relational functions:
//   geo_exact[8 i + ...] = dot(a, b), cross(a, b) (3 lanes),
//                          length_squared(a), distance_squared(a, b),
//                          all(a.x > 0), any(a.x > 0 || b.x > 0)   (exact)
//   geo_round[5 i + ...] = length(a), distance(a, b), normalize(a) (3 lanes)
//   rel[6 i + ...]       = isnan(s), isinf(s), isfinite(s), isnormal(s),
//                          signbit(s), select(-1, 1, isnan(s) || s > 0)
// a, b: float3 rows of x (x[6 i .. 6 i + 5]); s = special[i] (NaN, the
// infinities, zeros, a subnormal, normal numbers).
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_geometric_relational(
    device const float* x         [[buffer(0)]],
    device const float* special   [[buffer(1)]],
    device float*       geo_exact [[buffer(2)]],
    device float*       geo_round [[buffer(3)]],
    device float*       rel       [[buffer(4)]],
    uint i [[thread_position_in_grid]])
{
    const float3 a = float3(x[6 * i + 0], x[6 * i + 1], x[6 * i + 2]);
    const float3 b = float3(x[6 * i + 3], x[6 * i + 4], x[6 * i + 5]);
    const float3 c = cross(a, b);
    geo_exact[8 * i + 0] = dot(a, b);
    geo_exact[8 * i + 1] = c.x;
    geo_exact[8 * i + 2] = c.y;
    geo_exact[8 * i + 3] = c.z;
    geo_exact[8 * i + 4] = length_squared(a);
    geo_exact[8 * i + 5] = distance_squared(a, b);
    geo_exact[8 * i + 6] = all(a.x > 0.0f) ? 1.0f : 0.0f;
    geo_exact[8 * i + 7] = any(a.x > 0.0f || b.x > 0.0f) ? 1.0f : 0.0f;
    const float3 n = normalize(a);
    geo_round[5 * i + 0] = length(a);
    geo_round[5 * i + 1] = distance(a, b);
    geo_round[5 * i + 2] = n.x;
    geo_round[5 * i + 3] = n.y;
    geo_round[5 * i + 4] = n.z;
    const float s = special[i];
    rel[6 * i + 0] = isnan(s) ? 1.0f : 0.0f;
    rel[6 * i + 1] = isinf(s) ? 1.0f : 0.0f;
    rel[6 * i + 2] = isfinite(s) ? 1.0f : 0.0f;
    rel[6 * i + 3] = isnormal(s) ? 1.0f : 0.0f;
    rel[6 * i + 4] = signbit(s) ? 1.0f : 0.0f;
    rel[6 * i + 5] = select(-1.0f, 1.0f, isnan(s) || s > 0.0f);
}
