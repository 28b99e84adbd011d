"""Golden cases for the eight kernels of fused_norm_ops.metal."""
import math

import numpy as np

from common import (U, SAFETY, Case, f32, u32, rng_for, reset_kernel_dir, norm_tg, tree_depth, round_up_2sig,
                    rms_inv_rel_err, tol_from_bound, fast_exp_rel_err)

KERNELS = ["fused_moe_wsum_norm_add_f32", "fused_moe_wsum_dnorm_add_f32", "fused_norm_add_f32",
           "fused_residual_norm_f32", "fused_residual_norm_scalar_f32", "fused_moe_routing_f32",
           "fused_moe_routing_batch_f32", "fused_norm_add_scalar_f32"]

residual_norm_params = np.dtype([("dim", "<u4"), ("rows", "<u4"), ("eps", "<f4"), ("write_sum", "<u4")])
scalar_params = np.dtype([("dim", "<u4"), ("rows", "<u4"), ("eps", "<f4"), ("scalar_is_vector", "<u4")])
routing_params = np.dtype([("num_experts", "<u4"), ("top_k", "<u4")])

RSQRT_NOTE = ("rms_inv = rsqrt(sum x^2/dim + eps): relative error <= (kernel tree depth %d + 2*sqrt(dim) "
              "allowance for a reassociating port + error already in x) * U / 2 + 12U (fast-math "
              "division, +eps, rsqrt <= 2 ulp) = %.2e (max over rows)")


def f32eps(eps):
    return float(np.float32(eps))


def topk_weights(rng, rows, k):
    w = rng.uniform(0.2, 1.0, size=(rows, k))
    return f32(w / w.sum(axis=1, keepdims=True))


def moe_wsum(eo, w):
    """v[r,d] = sum_k eo[r,k,d]*w[r,k]; returns (v, abs error bound)."""
    terms = eo.astype(np.float64) * w.astype(np.float64)[:, :, None]
    k = eo.shape[1]
    return terms.sum(axis=1), (k + 1) * U * np.abs(terms).sum(axis=1)


def rms_inv_rows(x, eps, depth, ex=None):
    x = np.asarray(x, dtype=np.float64)
    rho = 1.0 / np.sqrt((x * x).sum(axis=1) / x.shape[1] + eps)
    rel = max(rms_inv_rel_err(x[r], depth, None if ex is None else ex[r]) for r in range(x.shape[0]))
    return rho[:, None], rel


def grid_note(rows, dispatched):
    return "" if dispatched == rows else " Grid has %d threadgroups for %d rows (row guard)." % (dispatched, rows)


# ── fused_moe_wsum_norm_add_f32 ─────────────────────────────────────────────
def wsum_norm_add(case, desc, rows, dim, top_k, eps, extra_rows=0):
    kname = "fused_moe_wsum_norm_add_f32"
    rng = rng_for(kname, case)
    eps = f32eps(eps)
    tg = norm_tg(dim)
    eo = f32(rng.normal(0.0, 0.5, size=(rows, top_k, dim)))
    w = topk_weights(rng, rows, top_k)
    res = f32(rng.normal(0.0, 1.0, size=(rows, dim)))
    nw = f32(rng.normal(1.0, 0.1, size=dim))
    v, ev = moe_wsum(eo, w)
    depth = tree_depth(dim, tg)
    rho, rel_rho = rms_inv_rows(v, eps, depth, ev)
    normed = v * rho * nw.astype(np.float64)
    out = res.astype(np.float64) + normed
    bound = np.abs(normed) * (rel_rho + 2 * U) + np.abs(rho * nw) * ev + U * np.abs(out)
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc + grid_note(rows, rows + extra_rows))
    c.threadgroups([rows + extra_rows, 1, 1], [tg, 1, 1])
    c.tg_memory(0, (tg + dim) * 4)
    c.read(0, "expert_outputs", eo)
    c.read(1, "weights", w)
    c.read(2, "residual", res)
    c.read(3, "norm_weight", nw)
    c.write(4, "output", f32(out), atol, rtol,
            (RSQRT_NOTE % (depth, rel_rho)) + "; weighted sum of %d products (abs error (k+1)*U*sum|terms|) "
            "scaled by rms_inv*w, two products and the residual add (cancellation possible, so it goes to "
            "atol); per-element bound x%g, max over elements" % (top_k, SAFETY))
    c.read(5, "dim", u32([dim]))
    c.read(6, "top_k", u32([top_k]))
    c.read(7, "rows", u32([rows]))
    c.read(8, "eps", f32([eps]))
    c.save()


