// Matrices as Metal defines them: column-major, m[i] is column i.
//
// Dispatch: one thread per vector; m (float4x4) and a (float2x2) come from
// constant buffers as 16 and 4 floats, column after column.
//   t = transpose(m); d = float4x4(2) (2 on the diagonal)
//   w = (t * d) * v + v * m            (matrix * matrix, matrix * vector, vector * matrix)
//   s = float2x2(a[0], a[1]) with s[1][0] += 1 (a column written element by element)
//   out[i] = w + float4(s[1], s[0].x, s[0].y)
#include <metal_stdlib>
using namespace metal;

kernel void feat_matrix(
    device const float4* v_in [[buffer(0)]],
    constant float4x4&   m    [[buffer(1)]],
    constant float2x2&   a    [[buffer(2)]],
    device float4*       out  [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    float4 v = v_in[i];
    float4x4 t = transpose(m);
    float4x4 d(2.0f);
    float4 w = (t * d) * v + v * m;
    float2x2 s(a[0], a[1]);
    s[1][0] += 1.0f;
    out[i] = w + float4(s[1], s[0].x, s[0].y);
}
