// mslport's own implementations of the fused RMS-norm / MoE-routing operations.
//
// Same kernel names and buffer interfaces as the corpus kernels of
// fused_norm_ops.metal, so the golden cases in golden/<kernel>/ check both.
// rms_norm(x)[i] = x[i] * rsqrt(mean(x^2) + eps) * weight[i]
//
// Norm kernels: one threadgroup per row, any width up to 1024 (the cases use
// min(256, next_pow2(dim))). Sums of squares are reduced with simd_sum; the
// per-SIMD-group partials go to the start of the dynamic threadgroup buffer
// (at most 32 floats, never more than the tg_size floats every case provides)
// and thread 0 adds them.
#include <metal_stdlib>
using namespace metal;

struct FusedResidualNormF32Params {
    uint dim;
    uint rows;
    float eps;
    uint write_sum;          // nonzero: also store residual + input
};

struct FusedResidualNormScalarF32Params {
    uint dim;
    uint rows;
    float eps;
    uint scalar_is_vector;   // nonzero: scalar[dim], else scalar[0] for all
};

struct FusedNormAddScalarF32Params {
    uint dim;
    uint rows;
    float eps;
    uint scalar_is_vector;
};

struct FusedMoeRoutingParams {
    uint num_experts;
    uint top_k;
};