# ── fused_moe_wsum_dnorm_add_f32 ────────────────────────────────────────────
def wsum_dnorm_add(case, desc, rows, dim, top_k, eps, extra_rows=0):
    kname = "fused_moe_wsum_dnorm_add_f32"
    rng = rng_for(kname, case)
    eps = f32eps(eps)
    tg = norm_tg(dim)
    eo = f32(rng.normal(0.0, 0.5, size=(rows, top_k, dim)))
    w = topk_weights(rng, rows, top_k)
    res = f32(rng.normal(0.0, 3.0, size=(rows, dim)))
    rnw = f32(rng.normal(1.0, 0.1, size=dim))
    mnw = f32(rng.normal(0.5, 0.1, size=dim))
    v, ev = moe_wsum(eo, w)
    depth = tree_depth(dim, tg)
    rho_r, rel_r = rms_inv_rows(res, eps, depth)
    rho_w, rel_w = rms_inv_rows(v, eps, depth, ev)
    a = res.astype(np.float64) * rho_r * rnw.astype(np.float64)
    b = v * rho_w * mnw.astype(np.float64)
    out = a + b
    bound = (np.abs(a) * (rel_r + 2 * U) + np.abs(b) * (rel_w + 2 * U) + np.abs(rho_w * mnw) * ev
             + U * np.abs(out))
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc + grid_note(rows, rows + extra_rows))
    c.threadgroups([rows + extra_rows, 1, 1], [tg, 1, 1])
    c.tg_memory(0, (2 * tg + dim) * 4)
    c.read(0, "expert_outputs", eo)
    c.read(1, "weights", w)
    c.read(2, "residual", res)
    c.read(3, "res_norm_weight", rnw)
    c.read(4, "moe_norm_weight", mnw)
    c.write(5, "output", f32(out), atol, rtol,
            "two rms_inv values, each as in: " + (RSQRT_NOTE % (depth, max(rel_r, rel_w))) +
            "; plus the weighted sum's abs error (k+1)*U*sum|terms| scaled by rms_inv_w*w and the final "
            "add of two normed terms (cancellation possible -> atol); per-element bound x%g" % SAFETY)
    c.read(6, "dim", u32([dim]))
    c.read(7, "top_k", u32([top_k]))
    c.read(8, "rows", u32([rows]))
    c.read(9, "eps", f32([eps]))
    c.save()


# ── fused_norm_add_f32: output = residual + rms_norm(input)*weight ─────────
def norm_add(case, desc, rows, dim, eps, extra_rows=0, x_sigma=2.0):
    kname = "fused_norm_add_f32"
    rng = rng_for(kname, case)
    eps = f32eps(eps)
    tg = norm_tg(dim)
    res = f32(rng.normal(0.0, 1.0, size=(rows, dim)))
    x = f32(rng.normal(0.0, x_sigma, size=(rows, dim)))
    wt = f32(rng.normal(1.0, 0.1, size=dim))
    depth = tree_depth(dim, tg)
    rho, rel = rms_inv_rows(x, eps, depth)
    normed = x.astype(np.float64) * rho * wt.astype(np.float64)
    out = res.astype(np.float64) + normed
    bound = np.abs(normed) * (rel + 2 * U) + U * np.abs(out)
    atol, rtol = tol_from_bound(out, bound, U)
    c = Case(kname, case, desc + grid_note(rows, rows + extra_rows))
    c.threadgroups([rows + extra_rows, 1, 1], [tg, 1, 1])
    c.tg_memory(0, tg * 4)
    c.read(0, "residual", res)
    c.read(1, "input", x)
    c.read(2, "weight", wt)
    c.write(3, "output", f32(out), atol, rtol,
            (RSQRT_NOTE % (depth, rel)) + "; times |input*w*rms_inv| plus two products and the "
            "residual add (cancellation possible -> atol); per-element bound x%g" % SAFETY)
    c.read(4, "dim", u32([dim]))
    c.read(5, "rows", u32([rows]))
    c.read(6, "eps", f32([eps]))
    c.save()


