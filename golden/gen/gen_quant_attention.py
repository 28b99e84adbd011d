"""Golden cases for the attention / linear-attention / RoPE / MLA kernels of
moe_quant_shaders.metal (corpus):

  attn_scores_batched, attn_softmax_batched, attn_values_batched,
  gated_delta_net_step, gated_delta_net_chunkwise, gated_delta_net_sequential,
  conv1d_step, conv1d_state_update, yarn_rope_apply, mla_q_prime_4bit,
  mla_out_per_head_4bit, mla_sdpa_folded, mla_sdpa_tile_accumulate,
  mla_sdpa_tile_finalize, mla_split_q_kv, mla_kv_cache_append, rope_n_tokens,
  kv_cache_append_n_tokens.

References are float64 NumPy written from the documented math (standard softmax
attention; the per-token gated-delta-net recurrence for all three GDN kernels;
NeoX half-split RoPE; MLX affine 4-bit dequantisation w = q*scale + bias).
Tolerances are first-order float32 error bounds on each case's own data times
SAFETY (4); every note says which ingredients go in.  Precise-math accuracy
(precise::sin/cos/exp/log) is taken as <= 4 ulp, fast-math exp as
3 + floor(|2x|) ulp and fast-math division as 2.5 ulp (MSL accuracy tables).
"""
import math

import numpy as np

from common import (U, SAFETY, Case, f32, u32, bf16_round, rng_for, reset_kernel_dir, round_up_2sig,
                    tol_from_bound, fast_exp_rel_err)

KERNELS = ["attn_scores_batched", "attn_softmax_batched", "attn_values_batched",
           "gated_delta_net_step", "gated_delta_net_chunkwise", "gated_delta_net_sequential",
           "conv1d_step", "conv1d_state_update", "yarn_rope_apply", "mla_q_prime_4bit",
           "mla_out_per_head_4bit", "mla_sdpa_folded", "mla_sdpa_tile_accumulate",
           "mla_sdpa_tile_finalize", "mla_split_q_kv", "mla_kv_cache_append", "rope_n_tokens",
           "kv_cache_append_n_tokens"]

PRECISE_ULP = 4.0          # precise::{sin,cos,exp,log}: <= 4 ulp; one ulp <= 2U relative
FAST_DIV = 5.0 * U         # fast-math division: 2.5 ulp


def i32(a):
    return np.ascontiguousarray(np.asarray(a, dtype=np.int32))


def dot_err(n, absdot):
    """Any-order float32 dot product of n terms (with or without FMA): (n+1)U*sum|terms|."""
    return (n + 1) * U * absdot


def sentinel(rng, shape):
    """Values no kernel output can take (|x| in [100, 200]): a stray write is visible."""
    return f32(rng.uniform(100.0, 200.0, size=shape) * rng.choice([-1.0, 1.0], size=shape))


def tg_cover(n, tg):
    return (n + tg - 1) // tg


# ── attention (attn_scores / attn_softmax / attn_values) ────────────────────
def attn_scores(case, desc, num_heads, heads_per_kv, head_dim, seq_len, seq_stride, tg, extra_pos=0):
    kname = "attn_scores_batched"
    rng = rng_for(kname, case)
    n_kv = num_heads // heads_per_kv
    kv_dim = n_kv * head_dim
    max_seq = seq_stride
    num_seq_tgs = seq_len + extra_pos
    scale = float(np.float32(1.0 / math.sqrt(head_dim)))
    Q = f32(rng.normal(0.0, 1.0, size=(num_heads, head_dim)))
    K = f32(rng.normal(0.0, 1.0, size=(max_seq, kv_dim)))
    init = sentinel(rng, (num_heads, seq_stride))
    exp = init.astype(np.float64).copy()
    bound = np.zeros_like(exp)
    Qd, Kd = Q.astype(np.float64), K.astype(np.float64)
    for h in range(num_heads):
        kh = h // heads_per_kv
        Kh = Kd[:seq_len, kh * head_dim:(kh + 1) * head_dim]
        exp[h, :seq_len] = (Kh @ Qd[h]) * scale
        bound[h, :seq_len] = dot_err(head_dim, np.abs(Kh) @ np.abs(Qd[h])) * scale + U * np.abs(exp[h, :seq_len])
    atol, rtol = tol_from_bound(exp, bound, U)
    c = Case(kname, case, desc)
    c.threadgroups([num_seq_tgs * num_heads, 1, 1], [tg, 1, 1])
    c.read(0, "Q", Q)
    c.read(1, "K_cache", K)
    c.read_write(2, "scores", init, f32(exp), atol, rtol,
                 "scores = (q.k)*scale: any-order float32 dot of head_dim=%d terms, (n+1)U*sum|q_d k_d|*scale, "
                 "plus U for the scale product; cancellation -> atol (max over elements), x%g. Columns "
                 ">= seq_len keep their sentinel values (|x| >= 100) exactly: the kernel must not write them"
                 % (head_dim, SAFETY))
    c.read(3, "head_dim", u32([head_dim]))
    c.read(4, "kv_dim", u32([kv_dim]))
    c.read(5, "seq_len", u32([seq_len]))
    c.read(6, "seq_stride", u32([seq_stride]))
    c.read(7, "scale", f32([scale]))
    c.read(8, "heads_per_kv", u32([heads_per_kv]))
    c.read(9, "num_seq_tgs", u32([num_seq_tgs]))
    c.save()


def softmax_ref(s):
    """softmax of float64 scores s plus the per-element relative error bound of the
    fast-math kernel: exp(x_i) with x_i = s_i - max (subtraction U|x_i|, fast exp
    3+floor(2|x|) ulp), the sum of n positive terms (nU + the worst exp error),
    1/sum (fast division 2.5 ulp) and the final product (U)."""
    m = s.max()
    x = s - m
    e = np.exp(x)
    p = e / e.sum()
    rel_e = np.array([fast_exp_rel_err(abs(v)) for v in x]) + U * np.abs(x)
    rel_sum = float((rel_e * p).sum()) + s.size * U
    return p, rel_e, rel_sum + FAST_DIV + U


def attn_softmax(case, desc, num_heads, seq_len, seq_stride, tg, sigma=2.0):
    kname = "attn_softmax_batched"
    rng = rng_for(kname, case)
    s = f32(rng.normal(0.0, sigma, size=(num_heads, seq_len)))
    init = sentinel(rng, (num_heads, seq_stride))
    init[:, :seq_len] = s
    exp = init.astype(np.float64).copy()
    bound = np.zeros_like(exp)
    rel_common = 0.0
    for h in range(num_heads):
        p, rel_e, rel_rest = softmax_ref(s[h].astype(np.float64))
        exp[h, :seq_len] = p
        bound[h, :seq_len] = p * (rel_e + rel_rest)
        rel_common = max(rel_common, rel_rest + fast_exp_rel_err(0.5))
    atol, rtol = tol_from_bound(exp, bound, rel_common)
    c = Case(kname, case, desc)
    c.threadgroups([num_heads, 1, 1], [tg, 1, 1])
    c.read_write(0, "scores", init, f32(exp), atol, rtol,
                 "p_i = exp(x_i)/sum, x_i = s_i - max: per element relative error = fast-math exp "
                 "(3+floor(2|x_i|) ulp, 1 ulp <= 2U) + U|x_i| (the subtraction) + the sum's relative error "
                 "(seq_len*U plus the p-weighted exp errors) + fast-math 1/sum (2.5 ulp) + U; the common "
                 "part -> rtol, the |x|-dependent exp part of small p_i -> atol; x%g. Columns >= seq_len "
                 "keep their sentinel values exactly" % SAFETY)
    c.read(1, "seq_len", u32([seq_len]))
    c.read(2, "seq_stride", u32([seq_stride]))
    c.save()


