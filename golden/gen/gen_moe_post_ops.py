"""Golden cases for the four kernels of moe_post_ops.metal:
silu_mul_stacked_f32, weighted_sum_stacked_f32,
weighted_sum_residual_stacked_f32, weighted_sum_residual_norm_stacked_f32."""
import math

import numpy as np

from common import (U, SAFETY, Case, f32, rng_for, reset_kernel_dir, round_up_2sig,
                    tol_from_bound, fast_exp_rel_err)

KERNELS = ["silu_mul_stacked_f32", "weighted_sum_stacked_f32",
           "weighted_sum_residual_stacked_f32", "weighted_sum_residual_norm_stacked_f32"]

silu_params = np.dtype([("ffn", "<i4"), ("n_slots", "<i4")])
wsum_params = np.dtype([("hidden", "<i4"), ("n_slots", "<i4")])
wsum_norm_params = np.dtype([("hidden", "<i4"), ("n_slots", "<i4"), ("eps", "<f4")])


def routing_weights(rng, n):
    w = rng.uniform(0.2, 1.0, size=n)
    return f32(w / w.sum())


# ── silu_mul_stacked_f32: out[s,i] = g/(1+exp(-g)) * u; grid (ceil(ffn/256), n_slots)
def silu(case, desc, ffn, n_slots, extra_x=0, extra_y=0):
    k = "silu_mul_stacked_f32"
    rng = rng_for(k, case)
    gate = f32(rng.normal(0.0, 2.0, size=(n_slots, ffn)))
    up = f32(rng.normal(0.0, 1.0, size=(n_slots, ffn)))
    g = gate.astype(np.float64)
    out = g / (1.0 + np.exp(-g)) * up.astype(np.float64)
    gmax = float(np.abs(g).max())
    # exp (fast-math bound), 1+e (U), division (2.5 ulp = 5U), product (U).
    rel = fast_exp_rel_err(gmax) + 7.0 * U
    atol, rtol = tol_from_bound(out, rel * np.abs(out), rel)
    c = Case(k, case, desc)
    c.threadgroups([math.ceil(ffn / 256) + extra_x, n_slots + extra_y, 1], [256, 1, 1])
    c.read(0, "gate", gate)
    c.read(1, "up", up)
    c.write(2, "out", f32(out), atol, rtol,
            "purely multiplicative error: fast-math exp <= 3+floor(2*max|g|)=%d ulp (max|g|=%.2f), "
            "1+e, a <=2.5-ulp division and a product: rel bound %.2e; x%g safety -> rtol; atol is only "
            "the floor %g*U*median|out|" % (3 + math.floor(2 * gmax), gmax, rel, SAFETY, SAFETY))
    c.read(3, "p", np.array([(ffn, n_slots)], dtype=silu_params))
    c.save()


# ── weighted sums
def wsum_bound(slots, w, resid=None):
    n = slots.shape[0]
    terms = np.abs(w.astype(np.float64)[:, None] * slots.astype(np.float64))
    s = terms.sum(axis=0)
    ops = n  # n products folded into n additions (FMA or not): <= (n+1)U * S
    if resid is not None:
        s = s + np.abs(resid.astype(np.float64))
        ops += 1
    return (ops + 1) * U * s, ops


def wsum(kernel, case, desc, hidden, n_slots, extra_x=0):
    rng = rng_for(kernel, case)
    slots = f32(rng.normal(0.0, 0.5, size=(n_slots, hidden)))
    w = routing_weights(rng, n_slots)
    v = (w.astype(np.float64)[:, None] * slots.astype(np.float64)).sum(axis=0)
    c = Case(kernel, case, desc)
    c.threadgroups([math.ceil(hidden / 256) + extra_x, 1, 1], [256, 1, 1])
    c.read(0, "slots", slots)
    c.read(1, "weights", w)
    if kernel == "weighted_sum_stacked_f32":
        bound, ops = wsum_bound(slots, w)
        atol, rtol = tol_from_bound(v, bound, 2 * U)
        c.write(2, "out", f32(v), atol, rtol,
                "sum of %d products w[s]*slots[s,i] in float32: first-order bound %d*U*sum|w*slot| "
                "per element (order/FMA independent); x%g safety, max over elements -> atol "
                "(covers cancellation); rtol covers the final rounding" % (n_slots, ops + 1, SAFETY))
    else:
        resid = f32(rng.normal(0.0, 1.0, size=hidden))
        r = resid.astype(np.float64) + v
        bound, ops = wsum_bound(slots, w, resid)
        atol, rtol = tol_from_bound(r, bound, 2 * U)
        c.read_write(2, "residual", resid, f32(r), atol, rtol,
                     "residual[i] + sum of %d products in float32: bound %d*U*(|residual|+sum|w*slot|) "
                     "per element; x%g safety, max over elements -> atol" % (n_slots, ops + 1, SAFETY))
    c.read(3, "p", np.array([(hidden, n_slots)], dtype=wsum_params))
    c.save()