# ── fused_residual_norm_f32 ─────────────────────────────────────────────────
def residual_norm(case, desc, rows, dim, eps, write_sum, sigma=1.0):
    kname = "fused_residual_norm_f32"
    rng = rng_for(kname, case)
    eps = f32eps(eps)
    tg = norm_tg(dim)
    res = f32(rng.normal(0.0, sigma, size=(rows, dim)))
    x = f32(rng.normal(0.0, sigma, size=(rows, dim)))
    wt = f32(rng.normal(1.0, 0.1, size=dim))
    s = res.astype(np.float64) + x.astype(np.float64)
    depth = tree_depth(dim, tg)
    rho, rel = rms_inv_rows(s, eps, depth, U * np.abs(s))
    normed = s * rho * wt.astype(np.float64)
    relo = rel + 3 * U
    atol, rtol = tol_from_bound(normed, relo * np.abs(normed), relo)
    c = Case(kname, case, desc)
    # No row guard in this kernel: the grid must be exactly `rows` threadgroups.
    c.threadgroups([rows, 1, 1], [tg, 1, 1])
    # shared[i] is written for every i < dim (phase 1) and shared[tid] for tid < tg_size.
    c.tg_memory(0, max(dim, tg) * 4)
    c.read(0, "residual", res)
    c.read(1, "input", x)
    c.read(2, "weight", wt)
    c.write(3, "normed_output", f32(normed), atol, rtol,
            (RSQRT_NOTE % (depth, rel)) + "; s=residual+input rounded once (U), two products: "
            "purely multiplicative -> rtol (x%g); atol is only the floor" % SAFETY)
    if write_sum:
        c.write(4, "sum_output", f32(s), 0.0, round_up_2sig(2 * U),
                "a single float32 addition residual+input, correctly rounded: |err| <= U*|s|; rtol=2U")
    else:
        sentinel = f32(rng.normal(0.0, 7.0, size=(rows, dim)))
        c.read_write(4, "sum_output", sentinel, sentinel, 0.0, 0.0,
                     "write_sum=0: the kernel must not write sum_output; expected == initial contents, "
                     "exactly")
    c.read(5, "params", np.array([(dim, rows, eps, 1 if write_sum else 0)], dtype=residual_norm_params))
    c.save()


# ── fused_residual_norm_scalar_f32 / fused_norm_add_scalar_f32 ──────────────
def scalar_buffer(rng, dim, is_vector, long_broadcast):
    if is_vector:
        return f32(rng.uniform(0.5, 1.5, size=dim))
    if long_broadcast:
        # Broadcast mode with a [dim] buffer of distinct values: only scalar[0] may be used.
        return f32(rng.uniform(0.5, 1.5, size=dim))
    return f32(rng.uniform(0.5, 1.5, size=1))


def residual_norm_scalar(case, desc, rows, dim, eps, is_vector, long_broadcast=False):
    kname = "fused_residual_norm_scalar_f32"
    rng = rng_for(kname, case)
    eps = f32eps(eps)
    tg = norm_tg(dim)
    res = f32(rng.normal(0.0, 1.0, size=(rows, dim)))
    x = f32(rng.normal(0.0, 1.0, size=(rows, dim)))
    wt = f32(rng.normal(1.0, 0.1, size=dim))
    sc = scalar_buffer(rng, dim, is_vector, long_broadcast)
    s = res.astype(np.float64) + x.astype(np.float64)
    depth = tree_depth(dim, tg)
    rho, rel = rms_inv_rows(s, eps, depth, U * np.abs(s))
    scv = sc.astype(np.float64) if is_vector else float(sc[0])
    out = s * rho * wt.astype(np.float64) * scv
    relo = rel + 4 * U
    atol, rtol = tol_from_bound(out, relo * np.abs(out), relo)
    c = Case(kname, case, desc)
    c.threadgroups([rows, 1, 1], [tg, 1, 1])          # no row guard: exactly `rows`
    c.tg_memory(0, max(dim, tg) * 4)                  # shared[i] written for i < dim
    c.read(0, "residual", res)
    c.read(1, "input", x)
    c.read(2, "weight", wt)
    c.write(3, "output", f32(out), atol, rtol,
            (RSQRT_NOTE % (depth, rel)) + "; s=residual+input (U), three products (3U): purely "
            "multiplicative -> rtol (x%g); atol is only the floor" % SAFETY)
    c.read(4, "scalar", sc)
    c.read(5, "params", np.array([(dim, rows, eps, 1 if is_vector else 0)], dtype=scalar_params))
    c.save()


