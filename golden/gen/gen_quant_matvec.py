"""Golden cases for the 16 mat-vec kernels of moe_quant_shaders.metal:
dequant_matvec_4bit, dequant_matvec_4bit_fast, fused_gate_up_swiglu,
dequant_matvec_4bit_v3, dequant_matvec_4bit_v3_n_tokens,
dequant_matvec_4bit_fast_n_tokens, dequant_matvec_8bit_v3,
dequant_matvec_8bit_v3_n_tokens, dequant_matvec_4bit_v5, dequant_matvec_2bit,
dequant_matvec_4bit_v4, dequant_matvec_4bit_batched,
dequant_matvec_4bit_v3_experts, bf16_matvec, bf16_matmul_n_tokens,
embed_gather_4bit.

Weight format (MLX affine, as documented in the corpus header): every uint32
word packs 32/bits unsigned values, value n of a word in bits
[n*bits, (n+1)*bits) (lowest bits first; this is the shift order of every
kernel), rows of in_dim/(32/bits) words; per (row, group) a bfloat16 scale and
bias (uint16 bit patterns), w = q*scale + bias.  The data are produced the way
MLX quantises: a float weight matrix is quantised per group with
scale = (max-min)/(2^bits-1), bias = min; scale and bias are rounded to bf16
first and the reference uses exactly those values, so the float64 reference
W = q*scale + bias is the matrix the kernels see.

Every reference here is "dequantise, then matmul" in float64 (NumPy), written
from that format; nothing reads the kernels' code paths.

Error model (see tolerance notes): a dot product of n terms
t_i = (q_i*s + b)*x_i evaluated in float32 has, to first order, an absolute
error of at most (depth + 3) * U * sum_i (|q_i*s| + |b|) * |x_i|, where depth
is the longest chain of additions a term goes through in the kernel's
reduction (per-thread partial sum + 31 for a simd_sum over 32 lanes in any
order + the kernel's second stage) and the 3 covers the per-term roundings
(s*x, b*x and the fma of the v3 form; q*s+b and *x of the plain form; q*s is
exact: <= 8-bit integer times an 8-bit bf16 mantissa).  This holds for any
order inside each stage and with or without FMA contraction.  x4 safety.
"""
import math
import os

import numpy as np

from common import (U, SAFETY, Case, GOLDEN, bf16_round, dumps, f32, u32, rng_for,
                    reset_kernel_dir, round_up_2sig, tol_from_bound, fast_exp_rel_err)

KERNELS = ["dequant_matvec_4bit", "dequant_matvec_4bit_fast", "fused_gate_up_swiglu",
           "dequant_matvec_4bit_v3", "dequant_matvec_4bit_v3_n_tokens",
           "dequant_matvec_4bit_fast_n_tokens", "dequant_matvec_8bit_v3",
           "dequant_matvec_8bit_v3_n_tokens", "dequant_matvec_4bit_v5", "dequant_matvec_2bit",
           "dequant_matvec_4bit_v4", "dequant_matvec_4bit_batched",
           "dequant_matvec_4bit_v3_experts", "bf16_matvec", "bf16_matmul_n_tokens",
           "embed_gather_4bit"]

ROWS_PER_TG = 8          # #define ROWS_PER_TG / ROWS_PER_TG_V5 (8 SIMD groups of 32)
V3_THREADS = 256         # hard-coded: x_shared load strides by 256, 8 SIMD groups = 8 rows
X_SHARED = 4096          # threadgroup float x_shared[4096]
MAX_CASE_BYTES = 3_000_000


class QCase(Case):
    """common.Case with this module's per-case size cap (~3 MB, so a 4-bit
    4096x1024 weight with its scales and biases fits)."""

    def save(self):
        assert self.dispatch is not None
        total = sum(a.nbytes for a in self.files.values())
        assert total < MAX_CASE_BYTES, "%s/%s is %d bytes" % (self.kernel, self.case, total)
        d = os.path.join(GOLDEN, self.kernel, self.case)
        os.makedirs(d, exist_ok=True)
        for fname, arr in sorted(self.files.items()):
            np.save(os.path.join(d, fname), arr, allow_pickle=False)
        doc = {"kernel": self.kernel, "case": self.case, "description": self.description,
               "dispatch": self.dispatch,
               "buffers": sorted(self.buffers, key=lambda b: b["index"])}
        if self.tgmem:
            doc["threadgroup_memory"] = self.tgmem
        with open(os.path.join(d, "case.json"), "w") as f:
            f.write(dumps(doc))
        return d


def uarr(v):
    return np.array([int(v)], dtype="<u4")


def ceil_div(a, b):
    return (a + b - 1) // b


