// simdgroup_matrix::thread_elements(): each lane l of a SIMD group owns
// elements (r, c) and (r, c + 1) of an 8x8 tile, with q = l / 4,
// r = (q & 4) + (l / 2) % 4, c = (q & 2) * 2 + (l % 2) * 2 (the layout
// MLX's steel gemm and other kernels written for Apple GPUs rely on).
// Threadgroups of 64 threads (two SIMD groups); SIMD group g of the grid
// (g = 2 * threadgroup + simdgroup) works on its own blocks:
//   a, b  = 8x8 float blocks A[g][0], A[g][1];  c = a * b
//   pairs[g][l]      = c.thread_elements() read by lane l (before any write)
//   c.thread_elements() *= s        (in a helper), then
//   c.thread_elements()[1] += l / 4 (lane l's second element)
//   out_c[g]         = c           (simdgroup_store of the written tile)
//   out_d[g]         = c * a       (simdgroup_multiply of the written tile)
//   h = half block H[g];  h.thread_elements()[i] = h_i * 0.5 + l / 8, then
//   out_h[g]         = h           (half)
//   e = bfloat block E[g]; e.thread_elements() = 2 e_pair - 0.125, then
//   out_e[g]         = e * e       (float, multiply of the written tile)
#include <metal_stdlib>
using namespace metal;

// A helper writes the tile through the reference it is given.
static void scale_elements(thread simdgroup_float8x8& m, float s) {
    m.thread_elements() *= s;
}

kernel void feat_simdgroup_thread_elements(
    device const float*  A      [[buffer(0)]],
    device const half*   H      [[buffer(1)]],
    device const bfloat* E      [[buffer(2)]],
    device float*        pairs  [[buffer(3)]],
    device float*        out_c  [[buffer(4)]],
    device float*        out_d  [[buffer(5)]],
    device half*         out_h  [[buffer(6)]],
    device float*        out_e  [[buffer(7)]],
    constant float&      s      [[buffer(8)]],
    uint tg   [[threadgroup_position_in_grid]],
    ushort sg [[simdgroup_index_in_threadgroup]],
    ushort l  [[thread_index_in_simdgroup]])
{
    const uint g = tg * 2 + sg;
    simdgroup_float8x8 a, b, c, d;
    simdgroup_load(a, A + g * 128, 8);
    simdgroup_load(b, A + g * 128 + 64, 8);
    simdgroup_multiply(c, a, b);
    const float2 mine = c.thread_elements();
    pairs[g * 64 + 2 * l] = mine.x;
    pairs[g * 64 + 2 * l + 1] = mine[1];
    scale_elements(c, s);
    c.thread_elements()[1] += float(l) * 0.25f;
    simdgroup_store(c, out_c + g * 64, 8);
    simdgroup_multiply(d, c, a);
    simdgroup_store(d, out_d + g * 64, 8);

    simdgroup_half8x8 h;
    simdgroup_load(h, H + g * 64, 8);
    for (int i = 0; i < 2; ++i)
        h.thread_elements()[i] = h.thread_elements()[i] * 0.5h + half(l) * 0.125h;
    simdgroup_store(h, out_h + g * 64, 8);

    simdgroup_bfloat8x8 e;
    simdgroup_float8x8 f;
    simdgroup_load(e, E + g * 64, 8);
    const float2 ev = float2(e.thread_elements());
    e.thread_elements() = bfloat2(ev * 2.0f - 0.125f);
    simdgroup_multiply(f, e, e);
    simdgroup_store(f, out_e + g * 64, 8);
}
