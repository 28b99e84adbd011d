// mslport's own implementations of MoE / activation / residual / norm operations.
//
// Same kernel names and buffer interfaces (indices, element sizes, layouts) as the
// corresponding kernels of the user's corpus file moe_quant_shaders.metal, so the golden
// cases in golden/<kernel>/ (golden/gen/gen_quant_misc.py) check both.
//
//   swiglu_fused                  out[i] = silu(gate[i]) * up[i]
//   residual_add                  out[i] = a[i] + b[i]
//   rms_norm_apply_bf16           out[i] = x[i] * rsqrt(sum_sq/dim + eps) * bf16(weight[i])
//   rms_norm_bf16_fused_n_tokens  the same per token, with the sum of squares computed here
//   moe_combine_residual          hidden = h_mid + sum_{k<K} w_k e_k + sigmoid(g) * shared_out
//   moe_softmax_topk              softmax over experts, top-k in running-minimum slot order
//   moe_normalize_weights         w[t, :] /= sum(w[t, :]) when the sum is positive
//
// Written independently of the corpus: bf16 weights go through as_type<bfloat>, the
// weighted sums use fma, reductions go through simd_sum / simd_max with partials that
// every thread re-reads (no broadcast variable), top-k tracks the running minimum
// incrementally and compares unnormalised exponentials. Preconditions are in each
// kernel's comment; every golden case satisfies them.
#include <metal_stdlib>
using namespace metal;

inline float sigmoid_of(float x) {
    return 1.0f / (1.0f + exp(-x));
}

inline float bf16_bits_to_float(ushort bits) {
    return as_type<float>(uint(bits) << 16);
}