# ── data ────────────────────────────────────────────────────────────────────
class Quant:
    """An MLX-affine quantised [rows, cols] matrix."""

    def __init__(self, rng, rows, cols, bits, gs, wstd=None):
        assert cols % gs == 0 and gs % (32 // bits) == 0
        self.rows, self.cols, self.bits, self.gs = rows, cols, bits, gs
        ng = cols // gs
        maxq = (1 << bits) - 1
        if wstd is None:
            wstd = 1.0 / math.sqrt(cols)
        w = rng.normal(0.0, wstd, size=(rows, ng, gs))
        mn, mx = w.min(axis=2), w.max(axis=2)
        self.s_bits, s = bf16_round(f32((mx - mn) / maxq))
        self.b_bits, b = bf16_round(f32(mn))
        assert (s > 0).all()
        q = np.clip(np.rint((w - b[:, :, None]) / s[:, :, None]), 0, maxq)
        self.q = q.reshape(rows, cols)                       # float64 integers
        self.s, self.b = s, b                                 # [rows, ng] float64
        self.W = (q * s[:, :, None] + b[:, :, None]).reshape(rows, cols)
        # |q*s| + |b|: the magnitudes that the float32 evaluation rounds
        self.Wabs = (q * s[:, :, None] + np.abs(b)[:, :, None]).reshape(rows, cols)
        per = 32 // bits
        qw = q.reshape(rows, cols // per, per).astype(np.uint64)
        packed = np.zeros((rows, cols // per), dtype=np.uint64)
        for n in range(per):
            packed |= qw[:, :, n] << np.uint64(n * bits)
        self.packed = u32(packed)


def x_vec(rng, *shape):
    return f32(rng.normal(0.0, 1.0, size=shape))


def matvec_bound(Wabs, x, depth, per_term=3):
    """First-order bound per output: (depth + per_term) * U * sum |w-parts|*|x|.
    x: [in] or [T, in]; returns [out] or [T, out]."""
    return (depth + per_term) * U * (np.abs(x.astype(np.float64)) @ Wabs.T)


def matvec_note(depth, depth_text, n, extra=""):
    return ("dot product of %d terms (q*s+b)*x in float32: first-order bound (depth+3)*U*"
            "sum_i(|q_i*s|+|b|)*|x_i| per output, depth = %d (%s), +3 per-term roundings "
            "(q*s is exact; s*x, b*x, fma or q*s+b, *x); valid for any order inside each stage "
            "and with/without FMA; x%g safety, max over outputs -> atol (cancellation); rtol "
            "8U covers the final rounding%s" % (n, depth, depth_text, SAFETY, extra))


def depth_simd_rows(in_dim, per_word, words_per_iter=1):
    """v3-style: each lane of one SIMD group handles words lane, lane+32, ...;
    its chain is (#words) * per_word fma/adds; then simd_sum over 32 lanes."""
    chunks = ceil_div(in_dim // per_word, 32 * words_per_iter)
    chain = chunks * words_per_iter * per_word
    return chain + 31, "per-lane chain %d + 31 for simd_sum" % chain


def depth_tg_groups(in_dim, gs, tg):
    """fast-style: tg threads stride over the row's groups; simd_sum; partials
    of the SIMD groups simd_sum'ed again."""
    ng = in_dim // gs
    chain = ceil_div(ng, tg) * gs
    lanes = min(tg, 32)
    nsg = ceil_div(tg, 32)
    d = chain + (lanes - 1) + (nsg - 1)
    return d, "per-thread chain %d + %d (simd_sum) + %d (cross-SIMD simd_sum)" % (chain, lanes - 1, nsg - 1)


def write_out(c, idx, name, exp, bound, note):
    atol, rtol = tol_from_bound(exp, bound, 2 * U)
    c.write(idx, name, f32(exp), atol, rtol, note)


# ── the common 8-buffer interface (W, scales, biases, x, out, out_dim, in_dim, gs)
def quant_matvec(kernel, case, desc, bits, out_dim, in_dim, gs, style, n_tokens=None,
                 extra_tgs=0, tg=None, realistic_w=True):
    """style: 'naive' (thread per row), 'fast' (threadgroup per row over groups),
    'v3' (8 rows per 256-thread threadgroup, SIMD group per row), 'v4' (same, uint4 loads).
    n_tokens: None for the single-vector kernels, else the _n_tokens variant."""
    rng = rng_for(kernel, case)
    qm = Quant(rng, out_dim, in_dim, bits, gs)
    T = 1 if n_tokens is None else n_tokens
    x = x_vec(rng, T, in_dim)
    exp = x.astype(np.float64) @ qm.W.T                      # [T, out]
    per = 32 // bits
    c = QCase(kernel, case, desc)
    if style == "naive":
        tg = tg or 256
        c.threadgroups([ceil_div(out_dim, tg) + extra_tgs, 1, 1], [tg, 1, 1])
        # One thread sums the whole row: the rigorous chain bound (depth in_dim) is
        # sqrt(in_dim)/2 times looser than for the other kernels (atol ~40 % of a
        # typical output at in_dim 4096).  Like moe_gate's logits we use the
        # order-independent estimate 2*sqrt(n) for the chain (float32 emulation of
        # this kernel's order uses < 1 % of the resulting tolerance).
        depth = int(math.ceil(2.0 * math.sqrt(in_dim)))
        dtext = ("estimate 2*sqrt(n) for one thread's sequential chain of %d adds, whose "
                 "rigorous first-order bound is %.0fx looser" % (in_dim, in_dim / depth))
    elif style == "fast":
        assert tg is not None
        rows_flat = out_dim * T
        c.threadgroups([rows_flat + extra_tgs, 1, 1], [tg, 1, 1])
        depth, dtext = depth_tg_groups(in_dim, gs, tg)
    elif style in ("v3", "v4"):
        assert in_dim <= X_SHARED
        tiles = ceil_div(out_dim, ROWS_PER_TG)
        c.threadgroups([tiles * T + extra_tgs, 1, 1], [V3_THREADS, 1, 1])
        if style == "v4":
            assert (in_dim // 8) % 4 == 0
            depth, dtext = depth_simd_rows(in_dim, per, 4)
            dtext += " (uint4 = 4 words per iteration)"
        else:
            depth, dtext = depth_simd_rows(in_dim, per)
    else:
        raise ValueError(style)
    bound = matvec_bound(qm.Wabs, x, depth)
    c.read(0, "W_packed", qm.packed)
    c.read(1, "scales", qm.s_bits)
    c.read(2, "biases", qm.b_bits)
    if n_tokens is None:
        c.read(3, "x", x[0])
        write_out(c, 4, "out", exp[0], bound[0], matvec_note(depth, dtext, in_dim))
    else:
        c.read(3, "x_inputs", x)
        write_out(c, 4, "out", exp, bound, matvec_note(depth, dtext, in_dim))
    c.read(5, "out_dim", uarr(out_dim))
    c.read(6, "in_dim", uarr(in_dim))
    c.read(7, "group_size", uarr(gs))
    if n_tokens is not None:
        c.read(8, "n_tokens", uarr(n_tokens))
        if style in ("v3", "v4"):
            c.read(9, "num_row_tiles", uarr(ceil_div(out_dim, ROWS_PER_TG)))
    c.save()


# ── fused_gate_up_swiglu: out = silu(gate·x) * (up·x), fast-style reduction
def gate_up(case, desc, out_dim, in_dim, gs, tg, extra_tgs=0):
    k = "fused_gate_up_swiglu"
    rng = rng_for(k, case)
    G = Quant(rng, out_dim, in_dim, 4, gs)
    Up = Quant(rng, out_dim, in_dim, 4, gs)
    x = x_vec(rng, in_dim)
    xd = x.astype(np.float64)
    g = G.W @ xd
    u = Up.W @ xd
    sig = 1.0 / (1.0 + np.exp(-g))
    out = g * sig * u
    depth, dtext = depth_tg_groups(in_dim, gs, tg)
    eg = matvec_bound(G.Wabs, x, depth)
    eu = matvec_bound(Up.Wabs, x, depth)
    dsilu = np.abs(sig * (1.0 + g * (1.0 - sig)))
    gmax = float(np.abs(g).max())
    rel = fast_exp_rel_err(gmax) + 7.0 * U
    bound = dsilu * np.abs(u) * eg + np.abs(g * sig) * eu + rel * np.abs(out)
    atol, rtol = tol_from_bound(out, bound, rel)
    c = QCase(k, case, desc)
    c.threadgroups([out_dim + extra_tgs, 1, 1], [tg, 1, 1])
    c.read(0, "gate_W", G.packed)
    c.read(1, "gate_s", G.s_bits)
    c.read(2, "gate_b", G.b_bits)
    c.read(3, "up_W", Up.packed)
    c.read(4, "up_s", Up.s_bits)
    c.read(5, "up_b", Up.b_bits)
    c.read(6, "x", x)
    c.write(7, "out", f32(out), atol, rtol,
            "gate and up are %d-term dot products with first-order bounds e = (depth+3)*U*"
            "sum(|q*s|+|b|)*|x|, depth = %d (%s); out = silu(g)*u gets |silu'(g)|*|u|*e_g + "
            "|silu(g)|*e_u (absolute, -> atol) plus the silu/product roundings: fast-math exp "
            "<= 3+floor(2*max|g|) = %d ulp (max|g| = %.2f), 1+e, <=2.5-ulp division, 2 products: "
            "rel %.2e -> rtol; x%g safety"
            % (in_dim, depth, dtext, 3 + math.floor(2 * gmax), gmax, rel, SAFETY))
    c.read(8, "out_dim", uarr(out_dim))
    c.read(9, "in_dim", uarr(in_dim))
    c.read(10, "group_size", uarr(gs))
    c.save()


# ── v5 (LUT) and 2-bit: v3 structure, different per-term form ───────────────
# (handled by quant_matvec with style "v3"; the per-term bound covers
# lut = q*s+b (1 rounding) then *x (1 rounding) as well.)


# ── dequant_matvec_4bit_batched: K experts in shared buffers at element offsets
def batched(case, desc, K, out_dim, in_dim, gs, extra_tiles=0, order=None, gap_words=0):
    k = "dequant_matvec_4bit_batched"
    assert out_dim % ROWS_PER_TG == 0, "the kernel's row guard sits before its barrier"
    assert in_dim <= X_SHARED
    rng = rng_for(k, case)
    experts = [Quant(rng, out_dim, in_dim, 4, gs) for _ in range(K)]
    x = x_vec(rng, K, in_dim)
    exp = np.stack([experts[e].W @ x[e].astype(np.float64) for e in range(K)])
    depth, dtext = depth_simd_rows(in_dim, 8)
    bound = np.stack([matvec_bound(experts[e].Wabs, x[e], depth) for e in range(K)])
    # Store the experts in the shared buffers in `order`, each preceded by a gap
    # of random filler, so the offsets are neither 0 nor k*size.
    order = list(range(K)) if order is None else order
    w_parts, s_parts, b_parts = [], [], []
    w_off, s_off, b_off = [0] * K, [0] * K, [0] * K
    wpos = spos = bpos = 0
    for e in order:
        gw = u32(rng.integers(0, 2 ** 32, size=gap_words, dtype=np.uint64))
        gsb = rng.integers(0, 2 ** 16, size=(2, 2 * gap_words), dtype=np.uint16)
        w_parts += [gw, experts[e].packed.ravel()]
        s_parts += [gsb[0], experts[e].s_bits.ravel()]
        b_parts += [gsb[1], experts[e].b_bits.ravel()]
        w_off[e] = wpos + gap_words
        s_off[e] = spos + 2 * gap_words
        b_off[e] = bpos + 2 * gap_words
        wpos = w_off[e] + experts[e].packed.size
        spos = s_off[e] + experts[e].s_bits.size
        bpos = b_off[e] + experts[e].b_bits.size
    tiles = ceil_div(out_dim, ROWS_PER_TG) + extra_tiles
    c = QCase(k, case, desc)
    c.threadgroups([tiles * K, 1, 1], [V3_THREADS, 1, 1])
    c.read(0, "W_packed", u32(np.concatenate(w_parts)))
    c.read(1, "scales", np.ascontiguousarray(np.concatenate(s_parts).astype(np.uint16)))
    c.read(2, "biases", np.ascontiguousarray(np.concatenate(b_parts).astype(np.uint16)))
    c.read(3, "x_inputs", x)
    write_out(c, 4, "out", exp, bound, matvec_note(depth, dtext, in_dim))
    c.read(5, "out_dim", uarr(out_dim))
    c.read(6, "in_dim", uarr(in_dim))
    c.read(7, "group_size", uarr(gs))
    c.read(8, "w_offsets", u32(w_off))
    c.read(9, "s_offsets", u32(s_off))
    c.read(10, "b_offsets", u32(b_off))
    c.read(11, "num_row_tiles", uarr(tiles))
    c.save()


# ── dequant_matvec_4bit_v3_experts: one byte blob per expert (buffers 0..7)
def experts_case(case, desc, k_active, out_dim, in_dim, gs, shared_input, extra_experts=0,
                 head_bytes=256):
    k = "dequant_matvec_4bit_v3_experts"
    assert 1 <= k_active <= 8, "blob7 is the default: more than 8 experts alias blob7"
    assert out_dim % ROWS_PER_TG == 0, "the kernel's row guard sits before its barrier"
    assert in_dim <= X_SHARED
    rng = rng_for(k, case)
    experts = [Quant(rng, out_dim, in_dim, 4, gs) for _ in range(k_active)]
    x = x_vec(rng, 1 if shared_input else k_active, in_dim)
    xs = [x[0] if shared_input else x[e] for e in range(k_active)]
    exp = np.stack([experts[e].W @ xs[e].astype(np.float64) for e in range(k_active)])
    depth, dtext = depth_simd_rows(in_dim, 8)
    bound = np.stack([matvec_bound(experts[e].Wabs, xs[e], depth) for e in range(k_active)])
    wbytes = out_dim * (in_dim // 8) * 4
    sbytes = out_dim * (in_dim // gs) * 2
    w_byte_off = head_bytes                       # filler first (another tensor's bytes)
    s_byte_off = w_byte_off + wbytes + 20         # 4-aligned W, 2-aligned s/b, odd gaps
    b_byte_off = s_byte_off + sbytes + 6
    blob_len = b_byte_off + sbytes + 10
    tiles = ceil_div(out_dim, ROWS_PER_TG)
    c = QCase(k, case, desc)
    c.threadgroups([tiles * (k_active + extra_experts), 1, 1], [V3_THREADS, 1, 1])
    for e in range(8):
        if e < k_active:
            blob = rng.integers(0, 256, size=blob_len, dtype=np.uint8)
            blob[w_byte_off:w_byte_off + wbytes] = experts[e].packed.view(np.uint8).ravel()
            blob[s_byte_off:s_byte_off + sbytes] = experts[e].s_bits.view(np.uint8).ravel()
            blob[b_byte_off:b_byte_off + sbytes] = experts[e].b_bits.view(np.uint8).ravel()
        else:
            blob = rng.integers(0, 256, size=16, dtype=np.uint8)  # bound, never read
        c.read(e, "blob%d" % e, np.ascontiguousarray(blob))
    c.read(8, "x", x.ravel() if shared_input else x)
    write_out(c, 9, "out", exp, bound, matvec_note(depth, dtext, in_dim))
    c.read(10, "out_dim", uarr(out_dim))
    c.read(11, "in_dim", uarr(in_dim))
    c.read(12, "group_size", uarr(gs))
    c.read(13, "w_byte_off", uarr(w_byte_off))
    c.read(14, "s_byte_off", uarr(s_byte_off))
    c.read(15, "b_byte_off", uarr(b_byte_off))
    c.read(16, "num_row_tiles", uarr(tiles))
    c.read(17, "k_active", uarr(k_active))
    c.read(18, "input_stride", uarr(0 if shared_input else in_dim))
    c.save()


# ── bf16_matvec / bf16_matmul_n_tokens ──────────────────────────────────────
def bf16_mv(kernel, case, desc, out_dim, in_dim, tg, n_tokens=None, extra_tgs=0, wstd=None):
    assert tg & (tg - 1) == 0 and tg <= 256, "partials[256] + tree reduction: power of two <= 256"
    rng = rng_for(kernel, case)
    wstd = wstd or 1.0 / math.sqrt(in_dim)
    w_bits, w = bf16_round(f32(rng.normal(0.0, wstd, size=(out_dim, in_dim))))
    T = 1 if n_tokens is None else n_tokens
    x = x_vec(rng, T, in_dim)
    exp = x.astype(np.float64) @ w.T
    chain = ceil_div(in_dim, tg)
    lanes, nsg = min(tg, 32), ceil_div(tg, 32)
    comb = (lanes - 1) + int(math.log2(nsg))
    depth = chain + comb
    bound = matvec_bound(np.abs(w), x, depth, per_term=1)
    note = ("dot product of %d terms x*w (w bf16) in float32: first-order bound (depth+1)*U*"
            "sum|x*w| per output, depth = %d (per-thread strided chain %d + %d for combining the "
            "%d partials: any order within each 32-lane SIMD group (31) plus a log2(%d)-level "
            "tree across SIMD groups; covers the kernel's log2(%d)-level tree over partials[] and a "
            "simd_sum-based reduction), +1 for the product rounding; with/without FMA; x%g safety, "
            "max over outputs -> atol; rtol 8U"
            % (in_dim, depth, chain, comb, tg, nsg, tg, SAFETY))
    c = QCase(kernel, case, desc)
    c.threadgroups([out_dim * T + extra_tgs, 1, 1], [tg, 1, 1])
    c.read(0, "w", w_bits)
    if n_tokens is None:
        c.read(1, "input", x[0])
        write_out(c, 2, "output", exp[0], bound[0], note)
    else:
        c.read(1, "input", x)
        write_out(c, 2, "output", exp, bound, note)
    c.read(3, "in_dim", uarr(in_dim))
    c.read(4, "out_dim", uarr(out_dim))
    if n_tokens is not None:
        c.read(5, "n_tokens", uarr(n_tokens))
    c.save()


# ── embed_gather_4bit ───────────────────────────────────────────────────────
def embed(case, desc, vocab, hidden, gs, token_ids, extra_tgs=0):
    k = "embed_gather_4bit"
    rng = rng_for(k, case)
    E = Quant(rng, vocab, hidden, 4, gs, wstd=0.02)
    ids = np.asarray(token_ids(rng) if callable(token_ids) else token_ids, dtype="<i4")
    assert ((ids >= 0) & (ids < vocab)).all()
    n = ids.size
    out = E.W[ids]                                   # [n, hidden]
    bound = U * np.abs(out)
    atol, rtol = tol_from_bound(out, bound, U)
    c = QCase(k, case, desc)
    c.threadgroups([ceil_div(n * hidden, 256) + extra_tgs, 1, 1], [256, 1, 1])
    c.read(0, "W_packed", E.packed)
    c.read(1, "scales", E.s_bits)
    c.read(2, "biases", E.b_bits)
    c.read(3, "token_ids", np.ascontiguousarray(ids))
    c.write(4, "out", f32(out), atol, rtol,
            "out = q*scale + bias: q*scale is exact in float32 (4-bit integer times an 8-bit "
            "bf16 mantissa), so with or without FMA one rounding: |err| <= U*|out|; x%g safety "
            "-> rtol; atol is the floor %g*U*median|out|" % (SAFETY, SAFETY))
    c.read(5, "n_tokens", uarr(n))
    c.read(6, "hidden_dim", uarr(hidden))
    c.read(7, "group_size", uarr(gs))
    c.save()


# ── the case list ───────────────────────────────────────────────────────────
def generate():
    for k in KERNELS:
        reset_kernel_dir(k)

    # dequant_matvec_4bit: one thread per row (tid >= out_dim guard), x read from device
    k = "dequant_matvec_4bit"
    quant_matvec(k, "small", "out_dim=40, in_dim=128, gs=64; one threadgroup of 64 threads "
                 "(24 past out_dim hit the tid guard)", 4, 40, 128, 64, "naive", tg=64)
    quant_matvec(k, "realistic", "gate/up_proj shape 4096->1024, gs=64; 4 threadgroups of 256",
                 4, 1024, 4096, 64, "naive")
    quant_matvec(k, "ragged", "out_dim=1001, in_dim=384, gs=32; ceil(1001/256)+1 = 5 threadgroups "
                 "(279 threads past out_dim)", 4, 1001, 384, 32, "naive", extra_tgs=1)
    quant_matvec(k, "large_in", "in_dim=8192 > 4096 (no x cache in this kernel), out_dim=96, "
                 "gs=128; one threadgroup of 128", 4, 96, 8192, 128, "naive", tg=128)

    # dequant_matvec_4bit_fast: one threadgroup per row, threads stride over groups
    k = "dequant_matvec_4bit_fast"
    quant_matvec(k, "small", "out_dim=8, in_dim=256, gs=64 (4 groups), 64 threads per row: "
                 "threads 4..63 hold no group and contribute 0", 4, 8, 256, 64, "fast", tg=64)
    quant_matvec(k, "realistic", "down_proj shape 1024->4096, gs=64, 64 threads per row "
                 "(the tg_size of the _n_tokens header)", 4, 4096, 1024, 64, "fast", tg=64)
    quant_matvec(k, "large_in", "in_dim=8192 > 4096 (the fallback path of the v3 kernels), "
                 "out_dim=64, gs=64: 128 groups over 64 threads (2 each)", 4, 64, 8192, 64,
                 "fast", tg=64)
    quant_matvec(k, "ragged", "out_dim=37 plus 3 threadgroups past out_dim (tgid guard), "
                 "in_dim=640, gs=32 (20 groups) over 96 threads (3 SIMD groups, the second "
                 "stage sums 3 partials)", 4, 37, 640, 32, "fast", tg=96, extra_tgs=3)
    quant_matvec(k, "tg256", "out_dim=16, in_dim=4096, gs=64 (64 groups) over 256 threads: "
                 "8 SIMD groups, threads 64..255 idle", 4, 16, 4096, 64, "fast", tg=256)

    # fused_gate_up_swiglu: fast-style, two weights
    k = "fused_gate_up_swiglu"
    gate_up("small", "out_dim=8, in_dim=256, gs=64, 64 threads (4 groups: threads 4..63 idle)",
            8, 256, 64, 64)
    gate_up("realistic", "Qwen3-30B-A3B expert gate/up: 2048->768, gs=64, 64 threads per row",
            768, 2048, 64, 64)
    gate_up("ragged", "out_dim=21 plus 2 threadgroups past out_dim (tgid guard), in_dim=448, "
            "gs=32 (14 groups) over 32 threads", 21, 448, 32, 32, extra_tgs=2)
    gate_up("large_in", "in_dim=8192 > 4096, out_dim=32, gs=64, 128 threads", 32, 8192, 64, 128)

    # v3-style kernels: 256 threads, 8 rows per threadgroup, x cached in x_shared[4096]
    pre = "256 threads = 8 SIMD groups = 8 rows per threadgroup; in_dim <= 4096 (x_shared)"
    for k, bits, style in [("dequant_matvec_4bit_v3", 4, "v3"), ("dequant_matvec_4bit_v5", 4, "v3"),
                           ("dequant_matvec_4bit_v4", 4, "v4"), ("dequant_matvec_2bit", 2, "v3"),
                           ("dequant_matvec_8bit_v3", 8, "v3")]:
        per = 32 // bits
        quant_matvec(k, "small", "out_dim=16 (2 threadgroups), in_dim=256, gs=64; " + pre,
                     bits, 16, 256, 64, style)
        if bits == 8:
            quant_matvec(k, "realistic", "8-bit mlp.gate router of Qwen3.6-35B-A3B: 2048->256, "
                         "gs=64; " + pre, bits, 256, 2048, 64, style)
            quant_matvec(k, "realistic_4096", "4096->512, gs=64: in_dim = 4096 fills x_shared; "
                         + pre, bits, 512, 4096, 64, style)
            quant_matvec(k, "ragged", "8-bit shared_expert_gate: 2048->1 (one live SIMD group, "
                         "7 past out_dim) plus 1 whole threadgroup past out_dim; gs=64; " + pre,
                         bits, 1, 2048, 64, style, extra_tgs=1)
        else:
            if k == "dequant_matvec_4bit_v3":
                quant_matvec(k, "realistic", "gate/up_proj 4096->1024, gs=64 (128 threadgroups; "
                             "in_dim = 4096 fills x_shared); " + pre, bits, 1024, 4096, 64, style)
                quant_matvec(k, "realistic_down", "down_proj 1024->4096, gs=64 (512 threadgroups); "
                             + pre, bits, 4096, 1024, 64, style)
            elif k == "dequant_matvec_4bit_v4":
                quant_matvec(k, "realistic", "down_proj 1024->4096, gs=64 (one uint4 per lane); "
                             + pre, bits, 4096, 1024, 64, style)
            elif k == "dequant_matvec_4bit_v5":
                quant_matvec(k, "realistic", "gate/up_proj 4096->1024, gs=64 (a lane's words "
                             "are 32 apart, so its LUT is rebuilt for every word); " + pre,
                             bits, 1024, 4096, 64, style)
            else:
                quant_matvec(k, "realistic", "2-bit 4096->2048, gs=64 (4 words per group); " + pre,
                             bits, 2048, 4096, 64, style)
            # ragged: out_dim not a multiple of 8, in_dim whose packed columns do not fill
            # the 32 lanes evenly, plus one whole threadgroup past out_dim.
            if style == "v4":
                quant_matvec(k, "ragged", "out_dim=1001 (last tile: 1 live row, 7 SIMD groups past "
                             "out_dim) plus 1 whole threadgroup past out_dim; in_dim=1440 (180 "
                             "words = 45 uint4: lanes 0..12 take 2, 13..31 take 1), gs=32 "
                             "(in_dim % 32 == 0: the uint4 loop has no tail); " + pre,
                             bits, 1001, 1440, 32, style, extra_tgs=1)
            else:
                in_r = {4: 1440, 2: 2880}[bits]
                quant_matvec(k, "ragged", "out_dim=1001 (last tile: 1 live row, 7 SIMD groups past "
                             "out_dim) plus 1 whole threadgroup past out_dim; in_dim=%d (%d words: "
                             "the 32 lanes get unequal counts), gs=32; " % (in_r, in_r // per) + pre,
                             bits, 1001, in_r, 32, style, extra_tgs=1)
            quant_matvec(k, "gs128", "out_dim=40, in_dim=3072, gs=128 (16 words per group for "
                         "4-bit); " + pre, bits, 40, 3072, 128, style)
    k = "dequant_matvec_8bit_v3"
    quant_matvec(k, "gs32_ragged", "out_dim=13 (second tile: 5 live rows), in_dim=608 (152 words: "
                 "lanes 0..23 take 5, 24..31 take 4), gs=32; " + pre, 8, 13, 608, 32, "v3")

    # v3 N-token kernels: grid = num_row_tiles * n_tokens exactly (no extra
    # threadgroups: x_token is loaded before the token guard; see the report)
    for k, bits in [("dequant_matvec_4bit_v3_n_tokens", 4), ("dequant_matvec_8bit_v3_n_tokens", 8)]:
        pn = ("; grid = num_row_tiles*n_tokens exactly (the x load precedes the token guard), "
              "256 threads, in_dim <= 4096")
        quant_matvec(k, "small", "out_dim=16, in_dim=256, gs=64, n_tokens=2" + pn,
                     bits, 16, 256, 64, "v3", n_tokens=2)
        quant_matvec(k, "n1", "n_tokens=1 (same as the single-vector kernel), out_dim=64, "
                     "in_dim=512, gs=64" + pn, bits, 64, 512, 64, "v3", n_tokens=1)
        if bits == 4:
            quant_matvec(k, "realistic", "2048->512 projection for a prefill of 3 tokens, "
                         "gs=64" + pn, bits, 512, 2048, 64, "v3", n_tokens=3)
        else:
            quant_matvec(k, "realistic", "8-bit router 2048->256, prefill of 4 tokens, gs=64" + pn,
                         bits, 256, 2048, 64, "v3", n_tokens=4)
        quant_matvec(k, "ragged", "n_tokens=3, out_dim=45 (last tile of every token: 5 live rows), "
                     "in_dim=1440, gs=32" + pn, bits, 45, 1440, 32, "v3", n_tokens=3)

    # fast N-token kernel: one threadgroup per (row, token), token guard first
    k = "dequant_matvec_4bit_fast_n_tokens"
    quant_matvec(k, "small", "out_dim=8, in_dim=256, gs=64, n_tokens=2, 64 threads", 4, 8, 256, 64,
                 "fast", n_tokens=2, tg=64)
    quant_matvec(k, "n1", "n_tokens=1, out_dim=32, in_dim=1024, gs=64, 64 threads", 4, 32, 1024, 64,
                 "fast", n_tokens=1, tg=64)
    quant_matvec(k, "large_in", "in_dim=8192 > 4096 (the path this kernel exists for), out_dim=48, "
                 "n_tokens=3, gs=64, 64 threads", 4, 48, 8192, 64, "fast", n_tokens=3, tg=64)
    quant_matvec(k, "ragged", "n_tokens=3, out_dim=19, plus 5 threadgroups past out_dim*n_tokens "
                 "(token guard), in_dim=640, gs=32, 96 threads", 4, 19, 640, 32, "fast",
                 n_tokens=3, tg=96, extra_tgs=5)
    quant_matvec(k, "realistic", "Qwen3-30B-A3B expert gate 2048->768, n_tokens=2, gs=64, 64 "
                 "threads", 4, 768, 2048, 64, "fast", n_tokens=2, tg=64)

    # dequant_matvec_4bit_batched: out_dim % 8 == 0 (row guard before the barrier)
    pb = "; out_dim % 8 == 0 (the row guard precedes the x_shared barrier), 256 threads"
    batched("small", "K=2 experts stored in reverse order with 8-word gaps, out_dim=16, "
            "in_dim=256, gs=64" + pb, 2, 16, 256, 64, order=[1, 0], gap_words=8)
    batched("realistic", "K=4 experts of a 2048->128 projection (offsets permuted, 4-word gaps), "
            "gs=64" + pb, 4, 128, 2048, 64, order=[2, 0, 3, 1], gap_words=4)
    batched("ragged", "K=3, out_dim=24, num_row_tiles=4 (one whole tile per expert past out_dim: "
            "row guard, all 8 SIMD groups of that tile return together), in_dim=1440, gs=32" + pb,
            3, 24, 1440, 32, extra_tiles=1, order=[0, 2, 1], gap_words=3)
    batched("k1", "K=1 at offset 0, out_dim=64, in_dim=4096 (fills x_shared), gs=128" + pb,
            1, 64, 4096, 128)

    # dequant_matvec_4bit_v3_experts: blobs with byte offsets, k_active <= 8
    pe = "; out_dim % 8 == 0 (the row guard precedes the barrier), 256 threads, k_active <= 8"
    experts_case("small", "k_active=2, input_stride=in_dim (per-expert input), out_dim=16, "
                 "in_dim=256, gs=64, blobs 2..7 unused" + pe, 2, 16, 256, 64, False)
    experts_case("realistic_gate", "Qwen3-30B-A3B gate: k_active=2, input_stride=0 (shared x), "
                 "2048->768, gs=64" + pe, 2, 768, 2048, 64, True)
    experts_case("realistic_down", "Qwen3-30B-A3B down: k_active=2, input_stride=in_dim, "
                 "768->2048, gs=64" + pe, 2, 2048, 768, 64, False)
    experts_case("k8", "k_active=8 (every blob, expert 7 via the switch default), "
                 "input_stride=in_dim, out_dim=32, in_dim=512, gs=64" + pe, 8, 32, 512, 64, False)
    experts_case("ragged", "k_active=3 on a grid sized for 8 experts (5*num_row_tiles threadgroups "
                 "past k_active: expert guard), input_stride=0, out_dim=40, in_dim=1440, gs=32" + pe,
                 3, 40, 1440, 32, True, extra_experts=5)

    # bf16_matvec: one threadgroup per row, tree reduction (power-of-two tg <= 256)
    k = "bf16_matvec"
    bf16_mv(k, "small", "out_dim=5, in_dim=100, 64 threads (36 idle in the strided loop)",
            5, 100, 64)
    bf16_mv(k, "realistic", "Qwen3-30B-A3B router gate 2048->128, 256 threads", 128, 2048, 256)
    bf16_mv(k, "large_in", "DeepSeek-V3-like router 7168->160 (rows 0..159 of [256, 7168]), "
            "256 threads", 160, 7168, 256)
    bf16_mv(k, "ragged", "out_dim=3 plus 2 threadgroups past out_dim (tg_idx guard), in_dim=1000, "
            "128 threads", 3, 1000, 128, extra_tgs=2)
    bf16_mv(k, "tg32", "out_dim=7, in_dim=33, 32 threads (one SIMD group; thread 0 takes 2)",
            7, 33, 32)

    k = "bf16_matmul_n_tokens"
    bf16_mv(k, "small", "out_dim=5, in_dim=100, n_tokens=2, 64 threads", 5, 100, 64, n_tokens=2)
    bf16_mv(k, "n1", "n_tokens=1, out_dim=16, in_dim=512, 256 threads", 16, 512, 256, n_tokens=1)
    bf16_mv(k, "realistic", "router gate 2048->128 for a prefill of 4 tokens, 256 threads",
            128, 2048, 256, n_tokens=4)
    bf16_mv(k, "ragged", "n_tokens=3, out_dim=7, in_dim=1000, plus 4 threadgroups past "
            "out_dim*n_tokens (token guard), 128 threads", 7, 1000, 128, n_tokens=3, extra_tgs=4)

    # embed_gather_4bit: one thread per (token, channel), tid guard
    embed("small", "vocab=16, hidden=64, gs=32, tokens [3, 0, 15]: 192 threads of one threadgroup "
          "(64 past n_tokens*hidden)", 16, 64, 32, [3, 0, 15])
    embed("realistic", "vocab=1000 (a slice of a 4-bit embedding), hidden=2048, gs=64, 8 tokens "
          "incl. a repeat, 0 and vocab-1", 1000, 2048, 64, [17, 999, 0, 512, 17, 3, 998, 250])
    embed("ragged", "vocab=50, hidden=200, gs=40 (hidden/8 = 25 words), n_tokens=3 -> 600 threads: "
          "3 threadgroups (168 past the end) plus 1 whole threadgroup past it", 50, 200, 40,
          [49, 7, 7], extra_tgs=1)
    embed("single", "n_tokens=1, vocab=300, hidden=4096, gs=128", 300, 4096, 128, [123])
