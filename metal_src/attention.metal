// mslport's own implementations of attention-related operations.
//
// Same kernel names and buffer interfaces as the corpus kernels of
// moe_quant_shaders.metal, so the golden cases in golden/<kernel>/ check both.
//
//   attn_scores_batched    scores[h, p] = (Q[h] . K[p, kv(h)]) * scale
//   attn_softmax_batched   row-wise softmax of scores[h, 0..seq_len), in place
//   attn_values_batched    out[h, d] = sum_p scores[h, p] * V[p, kv(h), d]
//   gated_delta_net_step   per-token gated delta rule, state rows in registers
//   rope_n_tokens          NeoX (half-split) rotary embedding of n tokens
#include <metal_stdlib>
using namespace metal;

#define ATTN_MAX_SIMD_GROUPS 32   // 1024 threads / 32 lanes

// Threadgroup-wide reductions are written out in each kernel: simd_sum /
// simd_max per SIMD group, one partial per group in `scratch`, then every
// thread folds the partials itself; a barrier follows before `scratch` is
// reused.  (mslport inlines only single-return helpers for now.)

// Grid: num_seq_tgs * num_heads threadgroups, linearised as pos + h * num_seq_tgs;
// any threadgroup width up to 1024. Positions >= seq_len are left untouched.
kernel void attn_scores_batched(
    device const float* Q         [[buffer(0)]],   // [num_heads, head_dim]
    device const float* K_cache   [[buffer(1)]],   // [max_seq, kv_dim]
    device float*       scores    [[buffer(2)]],   // [num_heads, seq_stride]
    constant uint& head_dim       [[buffer(3)]],
    constant uint& kv_dim         [[buffer(4)]],
    constant uint& seq_len        [[buffer(5)]],
    constant uint& seq_stride     [[buffer(6)]],
    constant float& scale         [[buffer(7)]],
    constant uint& heads_per_kv   [[buffer(8)]],
    constant uint& num_seq_tgs    [[buffer(9)]],
    uint group  [[threadgroup_position_in_grid]],
    uint lid    [[thread_position_in_threadgroup]],
    uint width  [[threads_per_threadgroup]])
{
    threadgroup float scratch[ATTN_MAX_SIMD_GROUPS];
    const uint head = group / num_seq_tgs;
    const uint pos = group - head * num_seq_tgs;
    if (pos >= seq_len) {
        return;   // uniform over the threadgroup: no thread reaches a barrier
    }
    device const float* q = Q + head * head_dim;
    device const float* k = K_cache + pos * kv_dim + (head / heads_per_kv) * head_dim;
    float part = 0.0f;
    for (uint d = lid; d < head_dim; d += width) {
        part = fma(q[d], k[d], part);
    }
    const float part_sg = simd_sum(part);
    if (lid % 32 == 0) {
        scratch[lid / 32] = part_sg;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0) {
        float dot = 0.0f;
        for (uint g = 0; g < (width + 31) / 32; ++g) {
            dot += scratch[g];
        }
        scores[head * seq_stride + pos] = dot * scale;
    }
}

