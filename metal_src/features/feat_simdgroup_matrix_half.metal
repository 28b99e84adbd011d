// simdgroup_matrix with half and bfloat elements, strides, origins and
// transposes (one SIMD group per threadgroup, threadgroup g works on the
// g-th 16 x S block of A):
//   a = 8x8 half block of A at column 4, row 8 (stride S)
//   b = 8x8 half block of B at (0, 0), transposed (stride S)
//   c = a * b + 0.5           (float accumulator from make_filled_simdgroup_matrix)
//   d = a * b                 (half result)
//   e = bfloat block of E at (2, 0) (stride 12);  f = e * e + c   (float)
//   out_c: c at column 1 of an 8 x 10 float block (stride 10)
//   out_d: d transposed into an 8 x 8 half block
//   out_f: f into an 8 x 8 float block
// Dispatch: threadgroups of 32 threads.
#include <metal_stdlib>
using namespace metal;

kernel void feat_simdgroup_matrix_half(
    device const half*   A     [[buffer(0)]],
    device const half*   B     [[buffer(1)]],
    device const bfloat* E     [[buffer(2)]],
    device float*        out_c [[buffer(3)]],
    device half*         out_d [[buffer(4)]],
    device float*        out_f [[buffer(5)]],
    constant uint&       S     [[buffer(6)]],
    uint g [[threadgroup_position_in_grid]])
{
    simdgroup_half8x8 a, b, d;
    simdgroup_bfloat8x8 e;
    simdgroup_float8x8 c = make_filled_simdgroup_matrix<float, 8, 8>(0.5f);
    simdgroup_float8x8 f;
    simdgroup_load(a, A + g * 16 * S, S, ulong2(4, 8));
    simdgroup_load(b, B + g * 8 * S, S, ulong2(0, 0), true);
    simdgroup_multiply_accumulate(c, a, b, c);
    simdgroup_multiply(d, a, b);
    simdgroup_load(e, E + g * 8 * 12, 12, ulong2(2, 0));
    simdgroup_multiply_accumulate(f, e, e, c);
    simdgroup_store(c, out_c + g * 80, 10, ulong2(1, 0));
    simdgroup_store(d, out_d + g * 64, 8, ulong2(0, 0), true);
    simdgroup_store(f, out_f + g * 64, 8);
}
