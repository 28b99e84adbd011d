"""Golden cases for 23 MoE / activation / residual / norm kernels of the corpus file
moe_quant_shaders.metal (and our same-interface ports in metal_src/quant_misc.metal):

  element-wise:  swiglu_fused, swiglu_fused_vec4, swiglu_fused_batched, sigmoid_gate,
                 residual_add, residual_add_n_tokens, split_q_gate, compute_decay_beta
  MoE combine:   weighted_sum, moe_combine_residual, moe_combine_residual_unscaled,
                 moe_combine_residual_flat, moe_combine_residual_n_tokens,
                 moe_bucket_accumulate
  norms:         rms_norm_sum_sq, rms_norm_apply, rms_norm_apply_bf16,
                 rms_norm_bf16_fused_n_tokens, rms_norm_per_head_n_tokens,
                 rms_norm_qk, gated_rms_norm
  routing:       moe_softmax_topk, moe_normalize_weights

References are float64 NumPy, written from each kernel's header comment (and, where
the header is silent, the code's evident intent).  Tolerances are first-order float32
error bounds on the case's own data times SAFETY (4); every note gives the numbers.
"""
import math

import numpy as np

from common import (U, SAFETY, Case, f32, u32, bf16_round, rng_for, reset_kernel_dir,
                    tol_from_bound, rms_inv_rel_err)

KERNELS = ["moe_combine_residual_flat", "swiglu_fused", "swiglu_fused_vec4", "swiglu_fused_batched",
           "weighted_sum", "rms_norm_sum_sq", "rms_norm_apply", "rms_norm_apply_bf16", "residual_add",
           "sigmoid_gate", "rms_norm_qk", "compute_decay_beta", "gated_rms_norm", "moe_combine_residual",
           "moe_combine_residual_unscaled", "moe_bucket_accumulate", "moe_combine_residual_n_tokens",
           "rms_norm_bf16_fused_n_tokens", "residual_add_n_tokens", "moe_softmax_topk",
           "moe_normalize_weights", "split_q_gate", "rms_norm_per_head_n_tokens"]

EW = 256  # element-wise kernels: the headers' 256-thread threadgroups


def i32(a):
    return np.ascontiguousarray(np.asarray(a, dtype=np.int32))


def f64(a):
    return np.asarray(a, dtype=np.float64)


def cdiv(a, b):
    return (a + b - 1) // b


def sent(desc):
    """A description that ends with a full stop, so notes can follow it."""
    return desc if desc.endswith(".") else desc + "."


def grid_note(needed, dispatched, what="threadgroups"):
    if dispatched == needed:
        return ""
    return " Grid: %d %s where %d cover the data (guard exercised)." % (dispatched, what, needed)


def sig_rel(x_abs):
    """Relative error of 1/(1+exp(-x)) and of x/(1+exp(-x)) in fast math, per element:
    exp (3+floor(2|x|) ulp, 1 ulp <= 2U), 1+e (U), division (<= 2.5 ulp = 5U)."""
    x_abs = np.abs(f64(x_abs))
    return (3.0 + np.floor(2.0 * x_abs)) * 2.0 * U + 6.0 * U


def simd_depth(n, tg):
    """Additions on the longest path of a sum of n values: strided per-thread partials
    (ceil(n/tg) terms), then simd_sum across 32 lanes and across <= 32 SIMD-group
    partials, each counted at 31 (any order inside simd_sum); never more than n-1, the
    any-order bound."""
    return max(1, min(n - 1, cdiv(n, tg) + 62))


RMS_NOTE = ("rms_inv = rsqrt(sum x^2/n + eps): relative error <= (sum depth %d + 2*sqrt(n) allowance for a "
            "reassociating port + 1) * U / 2 + 12U (fast-math division <= 2.5 ulp, +eps, rsqrt <= 2 ulp or "
            "1/sqrt) = %.2e (max over rows)")


def rms_rows(x, eps, depth):
    """x: [rows, n] -> rho [rows, 1] in float64, worst relative error bound over rows."""
    x = f64(x)
    rho = 1.0 / np.sqrt((x * x).sum(axis=1) / x.shape[1] + eps)
    rel = max(rms_inv_rel_err(x[r], depth) for r in range(x.shape[0]))
    return rho[:, None], rel


def mult_tol(expected, rel_bound):
    """Tolerance of a purely multiplicative error (per-element relative bound rel_bound):
    rtol = SAFETY * max relative bound; atol is only tol_from_bound's floor."""
    rel = float(np.max(rel_bound))
    atol, rtol = tol_from_bound(expected, rel * np.abs(f64(expected)), rel)
    return atol, rtol, rel


def weights_row(rng, k):
    w = rng.uniform(0.2, 1.0, size=k)
    return w / w.sum()


# ───────────────────────────── element-wise activations ─────────────────────────────
def swiglu_ref(g, u):
    g = f64(g)
    out = g / (1.0 + np.exp(-g)) * f64(u)
    rel = sig_rel(g) + U          # + the product with up
    return out, rel


SWIGLU_NOTE = ("purely multiplicative error per element: fast-math exp <= 3+floor(2|g|) ulp (max|g|=%.2f), "
               "1+e (U), division <= 2.5 ulp (5U), product with up (U): max rel %.2e; x%g -> rtol; atol is "
               "only the floor 4*U*median|out|")


def swiglu_case(case, desc, dim, extra_tg=0, g_sigma=2.0):
    k = "swiglu_fused"
    rng = rng_for(k, case)
    gate = f32(rng.normal(0.0, g_sigma, size=dim))
    up = f32(rng.normal(0.0, 1.0, size=dim))
    out, rel = swiglu_ref(gate, up)
    atol, rtol, r = mult_tol(out, rel)
    need = cdiv(dim, EW)
    c = Case(k, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "gate", gate)
    c.read(1, "up", up)
    c.write(2, "out", f32(out), atol, rtol, SWIGLU_NOTE % (np.abs(gate).max(), r, SAFETY))
    c.read(3, "dim", u32([dim]))
    c.save()