// Grid: at least dim threads, any threadgroup width (cases: ceil(dim/256) x 256).
kernel void swiglu_fused(
    device const float* gate [[buffer(0)]],
    device const float* up   [[buffer(1)]],
    device float*       out  [[buffer(2)]],
    constant uint&      dim  [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    if (i < dim) {
        const float g = gate[i];
        out[i] = (g * sigmoid_of(g)) * up[i];
    }
}

// Grid: at least dim threads.
kernel void residual_add(
    device const float* a   [[buffer(0)]],
    device const float* b   [[buffer(1)]],
    device float*       out [[buffer(2)]],
    constant uint&      dim [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    if (i >= dim) {
        return;
    }
    out[i] = b[i] + a[i];
}

// sum_sq[0] comes from a previous sum-of-squares pass. Grid: at least dim threads.
kernel void rms_norm_apply_bf16(
    device const float*  x      [[buffer(0)]],
    device const ushort* weight [[buffer(1)]],
    device const float*  sum_sq [[buffer(2)]],
    device float*        out    [[buffer(3)]],
    constant uint&       dim    [[buffer(4)]],
    constant float&      eps    [[buffer(5)]],
    uint i [[thread_position_in_grid]])
{
    if (i >= dim) {
        return;
    }
    const float mean_sq = sum_sq[0] / float(dim);
    const float inv_rms = rsqrt(mean_sq + eps);
    out[i] = (x[i] * bf16_bits_to_float(weight[i])) * inv_rms;
}

// One threadgroup per token (grid exactly n_tokens threadgroups), any width up to 1024.
kernel void rms_norm_bf16_fused_n_tokens(
    device const float*  x      [[buffer(0)]],
    device const ushort* weight [[buffer(1)]],
    device float*        out    [[buffer(2)]],
    constant uint&       dim    [[buffer(3)]],
    constant float&      eps    [[buffer(4)]],
    uint token   [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint width   [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]])
{
    threadgroup float partials[32];
    const uint base = token * dim;
    float sq = 0.0f;
    for (uint i = tid; i < dim; i += width) {
        const float v = x[base + i];
        sq = fma(v, v, sq);
    }
    const float group_sq = simd_sum(sq);
    if (lane == 0) {
        partials[simd_id] = group_sq;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float total = 0.0f;
    const uint groups = (width + 31) / 32;
    for (uint g = 0; g < groups; ++g) {
        total += partials[g];
    }
    const float inv_rms = rsqrt(total / float(dim) + eps);
    for (uint i = tid; i < dim; i += width) {
        out[base + i] = x[base + i] * inv_rms * bf16_bits_to_float(weight[i]);
    }
}

// 16 expert-output buffers are bound; only the first K are read (K <= 16).
// params: [0..15] expert weights, [16] shared-expert gate score, [17] pad.
// Grid: at least dim threads.
kernel void moe_combine_residual(
    device const float* h_mid       [[buffer(0)]],
    device const float* shared_out  [[buffer(1)]],
    device float*       hidden_out  [[buffer(2)]],
    device const float* e0          [[buffer(3)]],
    device const float* e1          [[buffer(4)]],
    device const float* e2          [[buffer(5)]],
    device const float* e3          [[buffer(6)]],
    device const float* e4          [[buffer(7)]],
    device const float* e5          [[buffer(8)]],
    device const float* e6          [[buffer(9)]],
    device const float* e7          [[buffer(10)]],
    device const float* e8          [[buffer(11)]],
    device const float* e9          [[buffer(12)]],
    device const float* e10         [[buffer(13)]],
    device const float* e11         [[buffer(14)]],
    device const float* e12         [[buffer(15)]],
    device const float* e13         [[buffer(16)]],
    device const float* e14         [[buffer(17)]],
    device const float* e15         [[buffer(18)]],
    device const float* params      [[buffer(19)]],
    constant uint&      dim         [[buffer(20)]],
    constant uint&      K           [[buffer(21)]],
    uint i [[thread_position_in_grid]])
{
    if (i >= dim) {
        return;
    }
    float acc = 0.0f;
    // Slots in order; each later slot is only reached when K allows it.
    if (K >= 1)  { acc = fma(params[0],  e0[i],  acc); }
    if (K >= 2)  { acc = fma(params[1],  e1[i],  acc); }
    if (K >= 3)  { acc = fma(params[2],  e2[i],  acc); }
    if (K >= 4)  { acc = fma(params[3],  e3[i],  acc); }
    if (K >= 5)  { acc = fma(params[4],  e4[i],  acc); }
    if (K >= 6)  { acc = fma(params[5],  e5[i],  acc); }
    if (K >= 7)  { acc = fma(params[6],  e6[i],  acc); }
    if (K >= 8)  { acc = fma(params[7],  e7[i],  acc); }
    if (K >= 9)  { acc = fma(params[8],  e8[i],  acc); }
    if (K >= 10) { acc = fma(params[9],  e9[i],  acc); }
    if (K >= 11) { acc = fma(params[10], e10[i], acc); }
    if (K >= 12) { acc = fma(params[11], e11[i], acc); }
    if (K >= 13) { acc = fma(params[12], e12[i], acc); }
    if (K >= 14) { acc = fma(params[13], e13[i], acc); }
    if (K >= 15) { acc = fma(params[14], e14[i], acc); }
    if (K >= 16) { acc = fma(params[15], e15[i], acc); }
    const float gate = sigmoid_of(params[16]);
    hidden_out[i] = fma(gate, shared_out[i], h_mid[i] + acc);
}

// One threadgroup per token (grid exactly n_tokens threadgroups) of at most 1024 threads.
// Preconditions: n_experts <= 512, 1 <= k <= 16, k <= n_experts.
// out_weights[t, s] is the full softmax probability of the expert in slot s. Slot order is
// the running-minimum replacement order: experts are visited in index order; the first k
// fill slots 0..k-1, and each later expert whose value beats the current minimum replaces
// the lowest-numbered slot holding that minimum.
kernel void moe_softmax_topk(
    device const float* logits      [[buffer(0)]],
    device uint*        out_indices [[buffer(1)]],   // int in the corpus; indices are < 512
    device float*       out_weights [[buffer(2)]],
    constant uint&      n_experts   [[buffer(3)]],
    constant uint&      k           [[buffer(4)]],
    uint token   [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint width   [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]])
{
    threadgroup float expv[512];
    threadgroup float part_max[32];
    threadgroup float part_sum[32];
    threadgroup float slot_val[16];
    threadgroup uint  slot_idx[16];

    device const float* l = logits + token * n_experts;
    const uint groups = (width + 31) / 32;

    float m = l[0];
    for (uint e = tid; e < n_experts; e += width) {
        m = max(m, l[e]);
    }
    m = simd_max(m);
    if (lane == 0) {
        part_max[simd_id] = m;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float top = part_max[0];
    for (uint g = 1; g < groups; ++g) {
        top = max(top, part_max[g]);
    }

    float s = 0.0f;
    for (uint e = tid; e < n_experts; e += width) {
        const float v = exp(l[e] - top);
        expv[e] = v;
        s += v;
    }
    s = simd_sum(s);
    if (lane == 0) {
        part_sum[simd_id] = s;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    if (tid != 0) {
        return;
    }
    float denom = 0.0f;
    for (uint g = 0; g < groups; ++g) {
        denom += part_sum[g];
    }
    // The first k experts fill the slots in order.
    for (uint s2 = 0; s2 < k; ++s2) {
        slot_idx[s2] = s2;
        slot_val[s2] = expv[s2];
    }
    uint min_slot = 0;
    for (uint s2 = 1; s2 < k; ++s2) {
        if (slot_val[s2] < slot_val[min_slot]) {
            min_slot = s2;
        }
    }
    for (uint e = k; e < n_experts; ++e) {
        const float v = expv[e];
        if (v > slot_val[min_slot]) {
            slot_val[min_slot] = v;
            slot_idx[min_slot] = e;
            min_slot = 0;
            for (uint s2 = 1; s2 < k; ++s2) {
                if (slot_val[s2] < slot_val[min_slot]) {
                    min_slot = s2;
                }
            }
        }
    }
    const float inv = 1.0f / denom;
    for (uint s2 = 0; s2 < k; ++s2) {
        out_indices[token * k + s2] = slot_idx[s2];
        out_weights[token * k + s2] = slot_val[s2] * inv;
    }
}

// One threadgroup of at least k threads per token, k <= 32 (one SIMD group), grid exactly
// n_tokens threadgroups. Rows whose sum is not positive are left as they are.
kernel void moe_normalize_weights(
    device float*  weights [[buffer(0)]],
    constant uint& k       [[buffer(1)]],
    uint token [[threadgroup_position_in_grid]],
    uint tid   [[thread_index_in_threadgroup]])
{
    const bool mine = tid < k;
    const float w = mine ? weights[token * k + tid] : 0.0f;
    const float total = simd_sum(w);
    if (mine && total > 0.0f) {
        weights[token * k + tid] = w / total;
    }
}
