// mslport's own implementation of the MoE router (same name and buffer
// interface as the corpus kernel moe_gate, checked by golden/moe_gate/).
//
// Per token t (one threadgroup each):
//   h      = rms_norm(float(hidden_state[t]), norm_weight, rms_eps)
//   logits = router_weights * h                        (n_experts values)
//   top    = the top_k largest logits, largest first (ties: lower index)
//   w_k    = softmax(logits[top])_k * per_expert_scale[top[k]], renormalised
//          = exp(l_k - l_0) * s_k / sum_j exp(l_j - l_0) * s_j
//
// Preconditions: threads_per_threadgroup is a multiple of 32 (each router dot
// product is split over the 32 lanes of one SIMD group) and top_k <= 8. Unlike
// the corpus kernel, n_experts needs neither to be >= tg_size nor <= 128.
// Threadgroup memory (index 0): hidden_dim + n_experts floats (normed hidden
// state, then logits).
#include <metal_stdlib>
using namespace metal;

constant uint MAX_TOP_K = 8;

kernel void moe_gate(
    device const bfloat* hidden_state     [[buffer(0)]],
    device const float*  router_weights   [[buffer(1)]],
    device const float*  norm_weight      [[buffer(2)]],
    device const float*  per_expert_scale [[buffer(3)]],
    device uint*         expert_ids       [[buffer(4)]],
    device float*        expert_weights   [[buffer(5)]],
    constant uint&  hidden_dim [[buffer(6)]],
    constant uint&  n_experts  [[buffer(7)]],
    constant uint&  top_k      [[buffer(8)]],
    constant float& rms_eps    [[buffer(9)]],
    uint tid     [[thread_index_in_threadgroup]],
    uint token   [[threadgroup_position_in_grid]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    threadgroup float simd_partial[32];
    threadgroup float inv_rms[1];
    threadgroup float* h = shared;
    threadgroup float* logit = shared + hidden_dim;
    device const bfloat* x = hidden_state + token * hidden_dim;

    // RMS of the token's hidden state; keep the raw values in h meanwhile.
    float sum_sq = 0.0f;
    for (uint i = tid; i < hidden_dim; i += tg_size) {
        const float v = float(x[i]);
        h[i] = v;
        sum_sq += v * v;
    }
    const float simd_total = simd_sum(sum_sq);
    if (lane == 0) {
        simd_partial[simd_id] = simd_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid == 0) {
        float total = 0.0f;
        for (uint g = 0; g < tg_size / 32; ++g) {
            total += simd_partial[g];
        }
        inv_rms[0] = rsqrt(total / float(hidden_dim) + rms_eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale = inv_rms[0];
    for (uint i = tid; i < hidden_dim; i += tg_size) {
        h[i] = h[i] * scale * norm_weight[i];
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    // Router: each SIMD group takes every (tg_size/32)-th expert; its lanes
    // split the hidden dimension and simd_sum combines them.
    const uint n_simd = tg_size / 32;
    for (uint e = simd_id; e < n_experts; e += n_simd) {
        device const float* row = router_weights + e * hidden_dim;
        float dot = 0.0f;
        for (uint d = lane; d < hidden_dim; d += 32) {
            dot = fma(h[d], row[d], dot);
        }
        dot = simd_sum(dot);
        if (lane == 0) {
            logit[e] = dot;
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    if (tid == 0) {
        const uint k_count = min(top_k, MAX_TOP_K);
        uint pick[MAX_TOP_K];
        float pick_logit[MAX_TOP_K];
        for (uint k = 0; k < k_count; ++k) {
            float best = -INFINITY;
            uint best_e = 0;
            for (uint e = 0; e < n_experts; ++e) {
                if (logit[e] > best) {
                    best = logit[e];
                    best_e = e;
                }
            }
            logit[best_e] = -INFINITY;
            pick[k] = best_e;
            pick_logit[k] = best;
        }
        float weight[MAX_TOP_K];
        float total = 0.0f;
        for (uint k = 0; k < k_count; ++k) {
            weight[k] = exp(pick_logit[k] - pick_logit[0]) * per_expert_scale[pick[k]];
            total += weight[k];
        }
        const uint out = token * top_k;
        for (uint k = 0; k < k_count; ++k) {
            expert_ids[out + k] = pick[k];
            expert_weights[out + k] = weight[k] / total;
        }
    }
}