// Grid: num_heads threadgroups (one per row), any width up to 1024.
kernel void attn_softmax_batched(
    device float* scores       [[buffer(0)]],   // [num_heads, seq_stride], in place
    constant uint& seq_len     [[buffer(1)]],
    constant uint& seq_stride  [[buffer(2)]],
    uint head   [[threadgroup_position_in_grid]],
    uint lid    [[thread_position_in_threadgroup]],
    uint width  [[threads_per_threadgroup]])
{
    threadgroup float scratch[ATTN_MAX_SIMD_GROUPS];
    device float* row = scores + head * seq_stride;

    float m = -INFINITY;
    for (uint i = lid; i < seq_len; i += width) {
        m = max(m, row[i]);
    }
    const uint groups = (width + 31) / 32;
    const float m_sg = simd_max(m);
    if (lid % 32 == 0) {
        scratch[lid / 32] = m_sg;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float row_max = scratch[0];
    for (uint g = 1; g < groups; ++g) {
        row_max = max(row_max, scratch[g]);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);   // scratch is reused below

    // Each thread touches the same indices in both loops, so the stored
    // exponentials need no barrier before they are rescaled.
    float s = 0.0f;
    for (uint i = lid; i < seq_len; i += width) {
        const float e = exp(row[i] - row_max);
        row[i] = e;
        s += e;
    }
    const float s_sg = simd_sum(s);
    if (lid % 32 == 0) {
        scratch[lid / 32] = s_sg;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float total = 0.0f;
    for (uint g = 0; g < groups; ++g) {
        total += scratch[g];
    }
    const float inv = 1.0f / total;
    for (uint i = lid; i < seq_len; i += width) {
        row[i] *= inv;
    }
}

// Grid: exactly num_heads * head_dim threads (no guard), one per (d, head).
kernel void attn_values_batched(
    device const float* scores   [[buffer(0)]],   // [num_heads, seq_stride]
    device const float* V_cache  [[buffer(1)]],   // [max_seq, kv_dim]
    device float*       out      [[buffer(2)]],   // [num_heads, head_dim]
    constant uint& head_dim      [[buffer(3)]],
    constant uint& kv_dim        [[buffer(4)]],
    constant uint& seq_len       [[buffer(5)]],
    constant uint& seq_stride    [[buffer(6)]],
    constant uint& heads_per_kv  [[buffer(7)]],
    uint tid [[thread_position_in_grid]])
{
    const uint head = tid / head_dim;
    const uint d = tid - head * head_dim;
    device const float* p = scores + head * seq_stride;
    device const float* v = V_cache + (head / heads_per_kv) * head_dim + d;
    float acc = 0.0f;
    for (uint t = 0; t < seq_len; ++t) {
        acc = fma(p[t], v[t * kv_dim], acc);
    }
    out[tid] = acc;
}

// Gated delta rule, sequential over tokens. Grid: num_v_heads threadgroups of
// exactly GDN_DIM threads; thread vi owns state row S[head][vi][:], which it
// keeps in registers for the whole token loop.
//   S *= g;  delta = (v[vi] - S.k) * beta;  S += delta * k;  y[vi] = S.q
#define GDN_DIM 128
kernel void gated_delta_net_step(
    device float*       state          [[buffer(0)]],   // [num_v_heads, 128, 128]
    device const float* conv_out       [[buffer(1)]],   // [n_tokens, 2*key_total + num_v_heads*128]
    device const float* g_decay        [[buffer(2)]],   // [n_tokens, num_v_heads]
    device const float* beta_gate      [[buffer(3)]],   // [n_tokens, num_v_heads]
    device float*       output         [[buffer(4)]],   // [n_tokens, num_v_heads*128]
    constant uint& k_heads_per_v       [[buffer(5)]],
    constant uint& n_tokens            [[buffer(6)]],
    constant uint& key_total           [[buffer(7)]],
    constant uint& num_v_heads         [[buffer(8)]],
    uint head [[threadgroup_position_in_grid]],
    uint vi   [[thread_position_in_threadgroup]])
{
    const uint values = num_v_heads * GDN_DIM;
    const uint stride = 2 * key_total + values;
    const uint qk_col = (head / k_heads_per_v) * GDN_DIM;
    device float* srow = state + (head * GDN_DIM + vi) * GDN_DIM;

    float s[GDN_DIM];
    for (uint j = 0; j < GDN_DIM; ++j) {
        s[j] = srow[j];
    }
    for (uint t = 0; t < n_tokens; ++t) {
        device const float* tok = conv_out + t * stride;
        device const float* q = tok + qk_col;
        device const float* k = tok + key_total + qk_col;
        const float g = g_decay[t * num_v_heads + head];
        const float beta = beta_gate[t * num_v_heads + head];

        float sk = 0.0f;
        for (uint j = 0; j < GDN_DIM; ++j) {
            s[j] *= g;
            sk = fma(s[j], k[j], sk);
        }
        const float delta = (tok[2 * key_total + head * GDN_DIM + vi] - sk) * beta;
        float y = 0.0f;
        for (uint j = 0; j < GDN_DIM; ++j) {
            s[j] = fma(k[j], delta, s[j]);
            y = fma(s[j], q[j], y);
        }
        output[t * values + head * GDN_DIM + vi] = y;
    }
    for (uint j = 0; j < GDN_DIM; ++j) {
        srow[j] = s[j];
    }
}

// NeoX half-split RoPE over [n_tokens, num_heads, head_dim]: channel i is
// rotated with channel i + rotary_dim/2 by angle (start_pos + t) * inv_freq[i];
// channels >= rotary_dim pass through. One thread per rotation, any grid that
// covers n_tokens * num_heads * rotary_dim/2 threads.
kernel void rope_n_tokens(
    device float*       x         [[buffer(0)]],
    device const float* inv_freq  [[buffer(1)]],
    constant uint& n_tokens       [[buffer(2)]],
    constant uint& num_heads      [[buffer(3)]],
    constant uint& head_dim       [[buffer(4)]],
    constant uint& rotary_dim     [[buffer(5)]],
    constant int&  start_pos      [[buffer(6)]],
    uint tid [[thread_position_in_grid]])
{
    const uint half_rot = rotary_dim / 2;
    const uint per_token = num_heads * half_rot;
    if (tid >= n_tokens * per_token) {
        return;
    }
    const uint token = tid / per_token;
    const uint rest = tid - token * per_token;
    const uint head = rest / half_rot;
    const uint i = rest - head * half_rot;

    // Positions reach the 1e5 range: the argument needs the precise variants.
    const float angle = float(start_pos + int(token)) * inv_freq[i];
    const float c = precise::cos(angle);
    const float sn = precise::sin(angle);
    device float* v = x + (token * num_heads + head) * head_dim + i;
    const float a = v[0];
    const float b = v[half_rot];
    v[0] = a * c - b * sn;
    v[half_rot] = a * sn + b * c;
}
