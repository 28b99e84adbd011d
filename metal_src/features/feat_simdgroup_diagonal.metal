// simdgroup_matrix<T, C, R>(T dval): a diagonal matrix, dval on the
// diagonal and 0 elsewhere (MSL 6.7.1). One SIMD group per threadgroup of
// 32; threadgroup g works on the 8x8 blocks A[g], H[g]:
//   out_a[g] = A[g] * I              (`simdgroup_float8x8 id(1.0f);`)
//   out_s[g] = A[g] * (s I) + 0      (`simdgroup_float8x8(s)` from a constant;
//                                     0 from `simdgroup_float8x8(0)`, an int)
//   out_d[g] = 2.5 I                 (a temporary stored directly)
//   out_h[g] = 1.5 I * H[g]          (half: `simdgroup_half8x8(1.5h)`)
//   out_b[g] = (-2 I) * (-2 I)       (bfloat operands, float result)
#include <metal_stdlib>
using namespace metal;

kernel void feat_simdgroup_diagonal(
    device const float* A     [[buffer(0)]],
    device const half*  H     [[buffer(1)]],
    device float*       out_a [[buffer(2)]],
    device float*       out_s [[buffer(3)]],
    device float*       out_d [[buffer(4)]],
    device half*        out_h [[buffer(5)]],
    device float*       out_b [[buffer(6)]],
    constant float&     s     [[buffer(7)]],
    uint g [[threadgroup_position_in_grid]])
{
    simdgroup_float8x8 a, t;
    simdgroup_load(a, A + g * 64, 8);
    simdgroup_float8x8 id(1.0f);
    simdgroup_multiply(t, a, id);
    simdgroup_store(t, out_a + g * 64, 8);

    simdgroup_float8x8 z = simdgroup_float8x8(0);
    const simdgroup_float8x8 sd = simdgroup_float8x8(s);
    simdgroup_multiply_accumulate(t, a, sd, z);
    simdgroup_store(t, out_s + g * 64, 8);
    simdgroup_store(simdgroup_float8x8(2.5f), out_d + g * 64, 8);

    simdgroup_half8x8 hd = simdgroup_half8x8(1.5h);
    simdgroup_half8x8 h;
    simdgroup_load(h, H + g * 64, 8);
    simdgroup_multiply(h, hd, h);
    simdgroup_store(h, out_h + g * 64, 8);

    simdgroup_bfloat8x8 bd(bfloat(-2.0f));
    simdgroup_float8x8 f;
    simdgroup_multiply(f, bd, bd);
    simdgroup_store(f, out_b + g * 64, 8);
}