def swiglu_vec4_case(case, desc, dim, tg, extra_tg=0):
    assert dim % 4 == 0, "swiglu_fused_vec4: dim must be a multiple of 4 (header)"
    k = "swiglu_fused_vec4"
    rng = rng_for(k, case)
    gate = f32(rng.normal(0.0, 2.0, size=(dim // 4, 4)))
    up = f32(rng.normal(0.0, 1.0, size=(dim // 4, 4)))
    out, rel = swiglu_ref(gate, up)
    atol, rtol, r = mult_tol(out, rel)
    need = cdiv(dim // 4, tg)
    c = Case(k, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [tg, 1, 1])
    c.read(0, "gate", gate)
    c.read(1, "up", up)
    c.write(2, "out", f32(out), atol, rtol, SWIGLU_NOTE % (np.abs(gate).max(), r, SAFETY))
    c.read(3, "dim", u32([dim]))
    c.save()


def swiglu_batched_case(case, desc, K, dim, extra_tg=0):
    k = "swiglu_fused_batched"
    rng = rng_for(k, case)
    gate = f32(rng.normal(0.0, 2.0, size=(K, dim)))
    up = f32(rng.normal(0.0, 1.0, size=(K, dim)))
    out, rel = swiglu_ref(gate, up)
    atol, rtol, r = mult_tol(out, rel)
    need = cdiv(K * dim, EW)
    c = Case(k, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "gate", gate)
    c.read(1, "up", up)
    c.write(2, "out", f32(out), atol, rtol, SWIGLU_NOTE % (np.abs(gate).max(), r, SAFETY))
    c.read(3, "dim", u32([dim]))
    c.read(4, "K", u32([K]))
    c.save()


def sigmoid_gate_case(case, desc, dim, extra_tg=0):
    k = "sigmoid_gate"
    rng = rng_for(k, case)
    x = f32(rng.normal(0.0, 1.0, size=dim))
    gate = f32(rng.normal(0.0, 3.0, size=dim))
    g = f64(gate)
    out = f64(x) / (1.0 + np.exp(-g))
    rel = sig_rel(g) + U
    atol, rtol, r = mult_tol(out, rel)
    need = cdiv(dim, EW)
    c = Case(k, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read_write(0, "x_out", x, f32(out), atol, rtol,
                 "in place x*sigmoid(gate): fast-math exp <= 3+floor(2|gate|) ulp (max|gate|=%.2f), 1+e, "
                 "division <= 2.5 ulp, product: max rel %.2e; x%g -> rtol; atol is the floor"
                 % (np.abs(g).max(), r, SAFETY))
    c.read(1, "gate", gate)
    c.read(2, "dim", u32([dim]))
    c.save()


# ───────────────────────────── residual adds / copies ─────────────────────────────
ADD_NOTE = ("one float32 addition, correctly rounded: |err| <= U*|out| (relative to the result, so "
            "cancellation does not matter); x%g -> rtol = 4U; atol is the floor 4*U*median|out|")


def residual_add_case(kname, case, desc, rows, dim, extra_tg=0):
    rng = rng_for(kname, case)
    shape = (rows, dim) if kname == "residual_add_n_tokens" else (dim,)
    a = f32(rng.normal(0.0, 1.0, size=shape))
    b = f32(rng.normal(0.0, 0.5, size=shape))
    if a.size > 8:   # a few exact cancellations: out must be exactly 0 there
        b.ravel()[::97] = -a.ravel()[::97]
    out = f64(a) + f64(b)
    atol, rtol = tol_from_bound(out, U * np.abs(out), U)
    total = a.size
    need = cdiv(total, EW)
    c = Case(kname, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "a", a)
    c.read(1, "b", b)
    c.write(2, "out", f32(out), atol, rtol, ADD_NOTE % SAFETY)
    c.read(3, "total" if kname == "residual_add_n_tokens" else "dim", u32([total]))
    c.save()


def split_q_gate_case(case, desc, n_tokens, num_heads, head_dim, extra_tg=0):
    k = "split_q_gate"
    rng = rng_for(k, case)
    qp = f32(rng.normal(0.0, 1.0, size=(n_tokens, num_heads, 2, head_dim)))
    q = f32(qp[:, :, 0, :])
    g = f32(qp[:, :, 1, :])
    total = n_tokens * num_heads * head_dim
    need = cdiv(total, EW)
    c = Case(k, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "q_proj", qp.reshape(n_tokens, num_heads, 2 * head_dim))
    c.write(1, "q_out", q, 0.0, 0.0, "pure copy of float32 values: bit-exact")
    c.write(2, "gate_out", g, 0.0, 0.0, "pure copy of float32 values: bit-exact")
    c.read(3, "num_heads", u32([num_heads]))
    c.read(4, "head_dim", u32([head_dim]))
    c.read(5, "n_tokens", u32([n_tokens]))
    c.save()


# ───────────────────────────── GatedDeltaNet decay / beta ─────────────────────────────
def compute_decay_beta_case(case, desc, n_tokens, num_v_heads):
    k = "compute_decay_beta"
    rng = rng_for(k, case)
    alpha = f32(rng.normal(0.0, 1.5, size=(n_tokens, num_v_heads)))
    beta = f32(rng.normal(0.0, 2.0, size=(n_tokens, num_v_heads)))
    a_log = f32(rng.uniform(-1.0, 1.5, size=num_v_heads))
    dt_bits, dt = bf16_round(f32(rng.normal(0.0, 1.0, size=num_v_heads)))
    A = np.exp(f64(a_log))
    s = f64(alpha) + dt[None, :]
    E = np.exp(s)
    sp = np.log1p(E)
    y = -A[None, :] * sp
    g = np.exp(y)
    # error of g (relative), per element:
    eA = (3.0 + np.floor(2.0 * np.abs(f64(a_log)))) * 2.0 * U                 # exp(A_log)
    e_s = (3.0 + np.floor(2.0 * np.abs(s))) * 2.0 * U + U * np.abs(s)          # exp(a+dt), incl. rounding of a+dt
    one_p = 1.0 + E
    # log(1+E): error carried from 1+E (relative e_s*E/(1+E) + U) plus fast-math log itself
    # (MSL: abs error <= 2^-22 for x in [0.5, 2], else <= 3 ulp).
    log_own = np.where(one_p <= 2.0, 2.0 ** -22, 6.0 * U * np.abs(sp))
    sp_abs = e_s * E / one_p + U + log_own
    y_abs = np.abs(y) * (eA[None, :] + U) + A[None, :] * sp_abs                # -A*sp
    g_rel = (3.0 + np.floor(2.0 * np.abs(y))) * 2.0 * U + y_abs
    ga, gr, grel = mult_tol(g, g_rel)
    bg = 1.0 / (1.0 + np.exp(-f64(beta)))
    ba, br, brel = mult_tol(bg, sig_rel(beta))
    c = Case(k, case, sent(desc) + " Grid is exactly n_tokens x num_v_heads threads (the kernel has no "
             "index guard).")
    c.threadgroups([n_tokens, 1, 1], [num_v_heads, 1, 1])
    c.read(0, "alpha_out", alpha)
    c.read(1, "beta_out", beta)
    c.read(2, "A_log", a_log)
    c.read(3, "dt_bias", dt_bits)
    c.write(4, "g_decay", f32(g), ga, gr,
            "g = exp(-exp(A_log)*log(1+exp(alpha+dt))): relative error <= fast-math exp of y=-A*sp "
            "(3+floor(2|y|) ulp, max|y|=%.2f) + abs error of y [= |y|*(exp(A_log) error + U) + A*abs error "
            "of softplus, the latter = exp error of alpha+dt (incl. its rounding) carried through log, + U, + "
            "fast-math log (2^-22 abs on [0.5,2], else 3 ulp)]: max rel %.2e; x%g -> rtol"
            % (np.abs(y).max(), grel, SAFETY))
    c.write(5, "beta_gate", f32(bg), ba, br,
            "sigmoid(beta): fast-math exp <= 3+floor(2|beta|) ulp, 1+e, division <= 2.5 ulp: max rel "
            "%.2e; x%g -> rtol" % (brel, SAFETY))
    c.read(6, "num_v_heads", u32([num_v_heads]))
    c.save()


# ───────────────────────────── MoE combines ─────────────────────────────
def sum_bound(terms):
    """terms: [n, ...] -> abs error bound (n+1)*U*sum|terms| of adding n products / values in
    any order, with or without FMA contraction."""
    t = np.abs(f64(terms))
    return (t.shape[0] + 1) * U * t.sum(axis=0)


COMBINE_NOTE = ("sum of %d terms (h_mid, %d weighted expert outputs, %s): any-order abs bound "
                "(n+1)*U*sum|terms| per element%s; cancellation possible -> atol (x%g, max over elements), "
                "rtol = 4U for the final rounding")


def combine_case(kname, case, desc, dim, K, extra_tg=0, junk_beyond_k=False):
    """moe_combine_residual / _unscaled: 16 expert buffers at indices 3..18, params[18]."""
    rng = rng_for(kname, case)
    scaled = kname == "moe_combine_residual"
    h = f32(rng.normal(0.0, 1.0, size=dim))
    sh = f32(rng.normal(0.0, 0.5, size=dim))
    eo = f32(rng.normal(0.0, 0.5, size=(16, dim)))
    params = np.zeros(18, dtype=np.float64)
    params[:K] = weights_row(rng, K)
    if junk_beyond_k:
        params[K:16] = rng.uniform(5.0, 9.0, size=16 - K)   # must be ignored (k >= K)
    params[16] = rng.normal(0.0, 2.0)
    params[17] = 12345.0 if junk_beyond_k else 0.0          # pad, never read
    params = f32(params)
    p = f64(params)
    terms = [f64(h)] + [p[k] * f64(eo[k]) for k in range(K)]
    note_extra = ""
    if scaled:
        sg = 1.0 / (1.0 + math.exp(-p[16]))
        terms.append(sg * f64(sh))
        srel = float(sig_rel(p[16])) + U
        note_extra = "; plus |sigmoid(params[16])*shared_out| * %.2e (fast-math sigmoid + product)" % srel
    else:
        terms.append(f64(sh))
    terms = np.stack(terms)
    out = terms.sum(axis=0)
    bound = sum_bound(terms)
    if scaled:
        bound = bound + np.abs(terms[-1]) * srel
    atol, rtol = tol_from_bound(out, bound, U)
    need = cdiv(dim, EW)
    c = Case(kname, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "h_mid", h)
    c.read(1, "shared_out", sh)
    c.write(2, "hidden_out", f32(out), atol, rtol,
            COMBINE_NOTE % (K + 2, K, "sigmoid(params[16])*shared_out" if scaled else "shared_out unscaled",
                            note_extra, SAFETY))
    for k in range(16):
        c.read(3 + k, "expert_out%d" % k, eo[k])
    c.read(19, "params", params)
    c.read(20, "dim", u32([dim]))
    c.read(21, "K", u32([K]))
    c.save()


def combine_flat_case(case, desc, dim, K, extra_tg=0):
    kname = "moe_combine_residual_flat"
    assert K <= 16, "params[k] for k >= 16 would read the gate score"
    rng = rng_for(kname, case)
    h = f32(rng.normal(0.0, 1.0, size=dim))
    sh = f32(rng.normal(0.0, 0.5, size=dim))
    eo = f32(rng.normal(0.0, 0.5, size=(K, dim)))
    params = np.zeros(18, dtype=np.float64)
    params[:K] = weights_row(rng, K)
    params[16] = rng.normal(0.0, 2.0)
    params = f32(params)
    p = f64(params)
    sg = 1.0 / (1.0 + math.exp(-p[16]))
    srel = float(sig_rel(p[16])) + U
    terms = np.stack([f64(h)] + [p[k] * f64(eo[k]) for k in range(K)] + [sg * f64(sh)])
    out = terms.sum(axis=0)
    bound = sum_bound(terms) + np.abs(terms[-1]) * srel
    atol, rtol = tol_from_bound(out, bound, U)
    need = cdiv(dim, EW)
    c = Case(kname, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "h_mid", h)
    c.read(1, "shared_out", sh)
    c.write(2, "hidden_out", f32(out), atol, rtol,
            COMBINE_NOTE % (K + 2, K, "sigmoid(params[16])*shared_out",
                            "; plus |sigmoid(params[16])*shared_out| * %.2e (fast-math sigmoid + product)"
                            % srel, SAFETY))
    c.read(3, "expert_out", eo)
    c.read(4, "params", params)
    c.read(5, "dim", u32([dim]))
    c.read(6, "K", u32([K]))
    c.save()


def weighted_sum_case(case, desc, dim, K, extra_tg=0):
    kname = "weighted_sum"
    rng = rng_for(kname, case)
    eo = f32(rng.normal(0.0, 0.5, size=(K, dim)))
    w = f32(weights_row(rng, K))
    terms = f64(w)[:, None] * f64(eo)
    out = terms.sum(axis=0)
    atol, rtol = tol_from_bound(out, sum_bound(terms), U)
    need = cdiv(dim, EW)
    c = Case(kname, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "expert_outs", eo)
    c.read(1, "weights", w)
    c.write(2, "out", f32(out), atol, rtol,
            "sum of %d products: any-order abs bound (K+1)*U*sum|w_k*e_k| per element (with or without "
            "FMA); cancellation possible -> atol (x%g, max over elements); rtol = 4U" % (K, SAFETY))
    c.read(3, "K", u32([K]))
    c.read(4, "dim", u32([dim]))
    c.save()


def combine_n_tokens_case(case, desc, n_tokens, dim, extra_tg=0):
    kname = "moe_combine_residual_n_tokens"
    rng = rng_for(kname, case)
    h = f32(rng.normal(0.0, 1.0, size=(n_tokens, dim)))
    m = f32(rng.normal(0.0, 0.5, size=(n_tokens, dim)))
    sh = f32(rng.normal(0.0, 0.5, size=(n_tokens, dim)))
    sgs = f32(rng.normal(0.0, 2.5, size=n_tokens))
    sg = 1.0 / (1.0 + np.exp(-f64(sgs)))
    srel = sig_rel(sgs) + U
    t3 = np.stack([f64(h), f64(m), sg[:, None] * f64(sh)])
    out = t3.sum(axis=0)
    bound = sum_bound(t3) + np.abs(t3[2]) * srel[:, None]
    atol, rtol = tol_from_bound(out, bound, U)
    total = n_tokens * dim
    need = cdiv(total, EW)
    c = Case(kname, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "h_mid", h)
    c.read(1, "moe_sum", m)
    c.read(2, "shared_out", sh)
    c.read(3, "shared_gate", sgs)
    c.write(4, "hidden_out", f32(out), atol, rtol,
            "h_mid + moe_sum + sigmoid(shared_gate[t])*shared_out: 3-term sum, any-order abs bound "
            "4*U*sum|terms|, plus |sg*shared_out| * (fast-math sigmoid 3+floor(2|x|) ulp + 7U, max rel "
            "%.2e); cancellation -> atol (x%g); rtol = 4U" % (srel.max(), SAFETY))
    c.read(5, "n_tokens", u32([n_tokens]))
    c.read(6, "dim", u32([dim]))
    c.save()


def bucket_case(case, desc, n_tokens, hidden, bucket_size, extra_x=0, extra_y=0):
    kname = "moe_bucket_accumulate"
    assert bucket_size <= n_tokens
    rng = rng_for(kname, case)
    tok = i32(np.sort(rng.choice(n_tokens, size=bucket_size, replace=False))[rng.permutation(bucket_size)])
    bo = f32(rng.normal(0.0, 0.5, size=(bucket_size, hidden)))
    w = f32(rng.uniform(0.05, 0.6, size=bucket_size))
    acc = f32(rng.normal(0.0, 0.5, size=(n_tokens, hidden)))
    out = f64(acc).copy()
    bound = np.zeros_like(out)
    for b in range(bucket_size):
        v = f64(bo[b]) * float(w[b])
        out[tok[b]] += v
        bound[tok[b]] = U * np.abs(v) + U * np.abs(out[tok[b]])
    atol, rtol = tol_from_bound(out, bound, U)
    ny = cdiv(hidden, 256)
    c = Case(kname, case, sent(desc) + grid_note(bucket_size, bucket_size + extra_x, "threadgroups in x (b guard)")
             + grid_note(ny, ny + extra_y, "threadgroups in y (h guard)")
             + " token_idx entries are distinct (the kernel's atomic-free precondition), so no two threads "
               "touch one out_sum element and the result is order-independent; rows of tokens outside the "
               "bucket must stay unchanged.")
    c.threadgroups([bucket_size + extra_x, ny + extra_y, 1], [1, 256, 1])
    c.read(0, "bucket_out", bo)
    c.read(1, "token_idx", tok)
    c.read(2, "weights", w)
    c.read_write(3, "out_sum", acc, f32(out), atol, rtol,
                 "out_sum[t,h] += w_b*bucket_out[b,h]: a product and an add (U|w*x| + U|out|); "
                 "cancellation -> atol (x%g, max over elements); rtol = 4U; rows outside the "
                 "bucket have expected == data" % SAFETY)
    c.read(4, "hidden_dim", u32([hidden]))
    c.read(5, "bucket_size", u32([bucket_size]))
    c.save()


# ───────────────────────────── RMS norms ─────────────────────────────
def rms_sum_sq_case(case, desc, dim, tg, x_sigma=1.0):
    kname = "rms_norm_sum_sq"
    assert tg <= 1024
    rng = rng_for(kname, case)
    x = f32(rng.normal(0.0, x_sigma, size=dim))
    ss = float(np.sum(f64(x) ** 2))
    depth = simd_depth(dim, tg)
    rel = (depth + 2.0 * math.sqrt(dim) + 1.0) * U
    atol, rtol = tol_from_bound(np.array([ss]), np.array([rel * ss]), rel)
    c = Case(kname, case, sent(desc) + " One threadgroup (the kernel strides by tg_size from "
             "thread_position_in_grid and every threadgroup writes sum_sq[0]).")
    c.threadgroups([1, 1, 1], [tg, 1, 1])
    c.read(0, "x", x)
    c.write(1, "sum_sq", f32([ss]), atol, rtol,
            "sum of %d non-negative squares: relative error <= (depth %d = strided partials + 2 simd_sum "
            "stages at 31 each, capped at n-1, + 2*sqrt(n) allowance + 1 for the squares) * U = %.2e; x%g "
            "-> rtol" % (dim, depth, rel, SAFETY))
    c.read(2, "dim", u32([dim]))
    c.save()


APPLY_NOTE = ("rms = rsqrt(sum_sq/dim + eps) from the given sum_sq: fast-math division (5U), +eps (U), "
              "rsqrt or 1/sqrt (<= 11U after halving): 12U; two products (2U): rel %.2e; x%g -> rtol; atol "
              "is the floor")


def rms_apply_case(kname, case, desc, dim, eps, extra_tg=0, x_sigma=1.0):
    rng = rng_for(kname, case)
    eps = float(np.float32(eps))
    x = f32(rng.normal(0.0, x_sigma, size=dim))
    if kname == "rms_norm_apply_bf16":
        wbits, w = bf16_round(f32(rng.normal(1.0, 0.2, size=dim)))
        wdata = wbits
    else:
        wdata = f32(rng.normal(1.0, 0.2, size=dim))
        w = f64(wdata)
    # sum_sq as a previous rms_norm_sum_sq would produce it (any float32 value is a legal input).
    ss = f32([np.sum(f64(x) ** 2)])
    rho = 1.0 / math.sqrt(float(ss[0]) / dim + eps)
    out = f64(x) * rho * w
    rel = 14.0 * U
    atol, rtol = tol_from_bound(out, rel * np.abs(out), rel)
    need = cdiv(dim, EW)
    c = Case(kname, case, sent(desc) + grid_note(need, need + extra_tg))
    c.threadgroups([need + extra_tg, 1, 1], [EW, 1, 1])
    c.read(0, "x", x)
    c.read(1, "weight", wdata)
    c.read(2, "sum_sq", ss)
    c.write(3, "out", f32(out), atol, rtol, APPLY_NOTE % (rel, SAFETY))
    c.read(4, "dim", u32([dim]))
    c.read(5, "eps", f32([eps]))
    c.save()


def rms_fused_n_tokens_case(case, desc, n_tokens, dim, tg, eps, x_sigma=1.0):
    kname = "rms_norm_bf16_fused_n_tokens"
    assert tg <= 1024
    rng = rng_for(kname, case)
    eps = float(np.float32(eps))
    x = f32(rng.normal(0.0, x_sigma, size=(n_tokens, dim)))
    wbits, w = bf16_round(f32(rng.normal(1.0, 0.2, size=dim)))
    depth = simd_depth(dim, tg)
    rho, rel = rms_rows(x, eps, depth)
    out = f64(x) * rho * w[None, :]
    relo = rel + 2 * U
    atol, rtol = tol_from_bound(out, relo * np.abs(out), relo)
    c = Case(kname, case, sent(desc) + " Grid is exactly n_tokens threadgroups (no token guard).")
    c.threadgroups([n_tokens, 1, 1], [tg, 1, 1])
    c.read(0, "x", x)
    c.read(1, "weight", wbits)
    c.write(2, "out", f32(out), atol, rtol,
            (RMS_NOTE % (depth, rel)) + "; two products (2U): purely multiplicative -> rtol (x%g)" % SAFETY)
    c.read(3, "dim", u32([dim]))
    c.read(4, "eps", f32([eps]))
    c.save()


def rms_per_head_case(case, desc, n_tokens, num_heads, head_dim, tg, eps, x_sigma=1.0):
    kname = "rms_norm_per_head_n_tokens"
    rng = rng_for(kname, case)
    eps = float(np.float32(eps))
    x = f32(rng.normal(0.0, x_sigma, size=(n_tokens, num_heads, head_dim)))
    wbits, w = bf16_round(f32(rng.normal(1.0, 0.2, size=head_dim)))
    depth = simd_depth(head_dim, tg)
    rows = x.reshape(-1, head_dim)
    rho, rel = rms_rows(rows, eps, depth)
    out = (f64(rows) * rho * w[None, :]).reshape(x.shape)
    relo = rel + 2 * U
    atol, rtol = tol_from_bound(out, relo * np.abs(out), relo)
    c = Case(kname, case, sent(desc) + " Grid is exactly (num_heads, n_tokens) threadgroups (no guard).")
    c.threadgroups([num_heads, n_tokens, 1], [tg, 1, 1])
    c.read_write(0, "x", x, f32(out), atol, rtol,
                 (RMS_NOTE % (depth, rel)) + "; two products (2U): purely multiplicative -> rtol (x%g)"
                 % SAFETY)
    c.read(1, "weight", wbits)
    c.read(2, "num_heads", u32([num_heads]))
    c.read(3, "head_dim", u32([head_dim]))
    c.read(4, "eps", f32([eps]))
    c.save()


def rms_norm_qk_case(case, desc, n_tokens, num_k_heads, key_dim, tg, pad=0, v_len=0):
    """x holds per token [q: num_k_heads*key_dim | pad | k: num_k_heads*key_dim | v_len other floats];
    only q and k are touched."""
    kname = "rms_norm_qk"
    assert key_dim <= tg <= 128, "static q_partial[128]: key_dim <= tg <= 128"
    rng = rng_for(kname, case)
    qk = num_k_heads * key_dim
    key_off = qk + pad
    ptt = key_off + qk + v_len
    x = f32(rng.normal(0.0, 1.0, size=(n_tokens, ptt)))
    inv_scale = float(np.float32(1.0 / math.sqrt(key_dim)))
    s2 = inv_scale * inv_scale
    eps = float(np.float32(1e-6))
    out = f64(x).copy()
    depth = key_dim - 1   # thread 0 adds the key_dim partials sequentially
    rel_q = rel_k = rel_base = 0.0
    for t in range(n_tokens):
        for region, scale, extra in ((0, s2, 3), (key_off, inv_scale, 2)):
            blk = f64(x[t, region:region + qk]).reshape(num_k_heads, key_dim)
            rho, rel = rms_rows(blk, eps, depth)
            rel_base = max(rel_base, rel)
            out[t, region:region + qk] = (blk * rho * scale).ravel()
            if region == 0:
                rel_q = max(rel_q, rel + extra * U)
            else:
                rel_k = max(rel_k, rel + extra * U)
    rel = max(rel_q, rel_k)
    atol, rtol = tol_from_bound(out, rel * np.abs(out), rel)
    c = Case(kname, case, sent(desc) + " Grid is exactly (num_k_heads, n_tokens) threadgroups (no guard); eps is "
             "the kernel's hard-coded 1e-6.")
    c.threadgroups([num_k_heads, n_tokens, 1], [tg, 1, 1])
    c.read_write(0, "x", x, f32(out), atol, rtol,
                 (RMS_NOTE % (depth, rel_base)) + "; q: three products (x*rms*inv_scale*inv_scale, 3U), "
                 "k: two (2U): purely multiplicative -> rtol (x%g). Floats outside the q/k regions must come "
                 "back unchanged (they pass only if untouched up to rtol; they are never written by a "
                 "correct kernel)" % SAFETY)
    c.read(1, "key_dim", u32([key_dim]))
    c.read(2, "inv_scale", f32([inv_scale]))
    c.read(3, "per_token_total", u32([ptt]))
    c.read(4, "key_offset_per_token", u32([key_off]))
    c.save()


def gated_rms_norm_case(case, desc, n_tokens, num_v_heads, value_dim, tg, eps=1e-6):
    kname = "gated_rms_norm"
    assert value_dim <= tg <= 128, "static partial[128]: value_dim <= tg <= 128"
    rng = rng_for(kname, case)
    eps = float(np.float32(eps))
    v = f32(rng.normal(0.0, 1.0, size=(n_tokens, num_v_heads, value_dim)))
    z = f32(rng.normal(0.0, 2.0, size=(n_tokens, num_v_heads, value_dim)))
    wbits, w = bf16_round(f32(rng.normal(1.0, 0.2, size=value_dim)))
    depth = value_dim - 1  # thread 0 sums sequentially
    rows = f64(v).reshape(-1, value_dim)
    rho, rel = rms_rows(rows, eps, depth)
    zz = f64(z).reshape(-1, value_dim)
    silu = zz / (1.0 + np.exp(-zz))
    out = (rows * rho * silu * w[None, :]).reshape(v.shape)
    relo = rel + sig_rel(zz).reshape(v.shape) + 3 * U
    atol, rtol, r = mult_tol(out, relo)
    c = Case(kname, case, sent(desc) + " Grid is exactly (num_v_heads, n_tokens) threadgroups (no guard).")
    c.threadgroups([num_v_heads, n_tokens, 1], [tg, 1, 1])
    c.read(0, "values", v)
    c.read(1, "z", z)
    c.read(2, "weight", wbits)
    c.write(3, "output", f32(out), atol, rtol,
            (RMS_NOTE % (depth, rel)) + "; SiLU(z) with fast-math exp (3+floor(2|z|) ulp, 1+e, division "
            "<= 2.5 ulp) and three products: max rel %.2e, purely multiplicative -> rtol (x%g)" % (r, SAFETY))
    c.read(4, "value_dim", u32([value_dim]))
    c.read(5, "eps", f32([eps]))
    c.read(6, "num_v_heads", u32([num_v_heads]))
    c.save()


# ───────────────────────────── routing ─────────────────────────────
def spaced_logits(rng, n, gap=0.03):
    """n float32 logits whose pairwise differences are all >= gap (in a random order): the
    kernel's running-minimum selection compares arbitrary pairs of probabilities, so every
    comparison must be immune to float32 rounding (a gap of 0.03 in a logit is a 3% gap in
    its probability, against errors ~1e-5)."""
    steps = gap + rng.exponential(0.03, size=n)
    vals = np.cumsum(steps)
    vals = vals - vals.mean() + rng.normal(0.0, 0.5)
    l = f32(rng.permutation(vals))
    srt = np.sort(f64(l))
    assert np.min(np.diff(srt)) >= gap * 0.999
    return l


def running_min_topk(p, k):
    """The kernel's selection: each candidate replaces the first running-minimum slot if it is
    larger; slots start at (index 0, -1e30)."""
    idx = [0] * k
    val = [-1e30] * k
    for i, v in enumerate(p):
        mk = 0
        for s in range(1, k):
            if val[s] < val[mk]:
                mk = s
        if v > val[mk]:
            val[mk] = v
            idx[mk] = i
    return idx, val


def softmax_topk_case(case, desc, n_tokens, n_experts, k, tg):
    kname = "moe_softmax_topk"
    assert n_experts <= 512 and k <= 16 and k <= n_experts, "MAX_EXPERTS / MAX_K caps"
    rng = rng_for(kname, case)
    logits = np.stack([spaced_logits(rng, n_experts) for _ in range(n_tokens)])
    ids = np.zeros((n_tokens, k), dtype=np.int32)
    w = np.zeros((n_tokens, k))
    depth = simd_depth(n_experts, tg)
    rel = 0.0
    for t in range(n_tokens):
        l = f64(logits[t])
        x = l - l.max()
        p = np.exp(x)
        p = p / p.sum()
        sel_i, sel_v = running_min_topk(p, k)
        ids[t] = sel_i
        w[t] = sel_v
        e = (3.0 + np.floor(2.0 * np.abs(x))) * 2.0 * U + U * np.abs(x)   # exp + rounding of l - max
        r = e[sel_i].max() + e.max() + depth * U + 6.0 * U
        rel = max(rel, r)
    assert all(len(set(r.tolist())) == k for r in ids)
    atol, rtol = tol_from_bound(w, rel * np.abs(w), rel)
    c = Case(kname, case, sent(desc) + " Logits are pairwise >= 0.03 apart, so every comparison of the "
             "running-minimum selection (and thus the slot order) is immune to float32 rounding.")
    c.threadgroups([n_tokens, 1, 1], [tg, 1, 1])
    c.read(0, "logits", logits)
    c.write(1, "out_indices", ids, 0, 0,
            "integer output in the kernel's running-minimum replacement slot order: exact")
    c.write(2, "out_weights", f32(w), atol, rtol,
            "softmax probability p_i = exp(l_i-max)/sum: exp of the selected logit (3+floor(2|x|) ulp + U|x| "
            "from x = l-max) + the denominator's relative error (worst exp error over all experts + sum "
            "depth %d*U) + reciprocal (5U) and product (U): max rel %.2e; x%g -> rtol" % (depth, rel, SAFETY))
    c.read(3, "n_experts", u32([n_experts]))
    c.read(4, "k", u32([k]))
    c.save()


def normalize_weights_case(case, desc, n_tokens, k, tg, zero_rows=(), nonpos_rows=()):
    kname = "moe_normalize_weights"
    assert k <= tg
    rng = rng_for(kname, case)
    w = np.zeros((n_tokens, k))
    for t in range(n_tokens):
        # top-k softmax probabilities of a 128-expert router: positive, sum < 1
        w[t] = np.sort(rng.dirichlet(np.ones(128) * 0.3))[::-1][:k]
        if t in zero_rows:
            w[t] = 0.0
        if t in nonpos_rows:
            w[t] = rng.uniform(0.1, 0.5, size=k) * np.where(np.arange(k) % 2 == 0, -1.0, 0.5)
            assert w[t].sum() < 0
    w = f32(w)
    out = f64(w).copy()
    for t in range(n_tokens):
        s = float(np.sum(f64(w[t])))
        if s > 0:
            out[t] = f64(w[t]) / s
    rel = (k + 6.0) * U
    atol, rtol = tol_from_bound(out, rel * np.abs(out), rel)
    guard = ""
    if zero_rows or nonpos_rows:
        guard = (" Rows %s have sum <= 0 and must come back unchanged (the kernel's documented guard)."
                 % sorted(set(zero_rows) | set(nonpos_rows)))
    c = Case(kname, case, sent(desc) + guard + " Grid is exactly n_tokens threadgroups (no token guard).")
    c.threadgroups([n_tokens, 1, 1], [tg, 1, 1])
    c.read_write(0, "weights", w, f32(out), atol, rtol,
                 "w/sum(w): sequential sum of k=%d positive values ((k-1)U), reciprocal (<= 2.5 ulp = 5U), "
                 "product (U), input rounding slack (U): (k+6)U = %.2e; x%g -> rtol; unchanged rows pass "
                 "exactly" % (k, rel, SAFETY))
    c.read(1, "k", u32([k]))
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)

    # ── element-wise
    swiglu_case("small", "dim=300: 2 threadgroups of 256, 212 idle threads", 300)
    swiglu_case("realistic", "dim=1024 (expert intermediate size, gate_proj [1024, 4096] of the corpus "
                "header)", 1024)
    swiglu_case("ragged", "dim=1000, |gate| up to ~12 (large fast-math exp arguments)", 1000, extra_tg=2,
                g_sigma=4.0)
    swiglu_case("tiny", "dim=1: one active thread of 256", 1)

    swiglu_vec4_case("small", "dim=300 (75 float4), tg=64: 2 threadgroups, 53 idle threads; precondition "
                     "dim % 4 == 0", 300, 64)
    swiglu_vec4_case("realistic", "dim=4096 (1024 float4), tg=256: 4 full threadgroups", 4096, 256)
    swiglu_vec4_case("ragged", "dim=1004 (251 float4), tg=256: 5 idle threads in the only needed "
                     "threadgroup", 1004, 256, extra_tg=1)
    swiglu_vec4_case("tiny", "dim=4 (a single float4), tg=32", 4, 32)

    swiglu_batched_case("small", "K=2, dim=300: 600 elements, 3 threadgroups of 256", 2, 300)
    swiglu_batched_case("realistic", "K=8 experts, dim=1024", 8, 1024)
    swiglu_batched_case("ragged", "K=1, dim=1000", 1, 1000, extra_tg=1)
    swiglu_batched_case("odd", "K=3, dim=77: the flat index crosses expert rows inside one threadgroup", 3,
                        77)

    sigmoid_gate_case("small", "dim=300 (in place)", 300)
    sigmoid_gate_case("realistic", "dim=4096 (attention output gate)", 4096)
    sigmoid_gate_case("ragged", "dim=1000", 1000, extra_tg=2)

    residual_add_case("residual_add", "small", "dim=300", 1, 300)
    residual_add_case("residual_add", "realistic", "dim=2048", 1, 2048)
    residual_add_case("residual_add", "ragged", "dim=1001", 1, 1001, extra_tg=1)
    residual_add_case("residual_add_n_tokens", "small", "n_tokens=2, dim=300: total 600", 2, 300)
    residual_add_case("residual_add_n_tokens", "realistic", "n_tokens=8, dim=2048", 8, 2048)
    residual_add_case("residual_add_n_tokens", "ragged", "n_tokens=1, dim=1001", 1, 1001, extra_tg=2)

    split_q_gate_case("small", "n_tokens=2, num_heads=2, head_dim=64", 2, 2, 64)
    split_q_gate_case("realistic", "n_tokens=8, num_heads=32, head_dim=128", 8, 32, 128)
    split_q_gate_case("ragged", "n_tokens=1, num_heads=3, head_dim=100 (300 outputs)", 1, 3, 100, extra_tg=1)

    compute_decay_beta_case("small", "n_tokens=2, num_v_heads=4", 2, 4)
    compute_decay_beta_case("realistic", "n_tokens=16, num_v_heads=32 (Qwen3-Next linear attention)", 16,
                            32)
    compute_decay_beta_case("ragged", "n_tokens=1, num_v_heads=5 (one partial SIMD group)", 1, 5)
    compute_decay_beta_case("ragged_tokens", "n_tokens=3, num_v_heads=48 (two SIMD groups, the second "
                            "partial)", 3, 48)

    # ── MoE combines
    for kn in ("moe_combine_residual", "moe_combine_residual_unscaled"):
        combine_case(kn, "small", "dim=300, K=4 (all 16 expert buffers bound; weights 4..15 are 0 as the "
                     "header prescribes)", 300, 4)
        combine_case(kn, "realistic", "dim=4096, K=8", 4096, 8)
        combine_case(kn, "ragged", "dim=1000, K=1", 1000, 1, extra_tg=2)
        combine_case(kn, "k16", "dim=512, K=16 (every expert buffer used)", 512, 16)
        combine_case(kn, "k_guard", "dim=256, K=5 with large nonzero params[5..15] and params[17]: the "
                     "K branches must ignore them", 256, 5, junk_beyond_k=True)

    combine_flat_case("small", "dim=300, K=4 (expert_out is [K, dim]; params[18] with weights 4..15 = 0)",
                      300, 4)
    combine_flat_case("realistic", "dim=4096, K=8", 4096, 8)
    combine_flat_case("ragged", "dim=1000, K=1", 1000, 1, extra_tg=2)
    combine_flat_case("k16", "dim=512, K=16 (the most the params layout allows: params[16] is the gate "
                      "score)", 512, 16)

    weighted_sum_case("small", "dim=300, K=2", 300, 2)
    weighted_sum_case("realistic", "dim=4096, K=8", 4096, 8)
    weighted_sum_case("ragged", "dim=1000, K=1", 1000, 1, extra_tg=2)
    weighted_sum_case("k16", "dim=777, K=16", 777, 16)

    combine_n_tokens_case("small", "n_tokens=2, dim=300", 2, 300)
    combine_n_tokens_case("realistic", "n_tokens=8, dim=2048", 8, 2048)
    combine_n_tokens_case("ragged", "n_tokens=1, dim=1000", 1, 1000, extra_tg=2)
    combine_n_tokens_case("odd", "n_tokens=5, dim=77 (token boundaries inside a threadgroup)", 5, 77)

    bucket_case("small", "n_tokens=4, hidden=300, bucket_size=3", 4, 300, 3)
    bucket_case("realistic", "n_tokens=16, hidden=2048, bucket_size=6", 16, 2048, 6)
    bucket_case("ragged", "n_tokens=2, hidden=1000, bucket_size=1", 2, 1000, 1, extra_x=2, extra_y=1)
    bucket_case("full", "n_tokens=8, hidden=256, bucket_size=8 (every token in the bucket, permuted)", 8, 256,
                8)

    # ── norms
    rms_sum_sq_case("small", "dim=300, tg=256 (8 SIMD groups, 44 threads get 2 elements)", 300, 256)
    rms_sum_sq_case("realistic", "dim=4096, tg=256", 4096, 256)
    rms_sum_sq_case("ragged", "dim=1000, tg=40 (2 SIMD groups, the second with 8 lanes)", 1000, 40)
    rms_sum_sq_case("tiny", "dim=5, tg=32 (27 threads contribute 0)", 5, 32)
    rms_sum_sq_case("tg1024", "dim=2048, tg=1024 (32 SIMD groups: all of shared[32])", 2048, 1024)

    for kn in ("rms_norm_apply", "rms_norm_apply_bf16"):
        w = "bf16 weight" if kn.endswith("bf16") else "float weight"
        rms_apply_case(kn, "small", "dim=300, eps=1e-6, " + w, 300, 1e-6)
        rms_apply_case(kn, "realistic", "dim=4096, eps=1e-6, " + w, 4096, 1e-6)
        rms_apply_case(kn, "ragged", "dim=1000, eps=1e-5, " + w, 1000, 1e-5, extra_tg=2)
        rms_apply_case(kn, "eps_dominant", "dim=512, x ~1e-3 so sum_sq/dim = 1e-6 < eps = 1e-5, " + w, 512,
                       1e-5, x_sigma=1e-3)

    rms_fused_n_tokens_case("small", "n_tokens=2, dim=300, tg=256", 2, 300, 256, 1e-6)
    rms_fused_n_tokens_case("realistic", "n_tokens=8, dim=2048, tg=256", 8, 2048, 256, 1e-6)
    rms_fused_n_tokens_case("ragged", "n_tokens=1, dim=1000, tg=96 (3 SIMD groups, 11 strided iterations)",
                            1, 1000, 96, 1e-5)
    rms_fused_n_tokens_case("partial_simd", "n_tokens=3, dim=100, tg=48 (second SIMD group has 16 lanes)",
                            3, 100, 48, 1e-6)
    rms_fused_n_tokens_case("eps_dominant", "n_tokens=2, dim=512, tg=128, x ~1e-3 (mean square 1e-6 < eps "
                            "1e-5)", 2, 512, 128, 1e-5, x_sigma=1e-3)

    rms_per_head_case("small", "n_tokens=2, num_heads=2, head_dim=64, tg=64", 2, 2, 64, 64, 1e-6)
    rms_per_head_case("realistic", "n_tokens=8, num_heads=32, head_dim=128, tg=256 (128 idle threads, the "
                      "header's sweet spot)", 8, 32, 128, 256, 1e-6)
    rms_per_head_case("ragged", "n_tokens=1, num_heads=3, head_dim=100, tg=48 (partial second SIMD group, "
                      "strided loop)", 1, 3, 100, 48, 1e-6)
    rms_per_head_case("tg32", "n_tokens=4, num_heads=4, head_dim=256, tg=32 (one SIMD group, 8 elements per "
                      "thread), eps=1e-5", 4, 4, 256, 32, 1e-5)

    rms_norm_qk_case("small", "n_tokens=2, num_k_heads=2, key_dim=32, tg=32, q|k regions adjacent", 2, 2, 32,
                     32)
    rms_norm_qk_case("realistic", "n_tokens=4, num_k_heads=16, key_dim=128, tg=128; per token [q 2048 | k 2048 "
                     "| v 4096] (Qwen3-Next linear-attention qkv; v must stay untouched)", 4, 16, 128, 128,
                     v_len=4096)
    rms_norm_qk_case("ragged", "n_tokens=1, num_k_heads=3, key_dim=100, tg=128 (28 threads with tid >= "
                     "key_dim), 20 padding floats between q and k, 50 trailing floats", 1, 3, 100, 128,
                     pad=20, v_len=50)

    gated_rms_norm_case("small", "n_tokens=2, num_v_heads=2, value_dim=32, tg=32", 2, 2, 32, 32)
    gated_rms_norm_case("realistic", "n_tokens=4, num_v_heads=32, value_dim=128, tg=128", 4, 32, 128, 128)
    gated_rms_norm_case("ragged", "n_tokens=1, num_v_heads=3, value_dim=100, tg=128 (28 idle threads), "
                        "eps=1e-5", 1, 3, 100, 128, eps=1e-5)

    # ── routing
    softmax_topk_case("small", "n_tokens=2, n_experts=16, k=2, tg=32 (16 idle lanes)", 2, 16, 2, 32)
    softmax_topk_case("realistic", "n_tokens=8, n_experts=128, k=8, tg=128", 8, 128, 8, 128)
    softmax_topk_case("ragged", "n_tokens=1, n_experts=37, k=3, tg=48 (partial second SIMD group)", 1, 37, 3,
                      48)
    softmax_topk_case("caps", "n_tokens=2, n_experts=512, k=16, tg=64 (MAX_EXPERTS and MAX_K)", 2, 512, 16, 64)
    softmax_topk_case("k1", "n_tokens=3, n_experts=100, k=1, tg=32", 3, 100, 1, 32)

    normalize_weights_case("small", "n_tokens=2, k=2, tg=2", 2, 2, 2)
    normalize_weights_case("realistic", "n_tokens=16, k=8, tg=8", 16, 8, 8)
    normalize_weights_case("ragged", "n_tokens=3, k=5, tg=8 (3 threads with lid >= k)", 3, 5, 8,
                           zero_rows=(1,))
    normalize_weights_case("nonpositive_sum", "n_tokens=4, k=16, tg=16: one all-zero row and one with a "
                           "negative sum", 4, 16, 16, zero_rows=(0,), nonpos_rows=(2,))
