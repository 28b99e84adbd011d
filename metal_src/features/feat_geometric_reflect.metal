// Metal's reflect, refract and faceforward (MSL 6.8) and isordered,
// isunordered and `not` (MSL 6.6), per thread i, with I, N, R the float3
// rows i of inc, nrm and ref:
//   geo[9 i + 0 .. 2] = reflect(I, N)          = I - 2 dot(N, I) N
//   geo[9 i + 3 .. 5] = refract(I, N, eta[i])  = 0 where k < 0, else
//                       eta I - (eta dot(N, I) + sqrt(k)) N,
//                       k = 1 - eta^2 (1 - dot(N, I)^2)
//   geo[9 i + 6 .. 8] = faceforward(N, I, R)   = dot(R, I) < 0 ? N : -N
//   hgeo[4 i + 0 .. 3] = reflect(HI, HN), half4 rows i of hinc and hnrm
//   rel[3 i + 0 .. 2] = isordered(p, q), isunordered(p, q),
//                       not isordered(p, q): 1 or 0, p = pq[2 i], q = pq[2 i + 1]
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_geometric_reflect(
    device const float* inc  [[buffer(0)]],
    device const float* nrm  [[buffer(1)]],
    device const float* ref  [[buffer(2)]],
    device const float* eta  [[buffer(3)]],
    device const half4* hinc [[buffer(4)]],
    device const half4* hnrm [[buffer(5)]],
    device const float* pq   [[buffer(6)]],
    device float*       geo  [[buffer(7)]],
    device half4*       hgeo [[buffer(8)]],
    device int*         rel  [[buffer(9)]],
    uint i [[thread_position_in_grid]])
{
    const float3 I = float3(inc[3 * i], inc[3 * i + 1], inc[3 * i + 2]);
    const float3 N = float3(nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2]);
    const float3 R = float3(ref[3 * i], ref[3 * i + 1], ref[3 * i + 2]);
    const float3 rl = reflect(I, N);
    const float3 rf = refract(I, N, eta[i]);
    const float3 ff = faceforward(N, I, R);
    for (int c = 0; c < 3; ++c) {
        geo[9 * i + c] = rl[c];
        geo[9 * i + 3 + c] = rf[c];
        geo[9 * i + 6 + c] = ff[c];
    }
    hgeo[i] = reflect(hinc[i], hnrm[i]);
    const float p = pq[2 * i], q = pq[2 * i + 1];
    rel[3 * i + 0] = isordered(p, q) ? 1 : 0;
    rel[3 * i + 1] = isunordered(p, q) ? 1 : 0;
    rel[3 * i + 2] = not isordered(p, q) ? 1 : 0;
}
