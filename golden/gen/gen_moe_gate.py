"""Golden cases for moe_gate (moe_gate.metal): RMS-norm of a bf16 hidden state,
router mat-vec, top-k by logit, softmax over the selected logits, times
per_expert_scale, renormalised."""
import math

import numpy as np

from common import (U, SAFETY, Case, f32, u32, bf16_round, rng_for, reset_kernel_dir,
                    rms_inv_rel_err, tol_from_bound, fast_exp_rel_err, tree_depth)

KERNEL = "moe_gate"


def target_logits(rng, n_exp, k):
    """Target router logits: the k+1 largest are 0.15..0.6 apart, the rest sit
    at least 0.15 below them; the assignment to experts is a random permutation."""
    top = 2.0 - np.concatenate([[0.0], np.cumsum(rng.uniform(0.15, 0.6, size=k))])
    rest = top[-1] - 0.15 - np.abs(rng.normal(0.0, 1.5, size=n_exp - k - 1))
    return rng.permutation(np.concatenate([top, rest]))


def gate_case(case, desc, seq, hidden, n_exp, top_k, eps, tg=128):
    assert n_exp >= tg and n_exp <= 128 and top_k <= 8 and top_k <= n_exp
    rng = rng_for(KERNEL, case)
    eps = float(np.float32(eps))
    bits, h = bf16_round(f32(rng.normal(0.0, 1.0, size=(seq, hidden))))
    nw = f32(rng.normal(1.0, 0.1, size=hidden))
    scale = f32(rng.uniform(0.5, 1.5, size=n_exp))
    rho = 1.0 / np.sqrt((h * h).sum(axis=1) / hidden + eps)
    hn = h * rho[:, None] * nw.astype(np.float64)              # (seq, hidden)
    depth = tree_depth(hidden, tg)
    rel_rho = max(rms_inv_rel_err(h[t], depth) for t in range(seq))
    for attempt in range(100):
        # Plant well-separated logits: random small weights, then a correction
        # inside the span of the tokens' normed hidden states so that every
        # token gets its drawn target logits.
        w = rng.normal(0.0, 0.002, size=(n_exp, hidden))
        L = np.stack([target_logits(rng, n_exp, top_k) for _ in range(seq)])   # (seq, E)
        C = np.linalg.solve(hn @ hn.T, (L - hn @ w.T)).T                             # (E, seq)
        W = f32(w + C @ hn)
        Wd = W.astype(np.float64)
        logits = hn @ Wd.T                                                           # exact reference
        absdot = np.abs(hn) @ np.abs(Wd).T
        # Rigorous worst-case error of a float32 dot in ANY order, incl. rounding
        # of the stored normed hidden (2 products -> 2U) and the rsqrt error.
        rig = (hidden + 3) * U * absdot + rel_rho * np.abs(logits)
        ok = True
        for t in range(seq):
            order = np.argsort(-logits[t], kind="stable")[:top_k + 1]
            for a, b in zip(order[:-1], order[1:]):
                if logits[t, a] - logits[t, b] <= 2.0 * (rig[t, a] + rig[t, b]):
                    ok = False
        if ok:
            break
    else:
        raise RuntimeError("moe_gate: could not plant robust logits")
    ids = np.zeros((seq, top_k), dtype=np.uint32)
    wts = np.zeros((seq, top_k))
    # Probabilistic logit error (the tolerance is about typical rounding, the
    # top-k robustness check above used the rigorous bound).
    est = (2.0 * math.sqrt(hidden) + 3) * U * absdot + rel_rho * np.abs(logits)
    R = 0.0
    min_gap = np.inf
    for t in range(seq):
        order = np.argsort(-logits[t], kind="stable")[:top_k]
        sel = logits[t, order]
        e = np.exp(sel - sel.max())
        sm = e / e.sum()
        sw = sm * scale.astype(np.float64)[order]
        ids[t] = order
        wts[t] = sw / sw.sum()
        x = sel - sel.max()
        err_l = float(est[t, order].max())
        R = max(R, 2 * max(fast_exp_rel_err(abs(v)) + U * abs(v) + 2 * err_l for v in x)
                + (2 * top_k + 12) * U)
        full = np.sort(logits[t])[::-1][:top_k + 1]
        min_gap = min(min_gap, float(np.min(full[:-1] - full[1:])))
    atol, rtol = tol_from_bound(wts, R * np.abs(wts), R)
    c = Case(KERNEL, case, desc)
    c.threadgroups([seq, 1, 1], [tg, 1, 1])
    c.tg_memory(0, (hidden + max(n_exp, tg)) * 4)
    c.read(0, "hidden_state", bits)
    c.read(1, "router_weights", W)
    c.read(2, "norm_weight", nw)
    c.read(3, "per_expert_scale", scale)
    c.write(4, "expert_ids", ids, 0, 0,
            "integer output: exact. The k+1 largest logits of every token are >= %.3f apart, more than "
            "4x the rigorous any-order float32 error bound of the %d-term router dot product"
            % (min_gap, hidden))
    c.write(5, "expert_weights", f32(wts), atol, rtol,
            "logit error estimate (2*sqrt(hidden)+3)*U*sum|h_d*W_ed| + rsqrt error %.1e*|logit|; a weight's "
            "relative error is twice (exp argument error from two logits + fast-math exp 3+floor(2|x|) ulp) "
            "+ (2k+12)U for the divisions and products: rel %.2e, x%g -> rtol" % (rel_rho, R, SAFETY))
    c.read(6, "hidden_dim", u32([hidden]))
    c.read(7, "n_experts", u32([n_exp]))
    c.read(8, "top_k", u32([top_k]))
    c.read(9, "rms_eps", f32([eps]))
    c.save()


def generate():
    reset_kernel_dir(KERNEL)
    gate_case("small", "seq_len=2, hidden=128 (one element per thread), 128 experts, top_k=2", 2, 128,
              128, 2, 1e-6)
    gate_case("realistic", "seq_len=4, hidden=2048, 128 experts, top_k=8 (Qwen3-30B-A3B router)", 4, 2048,
              128, 8, 1e-6)
    gate_case("ragged", "seq_len=3, hidden=1000 (not a multiple of 128), 128 experts, top_k=5, eps=1e-5",
              3, 1000, 128, 5, 1e-5)
    gate_case("tg64", "seq_len=2, hidden=333, 100 experts, top_k=8, 64 threads per threadgroup (outside "
              "the header's 128-thread dispatch but inside the code's preconditions: n_experts >= tg_size, "
              "n_experts <= 128, top_k <= 8)", 2, 333, 100, 8, 1e-6, tg=64)