// output = residual + rms_norm(sum_k expert_outputs[k] * weights[k]).
// Threadgroup memory: tg_size floats of scratch, then dim floats holding the
// weighted sum between the two passes.
kernel void fused_moe_wsum_norm_add_f32(
    device const float* expert_outputs [[buffer(0)]],
    device const float* weights        [[buffer(1)]],
    device const float* residual       [[buffer(2)]],
    device const float* norm_weight    [[buffer(3)]],
    device float*       output         [[buffer(4)]],
    constant uint&  dim    [[buffer(5)]],
    constant uint&  top_k  [[buffer(6)]],
    constant uint&  rows   [[buffer(7)]],
    constant float& eps    [[buffer(8)]],
    uint row     [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    if (row >= rows) {
        return;
    }
    threadgroup float* partial = shared;
    threadgroup float* mixed = shared + tg_size;
    threadgroup float inv_rms[1];

    device const float* eo = expert_outputs + row * top_k * dim;
    device const float* w = weights + row * top_k;
    float sum_sq = 0.0f;
    for (uint i = tid; i < dim; i += tg_size) {
        float v = 0.0f;
        for (uint k = 0; k < top_k; ++k) {
            v = fma(eo[k * dim + i], w[k], v);
        }
        mixed[i] = v;
        sum_sq += v * v;
    }
    const float simd_total = simd_sum(sum_sq);
    if (lane == 0) {
        partial[simd_id] = simd_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid == 0) {
        float total = 0.0f;
        for (uint g = 0; g < (tg_size + 31) / 32; ++g) {
            total += partial[g];
        }
        inv_rms[0] = rsqrt(total / float(dim) + eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale = inv_rms[0];
    const uint base = row * dim;
    for (uint i = tid; i < dim; i += tg_size) {
        output[base + i] = residual[base + i] + mixed[i] * scale * norm_weight[i];
    }
}

// output = rms_norm(residual, res_norm_weight) + rms_norm(wsum, moe_norm_weight)
// with wsum = sum_k expert_outputs[k] * weights[k].
// Threadgroup memory: 2 * tg_size floats of scratch, then dim floats (wsum).
kernel void fused_moe_wsum_dnorm_add_f32(
    device const float* expert_outputs  [[buffer(0)]],
    device const float* weights         [[buffer(1)]],
    device const float* residual        [[buffer(2)]],
    device const float* res_norm_weight [[buffer(3)]],
    device const float* moe_norm_weight [[buffer(4)]],
    device float*       output          [[buffer(5)]],
    constant uint&  dim   [[buffer(6)]],
    constant uint&  top_k [[buffer(7)]],
    constant uint&  rows  [[buffer(8)]],
    constant float& eps   [[buffer(9)]],
    uint row     [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    if (row >= rows) {
        return;
    }
    threadgroup float* partial_res = shared;
    threadgroup float* partial_mix = shared + tg_size;
    threadgroup float* mixed = shared + 2 * tg_size;
    threadgroup float inv_rms[2];

    const uint base = row * dim;
    device const float* eo = expert_outputs + row * top_k * dim;
    device const float* w = weights + row * top_k;
    float sq_res = 0.0f;
    float sq_mix = 0.0f;
    for (uint i = tid; i < dim; i += tg_size) {
        const float r = residual[base + i];
        sq_res += r * r;
        float v = 0.0f;
        for (uint k = 0; k < top_k; ++k) {
            v = fma(eo[k * dim + i], w[k], v);
        }
        mixed[i] = v;
        sq_mix += v * v;
    }
    const float simd_res = simd_sum(sq_res);
    const float simd_mix = simd_sum(sq_mix);
    if (lane == 0) {
        partial_res[simd_id] = simd_res;
        partial_mix[simd_id] = simd_mix;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid == 0) {
        float total_res = 0.0f;
        float total_mix = 0.0f;
        for (uint g = 0; g < (tg_size + 31) / 32; ++g) {
            total_res += partial_res[g];
            total_mix += partial_mix[g];
        }
        inv_rms[0] = rsqrt(total_res / float(dim) + eps);
        inv_rms[1] = rsqrt(total_mix / float(dim) + eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale_res = inv_rms[0];
    const float scale_mix = inv_rms[1];
    for (uint i = tid; i < dim; i += tg_size) {
        output[base + i] = residual[base + i] * scale_res * res_norm_weight[i]
                         + mixed[i] * scale_mix * moe_norm_weight[i];
    }
}

// output = residual + rms_norm(input, weight). Threadgroup memory: tg_size floats.
kernel void fused_norm_add_f32(
    device const float* residual [[buffer(0)]],
    device const float* input    [[buffer(1)]],
    device const float* weight   [[buffer(2)]],
    device float*       output   [[buffer(3)]],
    constant uint&  dim  [[buffer(4)]],
    constant uint&  rows [[buffer(5)]],
    constant float& eps  [[buffer(6)]],
    uint row     [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    if (row >= rows) {
        return;
    }
    threadgroup float inv_rms[1];
    const uint base = row * dim;
    float sum_sq = 0.0f;
    for (uint i = tid; i < dim; i += tg_size) {
        const float x = input[base + i];
        sum_sq += x * x;
    }
    const float simd_total = simd_sum(sum_sq);
    if (lane == 0) {
        shared[simd_id] = simd_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid == 0) {
        float total = 0.0f;
        for (uint g = 0; g < (tg_size + 31) / 32; ++g) {
            total += shared[g];
        }
        inv_rms[0] = rsqrt(total / float(dim) + eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale = inv_rms[0];
    for (uint i = tid; i < dim; i += tg_size) {
        output[base + i] = residual[base + i] + input[base + i] * scale * weight[i];
    }
}

// s = residual + input; normed_output = rms_norm(s, weight); sum_output = s
// when params.write_sum != 0 (otherwise sum_output is not touched).
// Grid: exactly `rows` threadgroups. Threadgroup memory: >= 32 floats used.
kernel void fused_residual_norm_f32(
    device const float* residual      [[buffer(0)]],
    device const float* input         [[buffer(1)]],
    device const float* weight        [[buffer(2)]],
    device float*       normed_output [[buffer(3)]],
    device float*       sum_output    [[buffer(4)]],
    constant FusedResidualNormF32Params& params [[buffer(5)]],
    uint row     [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    threadgroup float inv_rms[1];
    const uint dim = params.dim;
    const uint base = row * dim;
    const bool store_sum = params.write_sum != 0u;
    float sum_sq = 0.0f;
    for (uint i = tid; i < dim; i += tg_size) {
        const float s = residual[base + i] + input[base + i];
        if (store_sum) {
            sum_output[base + i] = s;
        }
        sum_sq += s * s;
    }
    const float simd_total = simd_sum(sum_sq);
    if (lane == 0) {
        shared[simd_id] = simd_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid == 0) {
        float total = 0.0f;
        for (uint g = 0; g < (tg_size + 31) / 32; ++g) {
            total += shared[g];
        }
        inv_rms[0] = rsqrt(total / float(dim) + params.eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale = inv_rms[0];
    for (uint i = tid; i < dim; i += tg_size) {
        const float s = residual[base + i] + input[base + i];
        normed_output[base + i] = s * scale * weight[i];
    }
}

// output = rms_norm(residual + input, weight) * scalar[i or 0].
// Grid: exactly `rows` threadgroups.
kernel void fused_residual_norm_scalar_f32(
    device const float* residual [[buffer(0)]],
    device const float* input    [[buffer(1)]],
    device const float* weight   [[buffer(2)]],
    device float*       output   [[buffer(3)]],
    device const float* scalar   [[buffer(4)]],
    constant FusedResidualNormScalarF32Params& params [[buffer(5)]],
    uint row     [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    threadgroup float inv_rms[1];
    const uint dim = params.dim;
    const uint base = row * dim;
    float sum_sq = 0.0f;
    for (uint i = tid; i < dim; i += tg_size) {
        const float s = residual[base + i] + input[base + i];
        sum_sq += s * s;
    }
    const float simd_total = simd_sum(sum_sq);
    if (lane == 0) {
        shared[simd_id] = simd_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid == 0) {
        float total = 0.0f;
        for (uint g = 0; g < (tg_size + 31) / 32; ++g) {
            total += shared[g];
        }
        inv_rms[0] = rsqrt(total / float(dim) + params.eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale = inv_rms[0];
    const bool per_element = params.scalar_is_vector != 0u;
    for (uint i = tid; i < dim; i += tg_size) {
        const float s = residual[base + i] + input[base + i];
        const float factor = per_element ? scalar[i] : scalar[0];
        output[base + i] = s * scale * weight[i] * factor;
    }
}

// output = (residual + rms_norm(input, weight)) * scalar[i or 0]; the norm
// sees `input` alone.
kernel void fused_norm_add_scalar_f32(
    device const float* residual [[buffer(0)]],
    device const float* input    [[buffer(1)]],
    device const float* weight   [[buffer(2)]],
    device float*       output   [[buffer(3)]],
    device const float* scalar   [[buffer(4)]],
    constant FusedNormAddScalarF32Params& params [[buffer(5)]],
    uint row     [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    if (row >= params.rows) {
        return;
    }
    threadgroup float inv_rms[1];
    const uint dim = params.dim;
    const uint base = row * dim;
    float sum_sq = 0.0f;
    for (uint i = tid; i < dim; i += tg_size) {
        const float x = input[base + i];
        sum_sq += x * x;
    }
    const float simd_total = simd_sum(sum_sq);
    if (lane == 0) {
        shared[simd_id] = simd_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid == 0) {
        float total = 0.0f;
        for (uint g = 0; g < (tg_size + 31) / 32; ++g) {
            total += shared[g];
        }
        inv_rms[0] = rsqrt(total / float(dim) + params.eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale = inv_rms[0];
    const bool per_element = params.scalar_is_vector != 0u;
    for (uint i = tid; i < dim; i += tg_size) {
        const float factor = per_element ? scalar[i] : scalar[0];
        output[base + i] = (residual[base + i] + input[base + i] * scale * weight[i]) * factor;
    }
}

// Top-k routing of one token's logits. The selected experts' softmax
// probabilities renormalised over the selection equal
//   exp(l_k - max) / sum_{j selected} exp(l_j - max),
// so the full softmax denominator is never needed. Weights are then scaled by
// per_expert_scale (not renormalised again). Ties go to the lower index.
// Threadgroup memory: max(tg_size, 2 * num_experts) floats; tg_size a power of two.
kernel void fused_moe_routing_f32(
    device const float* logits           [[buffer(0)]],
    device uint*        expert_ids       [[buffer(1)]],
    device float*       routing_weights  [[buffer(2)]],
    device const float* per_expert_scale [[buffer(3)]],
    constant FusedMoeRoutingParams& params [[buffer(4)]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    const uint n = params.num_experts;
    float m = -INFINITY;
    for (uint i = tid; i < n; i += tg_size) {
        m = max(m, logits[i]);
    }
    shared[tid] = m;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_width = tg_size / 2; half_width > 0; half_width >>= 1) {
        if (tid < half_width) {
            shared[tid] = max(shared[tid], shared[tid + half_width]);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    const float max_logit = shared[0];
    // Everyone has read shared[0] before the buffer is reused below.
    threadgroup_barrier(mem_flags::mem_threadgroup);

    threadgroup float* score = shared + n;
    for (uint i = tid; i < n; i += tg_size) {
        score[i] = exp(logits[i] - max_logit);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    if (tid == 0) {
        float picked = 0.0f;
        for (uint k = 0; k < params.top_k; ++k) {
            float best = -1.0f;
            uint best_e = 0;
            for (uint e = 0; e < n; ++e) {
                if (score[e] > best) {
                    best = score[e];
                    best_e = e;
                }
            }
            score[best_e] = -1.0f;
            expert_ids[k] = best_e;
            routing_weights[k] = best;
            picked += best;
        }
        for (uint k = 0; k < params.top_k; ++k) {
            const float share = picked > 0.0f ? routing_weights[k] / picked : 0.0f;
            routing_weights[k] = share * per_expert_scale[expert_ids[k]];
        }
    }
}

// The same routing for n_tokens tokens, one threadgroup per token; the grid
// must be exactly n_tokens threadgroups.
kernel void fused_moe_routing_batch_f32(
    device const float* logits_all          [[buffer(0)]],
    device uint*        expert_ids_all      [[buffer(1)]],
    device float*       routing_weights_all [[buffer(2)]],
    device const float* per_expert_scale    [[buffer(3)]],
    constant FusedMoeRoutingParams& params  [[buffer(4)]],
    uint token   [[threadgroup_position_in_grid]],
    uint tid     [[thread_index_in_threadgroup]],
    uint tg_size [[threads_per_threadgroup]],
    threadgroup float* shared [[threadgroup(0)]])
{
    const uint n = params.num_experts;
    const uint top_k = params.top_k;
    device const float* logits = logits_all + token * n;
    device uint* expert_ids = expert_ids_all + token * top_k;
    device float* routing_weights = routing_weights_all + token * top_k;

    float m = -INFINITY;
    for (uint i = tid; i < n; i += tg_size) {
        m = max(m, logits[i]);
    }
    shared[tid] = m;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_width = tg_size / 2; half_width > 0; half_width >>= 1) {
        if (tid < half_width) {
            shared[tid] = max(shared[tid], shared[tid + half_width]);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    const float max_logit = shared[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);

    threadgroup float* score = shared + n;
    for (uint i = tid; i < n; i += tg_size) {
        score[i] = exp(logits[i] - max_logit);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    if (tid == 0) {
        float picked = 0.0f;
        for (uint k = 0; k < top_k; ++k) {
            float best = -1.0f;
            uint best_e = 0;
            for (uint e = 0; e < n; ++e) {
                if (score[e] > best) {
                    best = score[e];
                    best_e = e;
                }
            }
            score[best_e] = -1.0f;
            expert_ids[k] = best_e;
            routing_weights[k] = best;
            picked += best;
        }
        for (uint k = 0; k < top_k; ++k) {
            const float share = picked > 0.0f ? routing_weights[k] / picked : 0.0f;
            routing_weights[k] = share * per_expert_scale[expert_ids[k]];
        }
    }
}