def norm_add_scalar(case, desc, rows, dim, eps, is_vector, extra_rows=0, long_broadcast=False):
    kname = "fused_norm_add_scalar_f32"
    rng = rng_for(kname, case)
    eps = f32eps(eps)
    tg = norm_tg(dim)
    res = f32(rng.normal(0.0, 1.0, size=(rows, dim)))
    x = f32(rng.normal(0.0, 2.0, size=(rows, dim)))
    wt = f32(rng.normal(1.0, 0.1, size=dim))
    sc = scalar_buffer(rng, dim, is_vector, long_broadcast)
    depth = tree_depth(dim, tg)
    rho, rel = rms_inv_rows(x, eps, depth)
    scv = sc.astype(np.float64) if is_vector else float(sc[0])
    normed = x.astype(np.float64) * rho * wt.astype(np.float64)
    summ = res.astype(np.float64) + normed
    out = summ * scv
    bound = (np.abs(normed) * (rel + 2 * U) + U * np.abs(summ)) * np.abs(scv) + U * np.abs(out)
    atol, rtol = tol_from_bound(out, bound, 2 * U)
    c = Case(kname, case, desc + grid_note(rows, rows + extra_rows))
    c.threadgroups([rows + extra_rows, 1, 1], [tg, 1, 1])
    c.tg_memory(0, tg * 4)
    c.read(0, "residual", res)
    c.read(1, "input", x)
    c.read(2, "weight", wt)
    c.write(3, "output", f32(out), atol, rtol,
            (RSQRT_NOTE % (depth, rel)) + "; times |input*w*rms_inv|, residual add (cancellation -> "
            "atol), then the scalar product; per-element bound x%g" % SAFETY)
    c.read(4, "scalar", sc)
    c.read(5, "params", np.array([(dim, rows, eps, 1 if is_vector else 0)], dtype=scalar_params))
    c.save()


# ── routing ─────────────────────────────────────────────────────────────────
def gapped_logits(rng, n, k, sigma=2.0, min_gap=0.05):
    """float32 logits whose k+1 largest values are separated by >= min_gap,
    so the top-k set and its order are immune to float32 rounding."""
    for _ in range(10000):
        l = f32(rng.normal(0.0, sigma, size=n))
        top = np.sort(l.astype(np.float64))[::-1][:min(k + 1, n)]
        if top.size < 2 or np.min(top[:-1] - top[1:]) >= min_gap:
            return l
    raise RuntimeError("could not draw gapped logits")


def routing_ref(logits, scale, k):
    l = logits.astype(np.float64)
    p = np.exp(l - l.max())
    p /= p.sum()
    order = np.argsort(-l, kind="stable")[:k]
    sel = p[order]
    w = sel / sel.sum() * scale.astype(np.float64)[order]
    x = l[order] - l.max()
    rel = 2 * max(fast_exp_rel_err(abs(float(v))) + U * abs(float(v)) for v in x) + (2 * k + 16) * U
    return order.astype(np.uint32), w, rel


ROUTING_NOTE = ("w_k = p_k / sum_topk(p) * scale[e_k]: the softmax denominator cancels, so the error is "
                "twice the worst fast-math exp error over the selected logits (3+floor(2|x|) ulp plus U|x| "
                "from x = l - max) + (2k+16)U for the divisions, the top-k sum and the scale product: "
                "rel %.2e; x%g -> rtol.  Expert ids are integers (exact); logits have >= 0.05 gaps among "
                "the k+1 largest so the selection cannot flip under float32 rounding")


# Both routing kernels keep exp values in shared[num_experts + i] and the
# reduction scratch in shared[tid]: they only work when tg <= num_experts
# (a larger threadgroup overwrites exp values with its partial sums).
def check_routing_preconditions(n_exp, tg):
    assert tg <= n_exp, "routing kernels need threads_per_threadgroup <= num_experts"
    assert tg & (tg - 1) == 0, "tree reduction needs a power-of-two threadgroup"