# ── weighted_sum_residual_norm_stacked_f32: ONE threadgroup of 256 threads
def wsum_norm(case, desc, hidden, n_slots, eps):
    k = "weighted_sum_residual_norm_stacked_f32"
    rng = rng_for(k, case)
    slots = f32(rng.normal(0.0, 0.5, size=(n_slots, hidden)))
    w = routing_weights(rng, n_slots)
    resid = f32(rng.normal(0.0, 1.0, size=hidden))
    nw = f32(rng.normal(1.0, 0.1, size=hidden))
    r = resid.astype(np.float64) + (w.astype(np.float64)[:, None] * slots.astype(np.float64)).sum(axis=0)
    eps = float(np.float32(eps))
    scale = 1.0 / math.sqrt(float(np.sum(r * r)) / hidden + eps)
    normed = r * scale * nw.astype(np.float64)
    er, ops = wsum_bound(slots, w, resid)
    # Reduction: ceil(hidden/256) strided adds, 5 simd_sum levels, 8 partials.
    depth = math.ceil(hidden / 256) + 5 + 8
    from common import rms_inv_rel_err
    rel_s = rms_inv_rel_err(r, depth, er)
    rel_n = rel_s + 2 * U
    bound_n = rel_n * np.abs(normed) + np.abs(scale * nw.astype(np.float64)) * er
    atol_r, rtol_r = tol_from_bound(r, er, 2 * U)
    atol_n, rtol_n = tol_from_bound(normed, bound_n, rel_n)
    c = Case(k, case, desc)
    c.threadgroups([1, 1, 1], [256, 1, 1])
    c.read(0, "slots", slots)
    c.read(1, "weights", w)
    c.read_write(2, "residual", resid, f32(r), atol_r, rtol_r,
                 "residual + sum of %d products: bound %d*U*(|residual|+sum|w*slot|) per element, "
                 "x%g safety -> atol" % (n_slots, ops + 1, SAFETY))
    c.read(3, "next_norm_w", nw)
    c.write(4, "normed_out", f32(normed), atol_n, rtol_n,
            "scale = 1/sqrt(sum r^2/hidden+eps): sum of %d squares (kernel depth %d + 2*sqrt(n) "
            "allowance) plus the residual's own error, /hidden, sqrt, division (12U): rel %.2e; "
            "two products (2U) -> rtol after x%g; the residual's absolute error times scale*w -> atol"
            % (hidden, depth, rel_s, SAFETY))
    c.read(5, "p", np.array([(hidden, n_slots, eps)], dtype=wsum_norm_params))
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    silu("small", "ffn=300 (ragged: 2 threadgroups, 212 idle threads), n_slots=2", 300, 2)
    silu("realistic", "Qwen3-30B-A3B expert FFN: ffn=768, n_slots=8 (top_k 8)", 768, 8)
    silu("ragged", "ffn=257 (one live thread in the 2nd threadgroup), n_slots=1, one extra "
         "threadgroup row (grid y = n_slots+1) that must hit the slot guard", 257, 1, extra_y=1)
    silu("ragged_extra_x", "ffn=5, n_slots=3, grid x = 2 (one whole threadgroup past ffn) and "
         "grid y = 5 (two slots past n_slots)", 5, 3, extra_x=1, extra_y=2)

    for k in ["weighted_sum_stacked_f32", "weighted_sum_residual_stacked_f32"]:
        wsum(k, "small", "hidden=300 (ragged), n_slots=2", 300, 2)
        wsum(k, "realistic", "Qwen3-30B-A3B: hidden=2048, n_slots=8", 2048, 8)
        wsum(k, "ragged", "hidden=1001, n_slots=1, grid x = ceil(1001/256)+1 = 5 (one threadgroup "
             "wholly past hidden)", 1001, 1, extra_x=1)
        wsum(k, "tiny", "hidden=1, n_slots=3: one live thread", 1, 3)

    wsum_norm("small", "hidden=300 (ragged: 2 strided iterations for 44 threads), n_slots=2, eps=1e-6",
              300, 2, 1e-6)
    wsum_norm("realistic", "Qwen3-30B-A3B: hidden=2048, n_slots=8, eps=1e-6", 2048, 8, 1e-6)
    wsum_norm("ragged", "hidden=100 (< 256: SIMD groups 4..7 hold no element and contribute 0), "
              "n_slots=1, eps=1e-5", 100, 1, 1e-5)
    wsum_norm("ragged_1001", "hidden=1001, n_slots=3, eps=1e-6", 1001, 3, 1e-6)
