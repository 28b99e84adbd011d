// mslport's own implementations of the MoE post-processing operations.
//
// Same kernel names and buffer interfaces as the corpus kernels of
// moe_post_ops.metal, so the golden cases in golden/<kernel>/ check both.
//
//   silu_mul_stacked_f32                  out[s,i] = silu(gate[s,i]) * up[s,i]
//   weighted_sum_stacked_f32              out[i]  = sum_s w[s] * slots[s,i]
//   weighted_sum_residual_stacked_f32     res[i] += sum_s w[s] * slots[s,i]
//   weighted_sum_residual_norm_stacked_f32  the above, then an RMS norm of res
#include <metal_stdlib>
using namespace metal;

struct SiluMulStackedParams {
    int ffn;       // row length
    int n_slots;   // number of rows (selected experts)
};

struct WeightedSumStackedParams {
    int hidden;
    int n_slots;
};

struct WSumResNormParams {
    int hidden;
    int n_slots;
    float eps;
};

inline float silu(float x) {
    return x / (1.0f + exp(-x));
}

// Grid: (ceil(ffn / width), n_slots) threadgroups of `width` threads (256).
kernel void silu_mul_stacked_f32(
    device const float* gate          [[buffer(0)]],
    device const float* up            [[buffer(1)]],
    device float*       out           [[buffer(2)]],
    constant SiluMulStackedParams& p  [[buffer(3)]],
    uint3 group      [[threadgroup_position_in_grid]],
    uint3 local      [[thread_position_in_threadgroup]],
    uint3 group_size [[threads_per_threadgroup]])
{
    const uint row_len = uint(p.ffn);
    const uint slot = group.y;
    const uint col = group.x * group_size.x + local.x;
    if (slot >= uint(p.n_slots) || col >= row_len) {
        return;
    }
    const uint at = slot * row_len + col;
    out[at] = silu(gate[at]) * up[at];
}

// Grid: (ceil(hidden / width), 1) threadgroups of `width` threads (256).
kernel void weighted_sum_stacked_f32(
    device const float* slots            [[buffer(0)]],
    device const float* weights          [[buffer(1)]],
    device float*       out              [[buffer(2)]],
    constant WeightedSumStackedParams& p [[buffer(3)]],
    uint3 group      [[threadgroup_position_in_grid]],
    uint3 local      [[thread_position_in_threadgroup]],
    uint3 group_size [[threads_per_threadgroup]])
{
    const uint col = group.x * group_size.x + local.x;
    const uint width = uint(p.hidden);
    if (col >= width) {
        return;
    }
    float acc = 0.0f;
    for (int s = 0; s < p.n_slots; ++s) {
        acc = fma(weights[s], slots[uint(s) * width + col], acc);
    }
    out[col] = acc;
}

kernel void weighted_sum_residual_stacked_f32(
    device const float* slots            [[buffer(0)]],
    device const float* weights          [[buffer(1)]],
    device float*       residual         [[buffer(2)]],
    constant WeightedSumStackedParams& p [[buffer(3)]],
    uint3 group      [[threadgroup_position_in_grid]],
    uint3 local      [[thread_position_in_threadgroup]],
    uint3 group_size [[threads_per_threadgroup]])
{
    const uint col = group.x * group_size.x + local.x;
    const uint width = uint(p.hidden);
    if (col >= width) {
        return;
    }
    float acc = 0.0f;
    for (int s = 0; s < p.n_slots; ++s) {
        acc = fma(weights[s], slots[uint(s) * width + col], acc);
    }
    residual[col] = residual[col] + acc;
}

// One threadgroup does the whole vector (any width that is a multiple of 32,
// up to 1024; the golden cases use 256). Per-SIMD-group partial sums of
// squares meet in a small static threadgroup array.
kernel void weighted_sum_residual_norm_stacked_f32(
    device const float* slots       [[buffer(0)]],
    device const float* weights     [[buffer(1)]],
    device float*       residual    [[buffer(2)]],
    device const float* next_norm_w [[buffer(3)]],
    device float*       normed_out  [[buffer(4)]],
    constant WSumResNormParams& p   [[buffer(5)]],
    uint tid     [[thread_index_in_threadgroup]],
    uint width   [[threads_per_threadgroup]],
    uint lane    [[thread_index_in_simdgroup]],
    uint simd_id [[simdgroup_index_in_threadgroup]])
{
    threadgroup float simd_partial[32];
    threadgroup float inv_rms[1];

    const uint n = uint(p.hidden);
    float sum_sq = 0.0f;
    for (uint i = tid; i < n; i += width) {
        float acc = 0.0f;
        for (int s = 0; s < p.n_slots; ++s) {
            acc = fma(weights[s], slots[uint(s) * n + i], acc);
        }
        const float r = residual[i] + acc;
        residual[i] = r;
        sum_sq += r * r;
    }

    const float simd_total = simd_sum(sum_sq);
    if (lane == 0) {
        simd_partial[simd_id] = simd_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    if (tid == 0) {
        const uint n_simd = (width + 31) / 32;
        float total = 0.0f;
        for (uint g = 0; g < n_simd; ++g) {
            total += simd_partial[g];
        }
        inv_rms[0] = 1.0f / sqrt(total / float(n) + p.eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    const float scale = inv_rms[0];
    for (uint i = tid; i < n; i += width) {
        normed_out[i] = residual[i] * scale * next_norm_w[i];
    }
}