def routing(case, desc, n_exp, top_k, tg):
    check_routing_preconditions(n_exp, tg)
    kname = "fused_moe_routing_f32"
    rng = rng_for(kname, case)
    logits = gapped_logits(rng, n_exp, top_k)
    scale = f32(rng.uniform(0.5, 1.5, size=n_exp))
    ids, w, rel = routing_ref(logits, scale, top_k)
    atol, rtol = tol_from_bound(w, rel * np.abs(w), rel)
    c = Case(kname, case, desc)
    c.threadgroups([1, 1, 1], [tg, 1, 1])
    c.tg_memory(0, max(tg, 2 * n_exp) * 4)     # shared[tid] and shared[num_experts + i]
    c.read(0, "logits", logits)
    c.write(1, "expert_ids", ids, 0, 0, "integer output: exact")
    c.write(2, "routing_weights", f32(w), atol, rtol, ROUTING_NOTE % (rel, SAFETY))
    c.read(3, "per_expert_scale", scale)
    c.read(4, "params", np.array([(n_exp, top_k)], dtype=routing_params))
    c.save()


def routing_batch(case, desc, n_tok, n_exp, top_k, tg):
    check_routing_preconditions(n_exp, tg)
    kname = "fused_moe_routing_batch_f32"
    rng = rng_for(kname, case)
    logits = np.stack([gapped_logits(rng, n_exp, top_k) for _ in range(n_tok)])
    scale = f32(rng.uniform(0.5, 1.5, size=n_exp))
    ids = np.zeros((n_tok, top_k), dtype=np.uint32)
    w = np.zeros((n_tok, top_k))
    rel = 0.0
    for t in range(n_tok):
        ids[t], w[t], r = routing_ref(logits[t], scale, top_k)
        rel = max(rel, r)
    atol, rtol = tol_from_bound(w, rel * np.abs(w), rel)
    c = Case(kname, case, desc)
    c.threadgroups([n_tok, 1, 1], [tg, 1, 1])      # no token guard: exactly n_tokens
    c.tg_memory(0, max(tg, 2 * n_exp) * 4)
    c.read(0, "logits_all", logits)
    c.write(1, "expert_ids_all", ids, 0, 0, "integer output: exact")
    c.write(2, "routing_weights_all", f32(w), atol, rtol, ROUTING_NOTE % (rel, SAFETY))
    c.read(3, "per_expert_scale", scale)
    c.read(4, "params", np.array([(n_exp, top_k)], dtype=routing_params))
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)

    wsum_norm_add("small", "rows=2, dim=300 (tg 256, ragged), top_k=2, eps=1e-6", 2, 300, 2, 1e-6)
    wsum_norm_add("realistic", "rows=8, dim=2048, top_k=8, eps=1e-6", 8, 2048, 8, 1e-6)
    wsum_norm_add("ragged", "rows=3, dim=100 (tg 128: 28 idle threads), top_k=1, eps=1e-5.", 3, 100, 1,
                  1e-5, extra_rows=2)
    wsum_norm_add("ragged_1000", "rows=5, dim=1000 (tg 256, 4 strided iterations, last partial), "
                  "top_k=3, eps=1e-6.", 5, 1000, 3, 1e-6, extra_rows=1)

    wsum_dnorm_add("small", "rows=2, dim=300 (tg 256, ragged), top_k=2, eps=1e-6", 2, 300, 2, 1e-6)
    wsum_dnorm_add("realistic", "rows=8, dim=2048, top_k=8, eps=1e-6", 8, 2048, 8, 1e-6)
    wsum_dnorm_add("ragged", "rows=3, dim=100 (tg 128), top_k=1, eps=1e-5.", 3, 100, 1, 1e-5,
                   extra_rows=2)
    wsum_dnorm_add("ragged_1000", "rows=5, dim=1000 (tg 256), top_k=3, eps=1e-6.", 5, 1000, 3, 1e-6,
                   extra_rows=1)

    norm_add("eps_dominant", "rows=2, dim=512, input ~1e-3 so mean(x^2)=1e-6 is below eps=1e-5", 2,
             512, 1e-5, x_sigma=1e-3)
    norm_add("small", "rows=2, dim=300 (tg 256), eps=1e-6", 2, 300, 1e-6)
    norm_add("realistic", "rows=16, dim=2048, eps=1e-6", 16, 2048, 1e-6)
    norm_add("ragged", "rows=3, dim=100 (tg 128), eps=1e-5.", 3, 100, 1e-5, extra_rows=2)
    norm_add("tiny", "rows=1, dim=3 (tg 4: one idle thread, 2-level tree), eps=1e-6.", 1, 3, 1e-6,
             extra_rows=1)

    residual_norm("eps_dominant", "rows=2, dim=512, values ~1e-3 so mean(s^2)=2e-6 is below eps=1e-5 "
                  "(eps must be added before rsqrt), write_sum=1", 2, 512, 1e-5, True, sigma=1e-3)
    residual_norm("small", "rows=2, dim=300 (tg 256, shared holds dim floats), write_sum=1", 2, 300,
                  1e-6, True)
    residual_norm("small_nosum", "rows=2, dim=300, write_sum=0: sum_output must stay untouched", 2, 300,
                  1e-6, False)
    residual_norm("realistic", "rows=16, dim=2048 (shared 8 KB), write_sum=1", 16, 2048, 1e-6, True)
    residual_norm("realistic_nosum", "rows=16, dim=2048, write_sum=0", 16, 2048, 1e-6, False)
    residual_norm("ragged", "rows=3, dim=1000 (tg 256), write_sum=1, eps=1e-5", 3, 1000, 1e-5, True)
    residual_norm("ragged_nosum", "rows=1, dim=100 (tg 128: shared sized by tg), write_sum=0", 1, 100,
                  1e-6, False)

    residual_norm_scalar("small", "rows=2, dim=300, scalar_is_vector=0 (scalar[1])", 2, 300, 1e-6, False)
    residual_norm_scalar("small_vector", "rows=2, dim=300, scalar_is_vector=1 (scalar[dim])", 2, 300,
                         1e-6, True)
    residual_norm_scalar("realistic", "rows=16, dim=2048, scalar_is_vector=1", 16, 2048, 1e-6, True)
    residual_norm_scalar("realistic_broadcast", "rows=16, dim=2048, scalar_is_vector=0", 16, 2048, 1e-6,
                         False)
    residual_norm_scalar("ragged", "rows=3, dim=1000, scalar_is_vector=0 with a [dim] scalar buffer of "
                         "distinct values (only scalar[0] may be read)", 3, 1000, 1e-5, False,
                         long_broadcast=True)
    residual_norm_scalar("ragged_vector", "rows=1, dim=100 (tg 128), scalar_is_vector=1", 1, 100, 1e-6,
                         True)

    norm_add_scalar("small", "rows=2, dim=300, scalar_is_vector=0", 2, 300, 1e-6, False)
    norm_add_scalar("small_vector", "rows=2, dim=300, scalar_is_vector=1", 2, 300, 1e-6, True)
    norm_add_scalar("realistic", "rows=16, dim=2048, scalar_is_vector=1", 16, 2048, 1e-6, True)
    norm_add_scalar("realistic_broadcast", "rows=16, dim=2048, scalar_is_vector=0", 16, 2048, 1e-6, False)
    norm_add_scalar("ragged", "rows=3, dim=1000, scalar_is_vector=0 with a [dim] scalar buffer of "
                    "distinct values (only scalar[0] may be read).", 3, 1000, 1e-5, False, extra_rows=2,
                    long_broadcast=True)
    norm_add_scalar("ragged_vector", "rows=2, dim=100 (tg 128), scalar_is_vector=1.", 2, 100, 1e-6, True,
                    extra_rows=1)

    routing("small", "num_experts=16, top_k=2, tg=16 (one SIMD group; see README on the missing "
            "barrier)", 16, 2, 16)
    routing("realistic", "num_experts=128, top_k=8, tg=32 (one SIMD group, 4 experts per thread)", 128, 8,
            32)
    routing("ragged", "num_experts=37, top_k=3, tg=32 (5 threads own 2 experts)", 37, 3, 32)
    routing("single_thread", "num_experts=128, top_k=8, tg=1 (no cross-thread sharing at all)", 128, 8, 1)

    routing_batch("small", "n_tokens=3, num_experts=16, top_k=2, tg=16", 3, 16, 2, 16)
    routing_batch("realistic", "n_tokens=16, num_experts=128, top_k=8, tg=128", 16, 128, 8, 128)
    routing_batch("ragged", "n_tokens=5, num_experts=37, top_k=3, tg=32 (5 threads own 2 experts)", 5,
                  37, 3, 32)
    routing_batch("wide", "n_tokens=2, num_experts=100, top_k=1, tg=64 (36 threads own 2 experts)", 2,
                  100, 1, 64)