def attn_values(case, desc, num_heads, heads_per_kv, head_dim, seq_len, seq_stride, tg, exact_grid=True):
    kname = "attn_values_batched"
    rng = rng_for(kname, case)
    n_kv = num_heads // heads_per_kv
    kv_dim = n_kv * head_dim
    sc = np.zeros((num_heads, seq_stride), dtype=np.float32)
    for h in range(num_heads):
        l = rng.normal(0.0, 2.0, size=seq_len)
        p = np.exp(l - l.max())
        sc[h, :seq_len] = p / p.sum()
    # Columns >= seq_len hold garbage the kernel must ignore.
    sc[:, seq_len:] = sentinel(rng, (num_heads, seq_stride - seq_len))
    V = f32(rng.normal(0.0, 1.0, size=(seq_stride, kv_dim)))
    scd, Vd = sc.astype(np.float64), V.astype(np.float64)
    out = np.zeros((num_heads, head_dim))
    bound = np.zeros_like(out)
    for h in range(num_heads):
        kh = h // heads_per_kv
        Vh = Vd[:seq_len, kh * head_dim:(kh + 1) * head_dim]
        out[h] = scd[h, :seq_len] @ Vh
        bound[h] = dot_err(seq_len, np.abs(scd[h, :seq_len]) @ np.abs(Vh))
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc)
    total = num_heads * head_dim
    # No guard on tid: the grid must be exactly num_heads*head_dim threads.
    if total % tg == 0:
        c.threadgroups([total // tg, 1, 1], [tg, 1, 1])
    else:
        c.threads([total, 1, 1], [tg, 1, 1])
    c.read(0, "scores", sc)
    c.read(1, "V_cache", V)
    c.write(2, "out", f32(out), atol, rtol,
            "out = sum_p s_p*V[p]: float32 dot of seq_len=%d terms, (n+1)U*sum|s_p V_p| (any order, FMA or "
            "not); cancellation -> atol (max over elements), x%g" % (seq_len, SAFETY))
    c.read(3, "head_dim", u32([head_dim]))
    c.read(4, "kv_dim", u32([kv_dim]))
    c.read(5, "seq_len", u32([seq_len]))
    c.read(6, "seq_stride", u32([seq_stride]))
    c.read(7, "heads_per_kv", u32([heads_per_kv]))
    c.save()


# ── gated delta net ──────────────────────────────────────────────────────────
D = 128     # head dimension (hard-coded 128 in all three kernels)


def gdn_data(rng, n_tokens, num_k_heads, k_heads_per_v, g_range, state_sigma):
    """conv_out rows = q | k | v per token; k unit-norm per head (as after the
    model's l2-norm), q of norm 1/sqrt(128)-ish, v ~ N(0,1), beta in (0,1)."""
    nv = num_k_heads * k_heads_per_v
    key_total = num_k_heads * D
    q = rng.normal(0.0, 1.0, size=(n_tokens, num_k_heads, D))
    q /= np.linalg.norm(q, axis=2, keepdims=True) * math.sqrt(D) / 2.0
    k = rng.normal(0.0, 1.0, size=(n_tokens, num_k_heads, D))
    k /= np.linalg.norm(k, axis=2, keepdims=True)
    v = rng.normal(0.0, 1.0, size=(n_tokens, nv * D))
    conv = f32(np.concatenate([q.reshape(n_tokens, key_total), k.reshape(n_tokens, key_total), v], axis=1))
    g = f32(rng.uniform(g_range[0], g_range[1], size=(n_tokens, nv)))
    beta = f32(rng.uniform(0.05, 0.95, size=(n_tokens, nv)))
    state = f32(rng.normal(0.0, state_sigma, size=(nv, D, D))) if state_sigma > 0 else np.zeros((nv, D, D),
                                                                                              np.float32)
    return conv, g, beta, state, key_total, nv


def gdn_split(conv, g, beta, key_total, nv, kh_per_v, h):
    cd = conv.astype(np.float64)
    kh = h // kh_per_v
    Q = cd[:, kh * D:(kh + 1) * D]
    K = cd[:, key_total + kh * D:key_total + (kh + 1) * D]
    V = cd[:, 2 * key_total + h * D:2 * key_total + (h + 1) * D]
    return Q, K, V, g[:, h].astype(np.float64), beta[:, h].astype(np.float64)


def gdn_recurrence(S0, Q, K, V, g, b):
    """The documented per-token recurrence for one v-head (rows = vi), float64,
    with a first-order float32 error bound of the per-token kernels.

    The exact map of one token on a state row s is s -> g s (I - b k k^T) + b v k^T;
    ||I - b k k^T||_2 = max(1, |1 - b|k|^2|), so a state error E (2-norm per row)
    propagates as g*c_t*E and the local roundings are added in 2-norm."""
    S = S0.copy()
    n = Q.shape[0]
    E = np.zeros(D)
    Y = np.zeros((n, D))
    eY = np.zeros((n, D))
    rn = lambda M: np.sqrt((M * M).sum(axis=1))  # noqa: E731
    for t in range(n):
        k, q = K[t], Q[t]
        ct = max(1.0, abs(1.0 - b[t] * float(k @ k)))
        S1 = g[t] * S
        kv = S1 @ k
        e_kv = dot_err(D, np.abs(S1) @ np.abs(k))
        dl = (V[t] - kv) * b[t]
        e_dl = b[t] * (e_kv + U * np.abs(V[t] - kv)) + U * np.abs(dl)
        S2 = S1 + np.outer(dl, k)
        kn = float(np.linalg.norm(k))
        loc = ct * U * rn(S1) + kn * e_dl + U * np.abs(dl) * kn + U * rn(S2)
        E = g[t] * ct * E + loc
        Y[t] = S2 @ q
        eY[t] = float(np.linalg.norm(q)) * E + dot_err(D, np.abs(S2) @ np.abs(q))
        S = S2
    return S, Y, eY, E


CW = 16


def gdn_chunkwise_bound(S0, Q, K, V, g, b):
    """First-order float32 error bound of the chunkwise kernel (chunks of 16),
    computed from the exact float64 intermediates of its formulation:
      L_l = cumsum log g (precise::log 4 ulp + the running sum), Gamma = exp(L_l - L_i)
      (precise::exp 4 ulp), A = b Gamma (k.k) strictly lower, kqg = Gamma (k.q),
      B = b v - b gamma (S0.k), (I+A) U = B (forward substitution: componentwise
      |(I+A)^-1| (c U |I+A||U| + dA |U| + dB)), out = gamma (S0.q) + kqg U,
      S_C = gamma_last S0 + sum_i Gamma_{last,i} U_i k_i^T.
    Dot products use (n+1)U*sum|terms| (any order).  The state error carried
    between chunks propagates through the exact chunk map (a product of
    g (I - b k k^T) factors, 2-norm <= prod g*c_t), as in gdn_recurrence.
    Returns (S_final, Y, eY, E_final) with Y the float64 chunk-formula outputs."""
    n = Q.shape[0]
    S = S0.copy()
    E = np.zeros(D)
    Y = np.zeros((n, D))
    eY = np.zeros((n, D))
    rn = lambda M: np.sqrt((M * M).sum(axis=1))  # noqa: E731
    for c0 in range(0, n, CW):
        c = min(CW, n - c0)
        Kc, Qc, Vc, gc, bc = K[c0:c0 + c], Q[c0:c0 + c], V[c0:c0 + c], g[c0:c0 + c], b[c0:c0 + c]
        lg = np.log(gc)
        L = np.cumsum(lg)
        eL = np.cumsum(2 * PRECISE_ULP * U * np.abs(lg)) + U * np.cumsum(np.abs(L))
        lower = np.tril(np.ones((c, c)), -1)
        incl = np.tril(np.ones((c, c)))
        Gm = np.exp(L[:, None] - L[None, :]) * incl
        eG = (eL[:, None] + eL[None, :] + U * np.abs(L[:, None] - L[None, :]) + 2 * PRECISE_ULP * U) * lower
        gam = np.exp(L)
        egam = eL + 2 * PRECISE_ULP * U
        KK = Kc @ Kc.T
        A = (bc[:, None] * Gm * KK) * lower
        eA = (bc[:, None] * Gm * dot_err(D, np.abs(Kc) @ np.abs(Kc).T) + np.abs(A) * (eG + 2 * U)) * lower
        kqg = (Gm * (Qc @ Kc.T)) * incl
        ekqg = (Gm * dot_err(D, np.abs(Qc) @ np.abs(Kc).T) + np.abs(kqg) * (eG + U)) * incl
        s0k = (S @ Kc.T).T                                  # [c, vi]
        es0k = dot_err(D, (np.abs(S) @ np.abs(Kc).T).T)
        bg = (bc * gam)[:, None]
        B = bc[:, None] * Vc - bg * s0k
        eB = bg * es0k + np.abs(bg * s0k) * (egam[:, None] + 2 * U) + U * np.abs(bc[:, None] * Vc) + U * np.abs(B)
        M = np.eye(c) + A
        Uc = np.linalg.solve(M, B)
        Minv = np.abs(np.linalg.inv(M))
        aU = np.abs(Uc)
        eU = Minv @ (eB + eA @ aU + c * U * (aU + np.abs(A) @ aU))
        s0q = (S @ Qc.T).T
        es0q = dot_err(D, (np.abs(S) @ np.abs(Qc).T).T)
        Yc = gam[:, None] * s0q + kqg @ Uc
        eYc = (gam[:, None] * es0q + np.abs(gam[:, None] * s0q) * (egam[:, None] + U) + np.abs(kqg) @ eU
               + ekqg @ aU + (CW + 2) * U * (np.abs(gam[:, None] * s0q) + np.abs(kqg) @ aU))
        # Carried state error: out_l depends on S0 through S0 . (Phi_0 ... Phi_l q_l).
        for l in range(c):
            w = Qc[l].copy()
            for t in range(l, -1, -1):
                w = gc[t] * (w - bc[t] * Kc[t] * float(Kc[t] @ w))
            eYc[l] += E * float(np.linalg.norm(w))
        Y[c0:c0 + c] = Yc
        eY[c0:c0 + c] = eYc
        last = c - 1
        R = Gm[last][:, None] * Uc                          # [c, vi]
        eR = Gm[last][:, None] * eU + np.abs(R) * (eG[last][:, None] + U)
        SC = gam[last] * S + R.T @ Kc
        eSC = (np.abs(S) * gam[last] * (egam[last] + U) + eR.T @ np.abs(Kc) + (CW + 1) * U * (np.abs(R).T @ np.abs(Kc))
               + U * np.abs(SC))
        phi = float(np.prod([gc[t] * max(1.0, abs(1.0 - bc[t] * float(Kc[t] @ Kc[t]))) for t in range(c)]))
        E = phi * E + rn(eSC)
        S = SC
    return S, Y, eY, E


def gdn_case(kname, case, desc, n_tokens, num_k_heads, k_heads_per_v, g_range=(0.8, 1.0), state_sigma=0.05):
    rng = rng_for(kname, case)
    conv, g, beta, state, key_total, nv = gdn_data(rng, n_tokens, num_k_heads, k_heads_per_v, g_range,
                                                   state_sigma)
    value_total = nv * D
    out = np.zeros((n_tokens, value_total))
    eout = np.zeros_like(out)
    st = np.zeros((nv, D, D))
    est = np.zeros((nv, D))
    for h in range(nv):
        Q, K, V, gh, bh = gdn_split(conv, g, beta, key_total, nv, k_heads_per_v, h)
        S0 = state[h].astype(np.float64)
        S, Y, eY, E = gdn_recurrence(S0, Q, K, V, gh, bh)
        if kname == "gated_delta_net_chunkwise":
            S2, Y2, eY, E = gdn_chunkwise_bound(S0, Q, K, V, gh, bh)
            # The chunk formulation is algebraically the recurrence.
            assert np.allclose(S2, S, rtol=0, atol=1e-9) and np.allclose(Y2, Y, rtol=0, atol=1e-9)
        out[:, h * D:(h + 1) * D] = Y
        eout[:, h * D:(h + 1) * D] = eY
        st[h] = S
        est[h] = E
    oatol, ortol = tol_from_bound(out, eout, U)
    satol, srtol = tol_from_bound(st, np.broadcast_to(est[:, :, None], st.shape), U)
    if kname == "gated_delta_net_chunkwise":
        how = ("bound of the CHUNKWISE formulation (chunks of 16) against the exact recurrence: log-decay "
               "cumsum (precise::log 4 ulp + running-sum roundings), Gamma = exp(L_l - L_i) (precise::exp "
               "4 ulp + the L errors), the 128-term k.k / k.q / S0.k / S0.q dot products ((n+1)U*sum|terms|), "
               "the forward substitution (I+A)U = B bounded componentwise with |(I+A)^-1| (its backward error "
               "cU|I+A||U| plus the errors of A and B), the 16-term kqg.U and RU^T.k contractions, and the "
               "state carried between chunks through the exact chunk map (2-norm <= prod g*max(1,|1-b|k|^2|)"
               " <= 1 here); this is the reordering error of the chunked algorithm, data-dependent, first "
               "order")
    else:
        how = ("bound of the per-token recurrence: decay (U), the 128-term dot products s.k and s.q "
               "((n+1)U*sum|terms|, any order, FMA or not), delta = (v - s.k)*beta (2U), the rank-1 "
               "update (2U); a state-row error propagates through the exact token map g(I - b k k^T), whose "
               "2-norm is <= g*max(1,|1-b|k|^2|) <= 1 here, so the state error is tracked as a per-row "
               "2-norm that grows by the local roundings only")
    c = Case(kname, case, desc)
    if kname == "gated_delta_net_sequential":
        c.threadgroups([D // 4, nv, 1], [32, 4, 1])
    else:
        c.threadgroups([nv, 1, 1], [D, 1, 1])
    c.read_write(0, "state", state, f32(st), satol, srtol,
                 "final state S; per element <= the row's 2-norm error bound; " + how + "; max over rows, x%g"
                 % SAFETY)
    c.read(1, "conv_out", conv)
    c.read(2, "g_decay", g)
    c.read(3, "beta_gate", beta)
    c.write(4, "output", f32(out), oatol, ortol,
            "y_t = S_t . q_t: |q_t|_2 * (state-row error bound) + (n+1)U*sum|S q| for the dot; " + how +
            "; cancellation -> atol, max over elements, x%g" % SAFETY)
    c.read(5, "k_heads_per_v", u32([k_heads_per_v]))
    c.read(6, "n_tokens", u32([n_tokens]))
    c.read(7, "key_total", u32([key_total]))
    c.read(8, "num_v_heads", u32([nv]))
    c.save()


# ── conv1d ───────────────────────────────────────────────────────────────────
def conv1d_step(case, desc, conv_dim, n_tokens):
    kname = "conv1d_step"
    rng = rng_for(kname, case)
    state = f32(rng.normal(0.0, 1.0, size=(3, conv_dim)))
    inp = f32(rng.normal(0.0, 1.0, size=(n_tokens, conv_dim)))
    wbits, w = bf16_round(f32(rng.normal(0.0, 0.5, size=(conv_dim, 4))))
    virt = np.concatenate([state.astype(np.float64), inp.astype(np.float64)], axis=0)
    acc = np.zeros((n_tokens, conv_dim))
    aabs = np.zeros_like(acc)
    for j in range(4):
        acc += virt[j:j + n_tokens] * w[:, j][None, :]
        aabs += np.abs(virt[j:j + n_tokens] * w[:, j][None, :])
    sig = 1.0 / (1.0 + np.exp(-acc))
    out = acc * sig
    e_acc = dot_err(4, aabs)
    dsilu = np.abs(sig * (1.0 + acc * (1.0 - sig)))
    e_exp = np.vectorize(fast_exp_rel_err)(np.abs(acc)) + U * np.abs(acc)
    bound = dsilu * e_acc + np.abs(out) * (1.0 - sig) * e_exp + (FAST_DIV + 2 * U) * np.abs(out)
    atol, rtol = tol_from_bound(out, bound, FAST_DIV + 2 * U)
    c = Case(kname, case, desc)
    c.threadgroups([tg_cover(conv_dim, 256), n_tokens, 1], [256, 1, 1])
    c.read(0, "conv_state", state)
    c.read(1, "input", inp)
    c.read(2, "weights", wbits)
    c.write(3, "output", f32(out), atol, rtol,
            "acc = 4-term dot (5U*sum|terms|) propagated through SiLU' (|sig(1 + a(1-sig))|); SiLU = "
            "a/(1+exp(-a)) with fast-math exp (3+floor(2|a|) ulp, weighted by 1-sig) and fast division "
            "(2.5 ulp) + add; per element, cancellation in acc -> atol, x%g" % SAFETY)
    c.read(4, "conv_dim", u32([conv_dim]))
    c.save()


def conv1d_state_update(case, desc, conv_dim, n_tokens):
    kname = "conv1d_state_update"
    rng = rng_for(kname, case)
    state = f32(rng.normal(0.0, 1.0, size=(3, conv_dim)))
    inp = f32(rng.normal(0.0, 1.0, size=(max(n_tokens, 1), conv_dim)))
    virt = np.concatenate([state, inp[:n_tokens]], axis=0)
    new = f32(virt[n_tokens:n_tokens + 3])
    c = Case(kname, case, desc)
    c.threadgroups([tg_cover(conv_dim, 256), 1, 1], [256, 1, 1])
    c.read_write(0, "conv_state", state, new, 0.0, 0.0,
                 "pure copy of float32 values (new state = last 3 rows of [state; input]): exact")
    c.read(1, "input", inp)
    c.read(2, "conv_dim", u32([conv_dim]))
    c.read(3, "n_tokens", u32([n_tokens]))
    c.save()


# ── RoPE ─────────────────────────────────────────────────────────────────────
ROPE_NOTE = ("angle = fl32(pos*inv_freq[i]) is one IEEE-rounded float32 product; the reference evaluates "
             "cos/sin of exactly that float32 angle (the kernel's documented computation), so the only "
             "approximations are precise::cos/sin (<= 4 ulp of the result: 8U|cos|), %sthe two products and "
             "the add/sub (3U of the terms); per element, cancellation -> atol, x%g. Fast-math cos/sin or an "
             "angle computed in another precision would miss by orders of magnitude at these positions")


def rope_rotate(x0, x1, ang, mscale):
    """NeoX rotation of float64 pairs with the float32 angle; returns outputs and bounds."""
    ca, sa = np.cos(ang) * mscale, np.sin(ang) * mscale
    y0 = x0 * ca - x1 * sa
    y1 = x0 * sa + x1 * ca
    ext = 0.0 if mscale == 1.0 else 1.0     # the mscale product (exact when mscale == 1)
    rc = (2 * PRECISE_ULP + ext) * U * np.abs(ca)
    rs = (2 * PRECISE_ULP + ext) * U * np.abs(sa)
    b0 = np.abs(x0) * rc + np.abs(x1) * rs + 3 * U * (np.abs(x0 * ca) + np.abs(x1 * sa))
    b1 = np.abs(x0) * rs + np.abs(x1) * rc + 3 * U * (np.abs(x0 * sa) + np.abs(x1 * ca))
    return y0, y1, b0, b1


def yarn_inv_freq(rotary_dim, base=10000.0, factor=40.0, orig_max=4096, beta_fast=32, beta_slow=1):
    """DeepSeek-V3 YaRN inverse-frequency table (float64, rounded to float32)."""
    half = rotary_dim // 2
    pos_freq = base ** (np.arange(0, rotary_dim, 2) / rotary_dim)
    extra, inter = 1.0 / pos_freq, 1.0 / (factor * pos_freq)

    def corr(nrot):
        return rotary_dim * math.log(orig_max / (nrot * 2 * math.pi)) / (2 * math.log(base))
    lo, hi = max(math.floor(corr(beta_fast)), 0), min(math.ceil(corr(beta_slow)), rotary_dim - 1)
    ramp = np.clip((np.arange(half) - lo) / max(hi - lo, 1e-3), 0, 1)
    mask = 1.0 - ramp
    return f32(inter * (1 - mask) + extra * mask)


def yarn_rope(case, desc, num_heads, rotary_dim, pos, mscale, extra=(0, 0)):
    kname = "yarn_rope_apply"
    rng = rng_for(kname, case)
    half = rotary_dim // 2
    inv = yarn_inv_freq(rotary_dim)
    x = f32(rng.normal(0.0, 1.0, size=(num_heads, rotary_dim)))
    pos_f = float(np.float32(pos))
    mscale = float(np.float32(mscale))
    ang = (np.float32(pos_f) * inv).astype(np.float64)          # float32 product, exactly as the kernel
    xd = x.astype(np.float64)
    y0, y1, b0, b1 = rope_rotate(xd[:, :half], xd[:, half:], ang[None, :], mscale)
    out = np.concatenate([y0, y1], axis=1)
    bound = np.concatenate([b0, b1], axis=1)
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc)
    c.threadgroups([num_heads + extra[0], half + extra[1], 1], [1, 1, 1])
    c.read_write(0, "x", x, f32(out), atol, rtol, ROPE_NOTE % ("the mscale product (U), ", SAFETY))
    c.read(1, "inv_freq", inv)
    c.read(2, "num_heads", u32([num_heads]))
    c.read(3, "rotary_dim", u32([rotary_dim]))
    c.read(4, "pos_f", f32([pos_f]))
    c.read(5, "mscale", f32([mscale]))
    c.save()


def rope_n_tokens(case, desc, n_tokens, num_heads, head_dim, rotary_dim, start_pos, theta=1e7, extra_tg=0):
    kname = "rope_n_tokens"
    rng = rng_for(kname, case)
    half = rotary_dim // 2
    inv = f32(1.0 / theta ** (np.arange(0, rotary_dim, 2) / rotary_dim))
    x = f32(rng.normal(0.0, 1.0, size=(n_tokens, num_heads, head_dim)))
    pos = (start_pos + np.arange(n_tokens)).astype(np.float32)
    assert start_pos + n_tokens < 2 ** 24
    ang = (pos[:, None] * inv[None, :]).astype(np.float64)[:, None, :]    # [t, 1, half], float32 products
    xd = x.astype(np.float64)
    out = xd.copy()
    bound = np.zeros_like(xd)
    y0, y1, b0, b1 = rope_rotate(xd[:, :, :half], xd[:, :, half:rotary_dim], ang, 1.0)
    out[:, :, :half], out[:, :, half:rotary_dim] = y0, y1
    bound[:, :, :half], bound[:, :, half:rotary_dim] = b0, b1
    atol, rtol = tol_from_bound(out, bound, U)
    if rotary_dim < head_dim:
        # Pass-through channels must be bit-identical: their bound is 0, but atol
        # is shared; keep the note honest about it.
        part = " Channels [rotary_dim, head_dim) must stay untouched (their values pass through)."
    else:
        part = ""
    c = Case(kname, case, desc)
    total = n_tokens * num_heads * half
    c.threadgroups([tg_cover(total, 256) + extra_tg, 1, 1], [256, 1, 1])
    c.read_write(0, "x", x, f32(out), atol, rtol, ROPE_NOTE % ("", SAFETY) + "." + part)
    c.read(1, "inv_freq", inv)
    c.read(2, "n_tokens", u32([n_tokens]))
    c.read(3, "num_heads", u32([num_heads]))
    c.read(4, "head_dim", u32([head_dim]))
    c.read(5, "rotary_dim", u32([rotary_dim]))
    c.read(6, "start_pos", i32([start_pos]))
    c.save()


# ── copies ───────────────────────────────────────────────────────────────────
COPY_NOTE = "pure copy of float32 values: exact; rows outside the written window keep their sentinel values"


def kv_cache_append(case, desc, kv_dim, n_tokens, kv_start, max_seq, extra_tg=0):
    kname = "kv_cache_append_n_tokens"
    rng = rng_for(kname, case)
    ks = f32(rng.normal(0.0, 1.0, size=(n_tokens, kv_dim)))
    vs = f32(rng.normal(0.0, 1.0, size=(n_tokens, kv_dim)))
    kc = sentinel(rng, (max_seq, kv_dim))
    vc = sentinel(rng, (max_seq, kv_dim))
    ke, ve = kc.copy(), vc.copy()
    ke[kv_start:kv_start + n_tokens] = ks
    ve[kv_start:kv_start + n_tokens] = vs
    c = Case(kname, case, desc)
    c.threadgroups([tg_cover(n_tokens * kv_dim, 256) + extra_tg, 1, 1], [256, 1, 1])
    c.read(0, "k_src", ks)
    c.read(1, "v_src", vs)
    c.read_write(2, "k_cache", kc, ke, 0.0, 0.0, COPY_NOTE)
    c.read_write(3, "v_cache", vc, ve, 0.0, 0.0, COPY_NOTE)
    c.read(4, "kv_dim", u32([kv_dim]))
    c.read(5, "n_tokens", u32([n_tokens]))
    c.read(6, "kv_start", u32([kv_start]))
    c.save()


def mla_split(case, desc, num_heads, qk_nope, qk_rope, kv_lora_rank, extra_tg=0):
    kname = "mla_split_q_kv"
    rng = rng_for(kname, case)
    qf = f32(rng.normal(0.0, 1.0, size=(num_heads, qk_nope + qk_rope)))
    kv = f32(rng.normal(0.0, 1.0, size=(kv_lora_rank + qk_rope,)))
    max_out = max(num_heads * qk_nope, num_heads * qk_rope, kv_lora_rank, qk_rope)
    c = Case(kname, case, desc)
    c.threadgroups([tg_cover(max_out, 256) + extra_tg, 1, 1], [256, 1, 1])
    c.read(0, "q_full", qf)
    c.read(1, "kv_pre", kv)
    c.write(2, "q_nope", f32(qf[:, :qk_nope]), 0.0, 0.0, "pure copy: exact")
    c.write(3, "q_pe", f32(qf[:, qk_nope:]), 0.0, 0.0, "pure copy: exact")
    c.write(4, "kv_lat", f32(kv[:kv_lora_rank]), 0.0, 0.0, "pure copy: exact")
    c.write(5, "k_pe", f32(kv[kv_lora_rank:]), 0.0, 0.0, "pure copy: exact")
    c.read(6, "num_heads", u32([num_heads]))
    c.read(7, "qk_nope", u32([qk_nope]))
    c.read(8, "qk_rope", u32([qk_rope]))
    c.read(9, "kv_lora_rank", u32([kv_lora_rank]))
    c.save()


def mla_kv_append(case, desc, kv_lora_rank, qk_rope, pos, max_cache):
    kname = "mla_kv_cache_append"
    rng = rng_for(kname, case)
    lat = f32(rng.normal(0.0, 1.0, size=kv_lora_rank))
    kpe = f32(rng.normal(0.0, 1.0, size=qk_rope))
    lc = sentinel(rng, (max_cache, kv_lora_rank))
    rc = sentinel(rng, (max_cache, qk_rope))
    le, re_ = lc.copy(), rc.copy()
    le[pos], re_[pos] = lat, kpe
    c = Case(kname, case, desc)
    c.threadgroups([tg_cover(max(kv_lora_rank, qk_rope), 256), 1, 1], [256, 1, 1])
    c.read(0, "kv_lat", lat)
    c.read(1, "k_pe", kpe)
    c.read_write(2, "latent_cache", lc, le, 0.0, 0.0, COPY_NOTE)
    c.read_write(3, "rope_k_cache", rc, re_, 0.0, 0.0, COPY_NOTE)
    c.read(4, "kv_lora_rank", u32([kv_lora_rank]))
    c.read(5, "qk_rope", u32([qk_rope]))
    c.read(6, "pos", i32([pos]))
    c.save()


# ── MLA 4-bit projections ────────────────────────────────────────────────────
def quant4(rng, rows, cols, group_size):
    """MLX affine 4-bit matrix: packed uint32 [rows, cols/8] (nibble k of word j =
    column 8j+k, low bits first), bf16 scale/bias [rows, cols/group_size]; returns
    (packed, scale bits, bias bits, dequantised float64 W)."""
    assert cols % 8 == 0 and cols % group_size == 0 and group_size % 8 == 0
    ng = cols // group_size
    nib = rng.integers(0, 16, size=(rows, cols)).astype(np.uint64)
    packed = np.zeros((rows, cols // 8), dtype=np.uint64)
    for k in range(8):
        packed |= nib[:, k::8] << np.uint64(4 * k)
    sbits, s = bf16_round(f32(rng.uniform(0.004, 0.03, size=(rows, ng))))
    bbits, bia = bf16_round(f32(-s * rng.uniform(6.5, 8.5, size=(rows, ng))))
    W = nib.astype(np.float64) * np.repeat(s, group_size, axis=1) + np.repeat(bia, group_size, axis=1)
    return u32(packed), sbits, bbits, W


QUANT_NOTE = ("w = nibble*scale + bias: nibble*scale is exact in float32 (4-bit x 8-bit significands), the "
              "add rounds once (U|w|); the %d-term dot adds (n+1)U*sum|x w| (any order, FMA or not): "
              "(n+2)U*sum|x_i w_i| per element; cancellation -> atol, x%g")


def mla_q_prime(case, desc, num_heads, nope, v_head_dim, kv_lora_rank, group_size, extra_tg=0):
    kname = "mla_q_prime_4bit"
    rng = rng_for(kname, case)
    kvb = nope + v_head_dim
    packed, sb, bb, W = quant4(rng, num_heads * kvb, kv_lora_rank, group_size)
    qn = f32(rng.normal(0.0, 1.0, size=(num_heads, nope)))
    qd = qn.astype(np.float64)
    out = np.zeros((num_heads, kv_lora_rank))
    bound = np.zeros_like(out)
    for h in range(num_heads):
        Wk = W[h * kvb:h * kvb + nope]
        out[h] = qd[h] @ Wk
        bound[h] = (nope + 2) * U * (np.abs(qd[h]) @ np.abs(Wk))
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc)
    c.threadgroups([tg_cover(num_heads * kv_lora_rank, 256) + extra_tg, 1, 1], [256, 1, 1])
    c.read(0, "W_packed", packed)
    c.read(1, "scales", sb)
    c.read(2, "biases", bb)
    c.read(3, "q_nope", qn)
    c.write(4, "q_prime", f32(out), atol, rtol, QUANT_NOTE % (nope, SAFETY))
    c.read(5, "num_heads", u32([num_heads]))
    c.read(6, "nope", u32([nope]))
    c.read(7, "kv_lora_rank", u32([kv_lora_rank]))
    c.read(8, "kv_b_per_head", u32([kvb]))
    c.read(9, "group_size", u32([group_size]))
    c.save()


def mla_out_per_head(case, desc, num_heads, nope, v_head_dim, kv_lora_rank, group_size, extra_tg=0):
    kname = "mla_out_per_head_4bit"
    rng = rng_for(kname, case)
    kvb = nope + v_head_dim
    packed, sb, bb, W = quant4(rng, num_heads * kvb, kv_lora_rank, group_size)
    vc = f32(rng.normal(0.0, 1.0, size=(num_heads, kv_lora_rank)))
    vd = vc.astype(np.float64)
    out = np.zeros((num_heads, v_head_dim))
    bound = np.zeros_like(out)
    for h in range(num_heads):
        Wv = W[h * kvb + nope:(h + 1) * kvb]
        out[h] = Wv @ vd[h]
        bound[h] = (kv_lora_rank + 2) * U * (np.abs(Wv) @ np.abs(vd[h]))
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc)
    # One 32-lane SIMD group per output element: num_heads*v_head_dim threadgroups
    # (the header's (total+31)/32 would leave most outputs unwritten).
    c.threadgroups([num_heads * v_head_dim + extra_tg, 1, 1], [32, 1, 1])
    c.read(0, "W_packed", packed)
    c.read(1, "scales", sb)
    c.read(2, "biases", bb)
    c.read(3, "v_combine", vc)
    c.write(4, "out_per_head", f32(out), atol, rtol, QUANT_NOTE % (kv_lora_rank, SAFETY))
    c.read(5, "num_heads", u32([num_heads]))
    c.read(6, "nope", u32([nope]))
    c.read(7, "kv_lora_rank", u32([kv_lora_rank]))
    c.read(8, "v_head_dim", u32([v_head_dim]))
    c.read(9, "kv_b_per_head", u32([kvb]))
    c.read(10, "group_size", u32([group_size]))
    c.save()


# ── MLA SDPA ─────────────────────────────────────────────────────────────────
def mla_inputs(rng, num_heads, lora, rope, cache_len):
    qp = f32(rng.normal(0.0, 0.3, size=(num_heads, lora)))
    qpe = f32(rng.normal(0.0, 1.0, size=(num_heads, rope)))
    lat = f32(rng.normal(0.0, 1.0, size=(cache_len, lora)))
    rk = f32(rng.normal(0.0, 1.0, size=(cache_len, rope)))
    return qp, qpe, lat, rk


def mla_scores(qp, qpe, lat, rk, scale, t0, t1):
    """Scaled scores [H, t1-t0] and their absolute float32 error bound: one
    (lora+rope)-term dot ((n+1)U*sum|terms|) times scale, plus U for the product."""
    qd, ped, ld, rd = (a.astype(np.float64) for a in (qp, qpe, lat, rk))
    s = (qd @ ld[t0:t1].T + ped @ rd[t0:t1].T) * scale
    n = qp.shape[1] + qpe.shape[1]
    # As for moe_gate's router logits (README): the rigorous (n+1)U bound of a
    # 576-term dot, fed into exp, would make the weights' tolerance ~10x looser
    # than any float32 execution can err; use the order-independent estimate
    # (2*sqrt(n)+3)U*sum|terms| for the score error instead.
    es = (2 * math.sqrt(n) + 3) * U * (np.abs(qd) @ np.abs(ld[t0:t1]).T + np.abs(ped) @ np.abs(rd[t0:t1]).T) * scale \
        + U * np.abs(s)
    return s, es


def exp_terms(x, ex):
    """exp(x) (x <= 0) with relative error: abs error ex of x, fast exp, U|x|."""
    rel = ex + np.vectorize(fast_exp_rel_err)(np.abs(x)) + U * np.abs(x)
    return np.exp(x), rel


SDPA_NOTE = ("scores: (lora+rope)-term dot, error estimate (2*sqrt(n)+3)U*sum|terms| (as moe_gate's logits; "
             "the rigorous (n+1)U bound is ~10x looser) * scale (+U); softmax weights e_t = "
             "exp(s_t - max) with the abs errors of s_t and of the max, U|x| for the subtraction and fast-math "
             "exp (3+floor(2|x|) ulp); ")


def mla_sdpa_folded(case, desc, num_heads, lora, rope, cache_len, extra_tg=0):
    kname = "mla_sdpa_folded"
    assert cache_len <= 32, "see README: larger cache_len exposes the simd_scratch[0] race"
    rng = rng_for(kname, case)
    qp, qpe, lat, rk = mla_inputs(rng, num_heads, lora, rope, cache_len)
    mscale = 0.1 * math.log(40.0) + 1.0
    scale = float(np.float32(mscale * mscale / math.sqrt(128 + rope)))
    s, es = mla_scores(qp, qpe, lat, rk, scale, 0, cache_len)
    out = np.zeros((num_heads, lora))
    bound = np.zeros_like(out)
    ld = lat.astype(np.float64)
    for h in range(num_heads):
        j = int(np.argmax(s[h]))
        e, rel = exp_terms(s[h] - s[h, j], es[h] + es[h, j])
        Z = e.sum()
        p = e / Z
        rel_z = float((rel * p).sum()) + cache_len * U
        rel_p = rel + rel_z + FAST_DIV + U
        out[h] = p @ ld
        bound[h] = (p * rel_p) @ np.abs(ld) + dot_err(cache_len, p @ np.abs(ld))
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc)
    c.threadgroups([num_heads + extra_tg, 1, 1], [128, 1, 1])
    c.read(0, "q_prime", qp)
    c.read(1, "q_pe", qpe)
    c.read(2, "latent_cache", lat)
    c.read(3, "rope_k_cache", rk)
    c.write(4, "v_combine", f32(out), atol, rtol,
            SDPA_NOTE + "p_t = e_t/sum (sum: cache_len*U + weighted exp errors; fast division 2.5 ulp; "
            "product U); v = sum_t p_t*latent_t: propagated sum|latent| p_t rel_t plus (n+1)U*sum|p latent|; "
            "cancellation -> atol, x%g" % SAFETY)
    c.read(5, "num_heads", u32([num_heads]))
    c.read(6, "kv_lora_rank", u32([lora]))
    c.read(7, "qk_rope_head_dim", u32([rope]))
    c.read(8, "cache_len", u32([cache_len]))
    c.read(9, "softmax_scale", f32([scale]))
    c.save()


def mla_tile_acc(case, desc, num_heads, lora, rope, cache_len, tile_start, tile_end, first, extra_tg=0):
    kname = "mla_sdpa_tile_accumulate"
    rng = rng_for(kname, case)
    qp, qpe, lat, rk = mla_inputs(rng, num_heads, lora, rope, cache_len)
    scale = float(np.float32(1.0 / math.sqrt(128 + rope)))
    ld = lat.astype(np.float64)
    rmax_in = f32(rng.normal(0.0, 1.0, size=num_heads))
    rden_in = f32(rng.uniform(1.0, 4.0, size=num_heads))
    vp_in = f32(rng.normal(0.0, 1.0, size=(num_heads, lora)))
    tile = tile_end - tile_start
    if not first and tile > 0:
        # A previous tile [0, tile_start) holding the overall maximum: plant a
        # clearly dominant score there so that new_max == prev_max (README:
        # the corpus kernel's running_max read/write race is then harmless).
        t_big = int(rng.integers(0, tile_start))
        lat[t_big] = f32(30.0 * (qp / np.linalg.norm(qp, axis=1, keepdims=True)).sum(axis=0))
        ld = lat.astype(np.float64)
        sp, esp = mla_scores(qp, qpe, lat, rk, scale, 0, tile_start)
        rmax_in = f32(sp.max(axis=1))
        pe = np.exp(sp - rmax_in.astype(np.float64)[:, None])
        rden_in = f32(pe.sum(axis=1))
        vp_in = f32(pe @ ld[:tile_start])
    max_o, den_o, vp_o = rmax_in.astype(np.float64), rden_in.astype(np.float64), vp_in.astype(np.float64)
    max_b = np.zeros(num_heads)
    den_b = np.zeros(num_heads)
    vp_b = np.zeros((num_heads, lora))
    den_rel = 0.0
    if tile > 0:
        s, es = mla_scores(qp, qpe, lat, rk, scale, tile_start, tile_end)
        max_o, den_o, vp_o = max_o.copy(), den_o.copy(), vp_o.copy()
        for h in range(num_heads):
            j = int(np.argmax(s[h]))
            tmax = s[h, j]
            pm = -np.inf if first else float(rmax_in[h])
            nm = max(pm, tmax)
            if not first:
                assert pm > tmax + 0.5, "merge cases keep the previous maximum dominant"
            # e_i = exp(s_i - tile_max) * exp(tile_max - new_max)
            e1, rel1 = exp_terms(s[h] - tmax, es[h] + es[h, j])
            y = tmax - nm
            sn = math.exp(y)
            rel_sn = es[h, j] + fast_exp_rel_err(abs(y)) + U * abs(y) if not first else 0.0
            w = e1 * sn
            rel_w = rel1 + rel_sn + 2 * U
            # scale_old = exp(prev_max - new_max): 0 for the first tile, exactly 1
            # when the previous max dominates; otherwise fast exp of an argument
            # carrying the tile max's error.
            so = 0.0 if first else math.exp(pm - nm)
            rel_so = 0.0 if (first or nm == pm) else es[h, j] + fast_exp_rel_err(abs(pm - nm)) + U * abs(pm - nm)
            max_o[h] = nm
            max_b[h] = es[h, j] if nm == tmax else 0.0
            pd = 0.0 if first else float(rden_in[h])
            den_o[h] = pd * so + w.sum()
            den_b[h] = (w * rel_w).sum() + pd * so * (rel_so + U) + (tile + 2) * U * (w.sum() + pd * so)
            den_rel = max(den_rel, den_b[h] / den_o[h])
            prev_v = 0.0 if first else vp_in[h].astype(np.float64)
            vp_o[h] = prev_v * so + sn * (e1 @ ld[tile_start:tile_end])
            vp_b[h] = ((w * rel_w) @ np.abs(ld[tile_start:tile_end]) + np.abs(prev_v) * so * (rel_so + U)
                       + (tile + 2) * U * (w @ np.abs(ld[tile_start:tile_end]) + np.abs(prev_v) * so))
    note_t = (SDPA_NOTE + "for a later tile also exp(tile_max - new_max) (fast exp) and the merge products; "
              "tile sums of tile_size terms ((n+2)U*sum|terms| incl. the merge add); x%g" % SAFETY)
    c = Case(kname, case, desc)
    c.threadgroups([num_heads + extra_tg, 1, 1], [128, 1, 1])
    c.read(0, "q_prime", qp)
    c.read(1, "q_pe", qpe)
    c.read(2, "latent_cache", lat)
    c.read(3, "rope_k_cache", rk)
    if tile == 0:
        z = "tile_size == 0: the kernel returns before touching any buffer; expected == initial, exactly"
        c.read_write(4, "running_max", rmax_in, rmax_in, 0.0, 0.0, z)
        c.read_write(5, "running_denom", rden_in, rden_in, 0.0, 0.0, z)
        c.read_write(6, "v_combine_partial", vp_in, vp_in, 0.0, 0.0, z)
    else:
        a, r = tol_from_bound(max_o, max_b, U)
        c.read_write(4, "running_max", rmax_in, f32(max_o), a, r,
                     ("first tile: tile max of the scores, abs error of the max score (dot estimate "
                      "(2*sqrt(n)+3)U*sum|terms|*scale + U), x%g" % SAFETY) if first else
                     "later tile whose max stays below the previous max: new_max = prev_max, a float32 "
                     "pass-through (exact up to the U floor)")
        a, r = tol_from_bound(den_o, den_b, den_rel)
        c.read_write(5, "running_denom", rden_in, f32(den_o), a, r,
                     "denom = prev*exp(prev_max-new_max) + sum_i e_i: " + note_t)
        a, r = tol_from_bound(vp_o, vp_b, U)
        c.read_write(6, "v_combine_partial", vp_in, f32(vp_o), a, r,
                     "V = prev_V*scale_old + sum_i e_i latent_i: propagated sum|latent| e_i rel_i; " + note_t)
    c.read(7, "num_heads", u32([num_heads]))
    c.read(8, "kv_lora_rank", u32([lora]))
    c.read(9, "qk_rope_head_dim", u32([rope]))
    c.read(10, "tile_start", u32([tile_start]))
    c.read(11, "tile_end", u32([tile_end]))
    c.read(12, "softmax_scale", f32([scale]))
    c.read(13, "is_first_tile", u32([1 if first else 0]))
    c.save()


def mla_tile_finalize(case, desc, num_heads, lora, zero_head=None, extra_tg=0):
    kname = "mla_sdpa_tile_finalize"
    rng = rng_for(kname, case)
    vp = f32(rng.normal(0.0, 3.0, size=(num_heads, lora)))
    den = f32(rng.uniform(0.5, 40.0, size=num_heads))
    if zero_head is not None:
        den[zero_head] = 0.0
    dd = den.astype(np.float64)
    inv = np.where(dd > 0, 1.0 / np.where(dd > 0, dd, 1.0), 0.0)
    out = vp.astype(np.float64) * inv[:, None]
    rel = FAST_DIV + U
    atol, rtol = tol_from_bound(out, rel * np.abs(out), rel)
    c = Case(kname, case, desc)
    c.threadgroups([tg_cover(num_heads * lora, 256) + extra_tg, 1, 1], [256, 1, 1])
    c.read(0, "v_combine_partial", vp)
    c.read(1, "running_denom", den)
    c.write(2, "v_combine", f32(out), atol, rtol,
            "v*(1/d): fast-math division (2.5 ulp = 5U) + product (U), purely relative -> rtol, x%g; a head "
            "with d = 0 must give exactly 0" % SAFETY)
    c.read(3, "num_heads", u32([num_heads]))
    c.read(4, "kv_lora_rank", u32([lora]))
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)

    # attention: one threadgroup per (position, head), any tg width (shared[32] holds <= 32 SIMD groups)
    attn_scores("small", "num_heads=4, heads_per_kv=1 (MHA), head_dim=64, seq_len=5, seq_stride=8, tg=64",
                4, 1, 64, 5, 8, 64)
    attn_scores("realistic", "num_heads=16, heads_per_kv=8 (2 KV heads, kv_dim=512), head_dim=256 (the "
                "header's size), seq_len=100 of seq_stride=128, tg=256", 16, 8, 256, 100, 128, 256)
    attn_scores("ragged", "num_heads=6, heads_per_kv=3, head_dim=128, seq_len=37, seq_stride=40; "
                "num_seq_tgs=41 > seq_len so 4 threadgroups per head take the pos >= seq_len exit; tg=96 "
                "(3 SIMD groups; a stride of 96 over head_dim 128 leaves 64 lanes with one element)", 6, 3, 128, 37,
                40, 96, extra_pos=4)
    attn_scores("partial_simd", "num_heads=2, heads_per_kv=2, head_dim=256, seq_len=3, tg=100 (last SIMD "
                "group has 4 lanes)", 2, 2, 256, 3, 4, 100)

    attn_softmax("small", "num_heads=2, seq_len=5, seq_stride=8, tg=32 (one SIMD group)", 2, 5, 8, 32)
    attn_softmax("realistic", "num_heads=16, seq_len=1000, seq_stride=1024, tg=256 (4 strided iterations)",
                 16, 1000, 1024, 256)
    attn_softmax("ragged", "num_heads=3, seq_len=77, seq_stride=80, tg=100 (partial last SIMD group, 23 "
                 "idle threads)", 3, 77, 80, 100)
    attn_softmax("single", "num_heads=1, seq_len=1 (p = 1), tg=256", 1, 1, 4, 256)
    attn_softmax("wide_range", "num_heads=2, seq_len=300, scores ~N(0,6): exp arguments down to ~-40, "
                 "tg=1024", 2, 300, 300, 1024, sigma=6.0)

    attn_values("small", "num_heads=2, head_dim=32, seq_len=1, tg=64 (exact grid)", 2, 1, 32, 1, 4, 64)
    attn_values("realistic", "num_heads=16, heads_per_kv=8, head_dim=256, seq_len=100 of seq_stride=128 "
                "(columns >= seq_len hold garbage), 16 threadgroups of 256", 16, 8, 256, 100, 128, 256)
    attn_values("ragged", "num_heads=3, heads_per_kv=3, head_dim=72, seq_len=13; no tid guard in the "
                "kernel, so dispatchThreads with exactly 216 threads (tg 64: last threadgroup partial)",
                3, 3, 72, 13, 16, 64)

    for kname in ("gated_delta_net_step", "gated_delta_net_sequential", "gated_delta_net_chunkwise"):
        geo = ("num_v_heads threadgroups x 128 threads" if kname != "gated_delta_net_sequential" else
               "grid (32, num_v_heads) x tg (32, 4): SEQ_NSG=4 rows per threadgroup")
        gdn_case(kname, "small", "1 k-head, 1 v-head, n_tokens=5 (one partial 16-chunk), random initial "
                 "state; " + geo, 5, 1, 1)
        gdn_case(kname, "realistic", "2 k-heads x k_heads_per_v=4 = 8 v-heads, key_total=256, n_tokens=40 "
                 "(2 full 16-chunks + 8), g in [0.8,1), beta in (0.05,0.95), unit-norm k; " + geo, 40, 2, 4)
        gdn_case(kname, "chunk_exact", "2 k-heads x 1 = 2 v-heads, n_tokens=32 (exact multiple of 16), zero "
                 "initial state (fresh sequence); " + geo, 32, 2, 1, state_sigma=0.0)
        gdn_case(kname, "strong_decay", "1 k-head x 2 = 2 v-heads, n_tokens=17 (16 + 1), g in [0.05,0.6] "
                 "(cumulative log-decay down to ~-45 within a chunk); " + geo, 17, 1, 2, g_range=(0.05, 0.6))
        gdn_case(kname, "single_token", "1 k-head x 3 = 3 v-heads, n_tokens=1; " + geo, 1, 1, 3)

    conv1d_step("small", "conv_dim=300 (2 threadgroups, 212 idle threads), n_tokens=1 (3 state rows + 1 "
                "input row)", 300, 1)
    conv1d_step("realistic", "conv_dim=8192 (Qwen3-Next-like q|k|v channels), n_tokens=8", 8192, 8)
    conv1d_step("ragged", "conv_dim=1000, n_tokens=2 (windows straddle state and input)", 1000, 2)
    conv1d_step("long", "conv_dim=64 (192 idle threads), n_tokens=20", 64, 20)

    conv1d_state_update("one_token", "conv_dim=300, n_tokens=1: new state = old rows 1,2 + input row 0",
                        300, 1)
    conv1d_state_update("two_tokens", "conv_dim=1000, n_tokens=2: old row 2 + input rows 0,1", 1000, 2)
    conv1d_state_update("many_tokens", "conv_dim=8192, n_tokens=7: input rows 4,5,6", 8192, 7)
    conv1d_state_update("zero_tokens", "conv_dim=100, n_tokens=0: state unchanged", 100, 0)

    mscale = 0.1 * math.log(40.0) + 1.0
    yarn_rope("realistic", "DeepSeek-V3/Cogito MLA: num_heads=128, rotary_dim=64, YaRN factor 40 table, "
              "pos=131071 (angles up to 1.3e5 rad), mscale=0.1 ln 40 + 1; grid (128, 32) x (1,1,1)", 128, 64,
              131071.0, mscale)
    yarn_rope("small", "num_heads=2, rotary_dim=8, pos=5, mscale=1", 2, 8, 5.0, 1.0)
    yarn_rope("ragged", "num_heads=3, rotary_dim=16, pos=40000; grid (5, 10) > (3, 8): the h/i guard", 3,
              16, 40000.0, mscale, extra=(2, 2))
    yarn_rope("pos_zero", "num_heads=4, rotary_dim=64, pos=0 (x * mscale)", 4, 64, 0.0, mscale)

    rope_n_tokens("realistic", "Qwen3-Next-like partial rotary: n_tokens=8, num_heads=16, head_dim=256, "
                  "rotary_dim=64, theta=1e7, start_pos=200000 (angles ~2e5 rad)", 8, 16, 256, 64, 200000)
    rope_n_tokens("full_rotary", "n_tokens=5, num_heads=4, head_dim=rotary_dim=128, theta=1e6, start_pos=0",
                  5, 4, 128, 128, 0, theta=1e6)
    rope_n_tokens("ragged", "n_tokens=3, num_heads=3, head_dim=40, rotary_dim=24, start_pos=70000: 108 "
                  "rotations in 2 threadgroups of 256 (one extra) -> 404 idle threads", 3, 3, 40, 24, 70000,
                  theta=1e4, extra_tg=1)
    rope_n_tokens("big_pos", "n_tokens=2, num_heads=2, head_dim=64, rotary_dim=64, start_pos=16777000 "
                  "(near 2^24: float(pos) still exact)", 2, 2, 64, 64, 16777000, theta=1e4)

    kv_cache_append("small", "kv_dim=64, n_tokens=1, kv_start=0, MAX_SEQ=4", 64, 1, 0, 4)
    kv_cache_append("realistic", "kv_dim=512, n_tokens=16, kv_start=100, MAX_SEQ=128", 512, 16, 100, 128)
    kv_cache_append("ragged", "kv_dim=100, n_tokens=3, kv_start=5, MAX_SEQ=10; 300 copies in 3 "
                    "threadgroups of 256 (one extra)", 100, 3, 5, 10, extra_tg=1)

    mla_split("realistic", "Cogito-V2-like: num_heads=128, qk_nope=128, qk_rope=64, kv_lora_rank=512 "
              "(max_out 16384: 64 threadgroups)", 128, 128, 64, 512)
    mla_split("small", "num_heads=2, qk_nope=8, qk_rope=4, kv_lora_rank=16", 2, 8, 4, 16)
    mla_split("ragged", "num_heads=3, qk_nope=5, qk_rope=3, kv_lora_rank=20; one extra threadgroup", 3, 5, 3,
              20, extra_tg=1)
    mla_split("lora_dominant", "num_heads=1, qk_nope=4, qk_rope=2, kv_lora_rank=300 (max_out from "
              "kv_lora_rank: 2 threadgroups)", 1, 4, 2, 300)

    mla_kv_append("realistic", "kv_lora_rank=512, qk_rope=64, pos=37 of 64 rows", 512, 64, 37, 64)
    mla_kv_append("first", "kv_lora_rank=16, qk_rope=4, pos=0 of 3 rows", 16, 4, 0, 3)
    mla_kv_append("ragged", "kv_lora_rank=300, qk_rope=24 (2 threadgroups), pos=9 = last of 10 rows",
                  300, 24, 9, 10)

    mla_q_prime("realistic", "num_heads=8, nope=128, v_head_dim=128 (kv_b_per_head=256), kv_lora_rank=512, "
                "group_size=64: 16 threadgroups of 256", 8, 128, 128, 512, 64)
    mla_q_prime("small", "num_heads=1, nope=3, v_head_dim=2, kv_lora_rank=64, group_size=32 (192 idle "
                "threads)", 1, 3, 2, 64, 32)
    mla_q_prime("ragged", "num_heads=3, nope=7, v_head_dim=5, kv_lora_rank=40, group_size=8 (5 groups); "
                "120 outputs, 2 threadgroups (one extra)", 3, 7, 5, 40, 8, extra_tg=1)

    mla_out_per_head("realistic", "num_heads=8, nope=128, v_head_dim=128, kv_lora_rank=512, group_size=64: "
                     "1024 threadgroups of 32 (2 packed columns per lane)", 8, 128, 128, 512, 64)
    mla_out_per_head("small", "num_heads=1, nope=2, v_head_dim=3, kv_lora_rank=64, group_size=32 (8 packed "
                     "columns: 24 idle lanes)", 1, 2, 3, 64, 32)
    mla_out_per_head("ragged", "num_heads=3, nope=5, v_head_dim=7, kv_lora_rank=296 (37 packed columns: lanes "
                     "0-4 take 2), group_size=8; 2 extra threadgroups (tgid guard)", 3, 5, 7, 296, 8,
                     extra_tg=2)

    mla_sdpa_folded("realistic", "num_heads=16, kv_lora_rank=512, qk_rope=64, cache_len=32 (<= 32: see "
                    "README on the simd_scratch race), 128 threads", 16, 512, 64, 32)
    mla_sdpa_folded("small", "num_heads=2, kv_lora_rank=64 (64 idle threads in the value loop), qk_rope=8, "
                    "cache_len=1", 2, 64, 8, 1)
    mla_sdpa_folded("ragged", "num_heads=3 + 1 extra threadgroup (tg guard), kv_lora_rank=200 (2 strided "
                    "iterations, last partial), qk_rope=24, cache_len=17", 3, 200, 24, 17, extra_tg=1)

    mla_tile_acc("first_tile", "is_first_tile=1 (running buffers hold garbage that must be ignored), "
                 "num_heads=16, kv_lora_rank=512, qk_rope=64, tile [0, 32)", 16, 512, 64, 32, 0, 32, True)
    mla_tile_acc("first_tile_offset", "is_first_tile=1, tile [5, 22) of cache_len 30, num_heads=3 + 1 extra "
                 "threadgroup, kv_lora_rank=200, qk_rope=24", 3, 200, 24, 30, 5, 22, True, extra_tg=1)
    mla_tile_acc("merge", "is_first_tile=0, tile [10, 30) after a first tile [0, 10) whose max dominates "
                 "(new_max == prev_max), num_heads=2, kv_lora_rank=32 (only SIMD group 0 writes; README)", 2,
                 32, 16, 30, 10, 30, False)
    mla_tile_acc("empty_tile", "tile_start == tile_end = 7: early return, nothing written", 2, 64, 8, 10, 7, 7,
                 False)

    mla_tile_finalize("realistic", "num_heads=16, kv_lora_rank=512: 32 threadgroups of 256", 16, 512)
    mla_tile_finalize("ragged", "num_heads=3, kv_lora_rank=200: 600 outputs in 3 threadgroups of 256 (+1 "
                      "extra)", 3, 200, extra_tg=1)
    mla_tile_finalize("zero_denom", "num_heads=2, kv_lora_rank=64, head 1 has denom 0 -> output 0", 2, 64,
                      zero_head=1)
