// Matrices of other shapes than square, float and half, as Metal defines
// them: floatCxR has C columns of R rows, m[c] is column c, m[c][r] an
// element; A * v, u * A, A * B, transpose, scalar * A, A + B.
//
// Per thread i, with columns read from the buffers:
//   a = float2x4(a_in[2i], a_in[2i + 1])           b = float4x2(b_in[4i .. 4i + 3])
//   h = half3x2(h_in[3i .. 3i + 2])                 v = v_in[i] (float2), u = u_in[i] (float4)
//   out[36 i + 0 .. 15]  = a * b       (float4x4, column after column)
//   out[36 i + 16 .. 19] = b * a       (float2x2)
//   out[36 i + 20 .. 23] = a * v       (float4)
//   out[36 i + 24, 25]   = u * a       (float2)
//   out[36 i + 26 .. 33] = 2 * transpose(a) + b   (float4x2)
//   out[36 i + 34, 35]   = a[1][2], b[3][0]
//   hout[8 i + 0 .. 3]   = h * transpose(h)        (half2x2)
//   hout[8 i + 4, 5]     = h * half3(1, -1, 0.5)   (half2)
//   hout[8 i + 6, 7]     = transpose(h)[1].z, h[0][1]
// Dispatch: one thread per i.
#include <metal_stdlib>
using namespace metal;

kernel void feat_matrix_shapes(
    device const float4* a_in [[buffer(0)]],
    device const float2* b_in [[buffer(1)]],
    device const half2*  h_in [[buffer(2)]],
    device const float2* v_in [[buffer(3)]],
    device const float4* u_in [[buffer(4)]],
    device float*        out  [[buffer(5)]],
    device half*         hout [[buffer(6)]],
    uint i [[thread_position_in_grid]])
{
    float2x4 a(a_in[2 * i], a_in[2 * i + 1]);
    float4x2 b(b_in[4 * i], b_in[4 * i + 1], b_in[4 * i + 2], b_in[4 * i + 3]);
    half3x2 h(h_in[3 * i], h_in[3 * i + 1], h_in[3 * i + 2]);
    float4x4 ab = a * b;
    float2x2 ba = b * a;
    float4 av = a * v_in[i];
    float2 ua = u_in[i] * a;
    float4x2 s = 2.0f * transpose(a) + b;
    device float* o = out + 36 * i;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) o[4 * c + r] = ab[c][r];
    for (int c = 0; c < 2; ++c)
        for (int r = 0; r < 2; ++r) o[16 + 2 * c + r] = ba[c][r];
    for (int r = 0; r < 4; ++r) o[20 + r] = av[r];
    o[24] = ua.x;
    o[25] = ua.y;
    for (int c = 0; c < 4; ++c) {
        o[26 + 2 * c] = s[c].x;
        o[27 + 2 * c] = s[c].y;
    }
    o[34] = a[1][2];
    o[35] = b[3][0];
    half2x3 ht = transpose(h);
    half2x2 hh = h * ht;
    half2 hw = h * half3(1.0h, -1.0h, 0.5h);
    device half* p = hout + 8 * i;
    p[0] = hh[0].x;
    p[1] = hh[0].y;
    p[2] = hh[1].x;
    p[3] = hh[1].y;
    p[4] = hw.x;
    p[5] = hw.y;
    p[6] = ht[1].z;
    p[7] = h[0][1];
}
