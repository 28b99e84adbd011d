// simdgroup_matrix<float, 8, 8>: one SIMD group computes C = A * B for
// A [8 x K] (row-major, stride K) and B given transposed as Bt [8 x K]
// (loaded with transpose = true), K a multiple of 8; C is [8 x 8], stride 8.
#include <metal_stdlib>
#include <metal_simdgroup_matrix>
using namespace metal;

kernel void feat_simdgroup_matmul(
    device const float* a  [[buffer(0)]],
    device const float* bt [[buffer(1)]],
    device float*       c  [[buffer(2)]],
    constant uint&      k  [[buffer(3)]])
{
    simdgroup_matrix<float, 8, 8> acc;
    for (uint kt = 0; kt < k / 8; ++kt) {
        simdgroup_matrix<float, 8, 8> ma, mb;
        simdgroup_load(ma, a + kt * 8, k);
        simdgroup_load(mb, bt + kt * 8, k, ulong2(0, 0), true);
        if (kt == 0) {
            simdgroup_multiply(acc, ma, mb);
        } else {
            simdgroup_multiply_accumulate(acc, ma, mb, acc);
        }
    }
    simdgroup_store(acc, c, 8);
}
