// quant_matvec.metal — mslport's own mat-vec kernels over MLX-affine quantised
// and bf16 weights.  Same kernel names, buffer indices and dispatch geometry as
// the corresponding kernels of the moe_quant_shaders corpus, so the golden
// cases of golden/<kernel>/ check these too (golden/gen/gen_quant_matvec.py).
//
// Weight format (MLX affine): row-major [out_dim, in_dim * bits / 32] uint32
// words; value k of a word sits in bits [k*bits, (k+1)*bits) (lowest first).
// One bf16 scale and bias (uint16 bit patterns) per `group_size` consecutive
// inputs of a row: w = q * scale + bias.
//
// Dot products use w.x = scale * sum(q*x) + bias * sum(x) per word, so the
// per-element work is one fma and one add and the scale/bias multiply once
// per word.
#include <metal_stdlib>
using namespace metal;

// v3-style geometry: 256 threads = 8 SIMD groups; SIMD group r handles row
// (threadgroup * 8 + r); the input vector is cached in threadgroup memory
// (in_dim <= 4096).
#define QMV_ROWS_PER_TG 8
#define QMV_X_CACHE 4096

inline float qmv_bf16(ushort bits) {
    return as_type<float>(uint(bits) << 16);
}

// ---------------------------------------------------------------------------
// 4-bit, one row per SIMD group.
// Buffers: 0 W [out_dim, in_dim/8] uint, 1 scales, 2 biases [out_dim,
// in_dim/group_size] bf16, 3 x [in_dim] float, 4 out [out_dim] float,
// 5 out_dim, 6 in_dim, 7 group_size.
// Grid: ceil(out_dim/8) (or more) threadgroups of 256 threads.
// Preconditions: in_dim <= 4096, group_size % 8 == 0, in_dim % group_size == 0.
// ---------------------------------------------------------------------------
kernel void dequant_matvec_4bit_v3(
    device const uint* W_packed [[buffer(0)]],
    device const ushort* scales [[buffer(1)]],
    device const ushort* biases [[buffer(2)]],
    device const float* x [[buffer(3)]],
    device float* out [[buffer(4)]],
    constant uint& out_dim [[buffer(5)]],
    constant uint& in_dim [[buffer(6)]],
    constant uint& group_size [[buffer(7)]],
    uint tg_index [[threadgroup_position_in_grid]],
    uint tid [[thread_index_in_threadgroup]],
    uint tg_threads [[threads_per_threadgroup]],
    uint lane [[thread_index_in_simdgroup]],
    uint sg [[simdgroup_index_in_threadgroup]])
{
    threadgroup float xc[QMV_X_CACHE];
    // Every thread helps fill the cache before any row is skipped.
    for (uint i = tid; i < in_dim; i += tg_threads) {
        xc[i] = x[i];
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    const uint r = tg_index * QMV_ROWS_PER_TG + sg;
    if (r >= out_dim) {
        return;
    }
    const uint words = in_dim >> 3;
    const uint words_per_group = group_size >> 3;
    const uint groups = in_dim / group_size;
    device const uint* wr = W_packed + r * words;
    device const ushort* sr = scales + r * groups;
    device const ushort* br = biases + r * groups;

    float acc = 0.0f;
    for (uint c = lane; c < words; c += 32) {
        const uint g = c / words_per_group;
        const uint word = wr[c];
        const uint base = c << 3;
        float qx = 0.0f;
        float xsum = 0.0f;
        for (uint k = 0; k < 8; ++k) {
            const float xv = xc[base + k];
            qx = fma(float((word >> (k * 4)) & 15u), xv, qx);
            xsum += xv;
        }
        acc = fma(qmv_bf16(sr[g]), qx, fma(qmv_bf16(br[g]), xsum, acc));
    }
    const float total = simd_sum(acc);
    if (lane == 0) {
        out[r] = total;
    }
}

// ---------------------------------------------------------------------------
// 8-bit, same geometry and buffers; W is [out_dim, in_dim/4] (4 bytes/word).
// Preconditions: in_dim <= 4096, group_size % 4 == 0, in_dim % group_size == 0.
// ---------------------------------------------------------------------------
kernel void dequant_matvec_8bit_v3(
    device const uint* W_packed [[buffer(0)]],
    device const ushort* scales [[buffer(1)]],
    device const ushort* biases [[buffer(2)]],
    device const float* x [[buffer(3)]],
    device float* out [[buffer(4)]],
    constant uint& out_dim [[buffer(5)]],
    constant uint& in_dim [[buffer(6)]],
    constant uint& group_size [[buffer(7)]],
    uint tg_index [[threadgroup_position_in_grid]],
    uint tid [[thread_index_in_threadgroup]],
    uint tg_threads [[threads_per_threadgroup]],
    uint lane [[thread_index_in_simdgroup]],
    uint sg [[simdgroup_index_in_threadgroup]])
{
    threadgroup float xc[QMV_X_CACHE];
    for (uint i = tid; i < in_dim; i += tg_threads) {
        xc[i] = x[i];
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    const uint r = tg_index * QMV_ROWS_PER_TG + sg;
    if (r >= out_dim) {
        return;
    }
    const uint words = in_dim >> 2;
    const uint words_per_group = group_size >> 2;
    const uint groups = in_dim / group_size;
    device const uint* wr = W_packed + r * words;
    device const ushort* sr = scales + r * groups;
    device const ushort* br = biases + r * groups;

    float acc = 0.0f;
    for (uint c = lane; c < words; c += 32) {
        const uint g = c / words_per_group;
        const uint word = wr[c];
        const uint base = c << 2;
        float qx = 0.0f;
        float xsum = 0.0f;
        for (uint k = 0; k < 4; ++k) {
            const float xv = xc[base + k];
            qx = fma(float((word >> (k * 8)) & 255u), xv, qx);
            xsum += xv;
        }
        acc = fma(qmv_bf16(sr[g]), qx, fma(qmv_bf16(br[g]), xsum, acc));
    }
    const float total = simd_sum(acc);
    if (lane == 0) {
        out[r] = total;
    }
}

// ---------------------------------------------------------------------------
// bf16 weights, float input: output[r] = sum_i input[i] * w[r, i].
// Buffers: 0 w [out_dim, in_dim] bf16, 1 input [in_dim], 2 output [out_dim],
// 3 in_dim, 4 out_dim.  One threadgroup per row (extra threadgroups idle);
// threadgroup size a power of two <= 256.
// Per-thread strided partial sums, simd_sum inside each SIMD group, then the
// SIMD-group partials are folded pairwise in threadgroup memory.
// ---------------------------------------------------------------------------
kernel void bf16_matvec(
    device const ushort* w [[buffer(0)]],
    device const float* input [[buffer(1)]],
    device float* output [[buffer(2)]],
    constant uint& in_dim [[buffer(3)]],
    constant uint& out_dim [[buffer(4)]],
    uint r [[threadgroup_position_in_grid]],
    uint tid [[thread_index_in_threadgroup]],
    uint tg_threads [[threads_per_threadgroup]],
    uint lane [[thread_index_in_simdgroup]],
    uint sg [[simdgroup_index_in_threadgroup]])
{
    threadgroup float sg_part[8];
    if (r >= out_dim) {
        return;   // whole threadgroup: uniform
    }
    device const ushort* wr = w + r * in_dim;
    float part = 0.0f;
    for (uint i = tid; i < in_dim; i += tg_threads) {
        part = fma(input[i], qmv_bf16(wr[i]), part);
    }
    const float s = simd_sum(part);
    if (lane == 0) {
        sg_part[sg] = s;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint n = (tg_threads + 31) / 32;
    while (n > 1) {
        const uint half_n = n / 2;
        if (tid < half_n) {
            sg_part[tid] += sg_part[tid + half_n];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        n = half_n;
    }
    if (tid == 0) {
        output[r] = sg_part[0];
    }
}

// ---------------------------------------------------------------------------
// 4-bit embedding gather: out[t, d] = q(ids[t], d) * scale + bias.
// Buffers: 0 W [vocab, hidden/8], 1 scales, 2 biases [vocab, hidden/group_size],
// 3 token_ids [n_tokens] int, 4 out [n_tokens, hidden] float, 5 n_tokens,
// 6 hidden_dim, 7 group_size.  One thread per output element
// (ceil(n_tokens*hidden/256) threadgroups of 256; extra threads idle).
// ---------------------------------------------------------------------------
kernel void embed_gather_4bit(
    device const uint* W_packed [[buffer(0)]],
    device const ushort* scales [[buffer(1)]],
    device const ushort* biases [[buffer(2)]],
    device const int* token_ids [[buffer(3)]],
    device float* out [[buffer(4)]],
    constant uint& n_tokens [[buffer(5)]],
    constant uint& hidden_dim [[buffer(6)]],
    constant uint& group_size [[buffer(7)]],
    uint gid [[thread_position_in_grid]])
{
    if (gid >= n_tokens * hidden_dim) {
        return;
    }
    const uint t = gid / hidden_dim;
    const uint d = gid - t * hidden_dim;
    const uint v = uint(token_ids[t]);
    const uint g = v * (hidden_dim / group_size) + d / group_size;
    const uint word = W_packed[v * (hidden_dim >> 3) + (d >> 3)];
    const uint q = (word >> ((d & 7u) << 2)) & 15u;
    out[gid] = fma(float(q), qmv_bf16(scales[g]), qmv_bf16(biases[g]));
}
