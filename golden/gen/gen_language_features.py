"""Golden cases for the feature kernels of Metal's language as libraries use
it (metal_src/features/): helper functions with barriers, SIMD-group
functions and out-parameters, template kernels and their instantiations,
compile-time constants, headers found through -I, command-line defines,
function constants and bool vectors.

References are plain NumPy loops written from each kernel's documented math
(the comment at the top of its .metal file). Inputs are small dyadic numbers
(multiples of 1/8 or 1/4 of modest size), so every float32 operation of the
kernels is exact whatever the order or FMA contraction, and the tolerances
are 0; half and bfloat outputs are compared as bit patterns after rounding
to nearest even, which is what Metal's conversions do."""
import struct

import numpy as np

from common import Case, f32, u32, bf16_round, rng_for, reset_kernel_dir

EXACT = "dyadic inputs with few significant bits: every float32 operation is exact, so the result is exact"

KERNELS = ["feat_helper_barrier_sum", "feat_helper_barrier_center", "feat_helper_simd_divergent",
           "feat_helper_out_param", "feat_template_kernel_f32", "feat_template_kernel_f16",
           "feat_template_kernel_bf16", "feat_constexpr_tg_array", "feat_include_path", "feat_define_flag",
           "feat_function_constant", "feat_struct_methods", "feat_builtin_types", "feat_matrix",
           "feat_vector_casts", "feat_vector_init_lists", "feat_unions",
           "feat_union_constructors", "feat_constant_table_pointer", "feat_bool_vectors",
           "feat_reinterpret_cast", "feat_mixed_scalar_vector", "feat_mixed_scalar_vector_f4",
           "feat_mixed_scalar_vector_h4", "feat_host_function_constants",
           "feat_template_literal_calls_f", "feat_template_literal_calls_h", "feat_uniform_switch_collective",
           "feat_half_constants", "feat_reference_arguments",
           "feat_uniform_trip_loop", "feat_constant_copies", "feat_computed_constants",
           "feat_argument_buffers", "feat_argument_buffers_nested", "feat_argument_buffers_banks",
           "feat_macro_kernels_scale_f32", "feat_macro_kernels_scale_i32", "feat_macro_kernels_swap",
           "feat_function_constant_params"]


def eighths(rng, shape, lo=-80, hi=81):
    return f32(rng.integers(lo, hi, size=shape) / 8.0)


def helper_barrier(case, desc, n_tg):
    rng = rng_for("feat_helper_barrier", case)
    x = eighths(rng, (n_tg, 64))
    v = x.astype(np.float64)
    c = Case("feat_helper_barrier_sum", case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(v.sum(axis=1)), 0, 0, EXACT)
    c.save()
    c = Case("feat_helper_barrier_center", case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(v - v.mean(axis=1, keepdims=True)), 0, 0,
            EXACT + " (the sum of 64 eighths divided by 64 is exact)")
    c.save()


def helper_simd_divergent(case, desc, n_tg):
    rng = rng_for("feat_helper_simd_divergent", case)
    n = n_tg * 64
    x = f32(rng.integers(-4, 6, size=n))
    x[:32] = np.abs(x[:32]) + 1       # one SIMD group with every lane active
    x[32:64] = -np.abs(x[32:64])      # one with none (0 is not > 0)
    out = np.full(n, -1.0)
    for g in range(0, n, 32):
        lanes = np.arange(g, g + 32)
        active = lanes[x[lanes] > 0]
        out[active] = x[active].astype(np.float64).sum()
    c = Case("feat_helper_simd_divergent", case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT + "; inactive lanes write -1")
    c.save()


def helper_out_param(case, desc, n):
    rng = rng_for("feat_helper_out_param", case)
    x = eighths(rng, n, -40, 41)
    out = np.zeros(n)
    for i in range(n):
        a = float(x[i])
        mag, sign = abs(a), (-1 if a < 0 else (1 if a > 0 else 0))
        row = x[(i // 8) * 8:(i // 8) * 8 + 8]
        above = [j for j in range(8) if row[j] > 2.0]
        first = above[0] if above else 8
        kind = [10.0, 20.0, 30.0, 40.0][i % 4]
        steps, m = 0, mag + 1.0
        while m >= 2.0:
            m *= 0.5
            steps += 1
        gated = 1.0 if (a > 0 and max(a, 0.0) > 1.0) else 0.0
        out[i] = mag * sign + 100.0 * first + kind + 1000.0 * steps + 10000.0 * gated
    c = Case("feat_helper_out_param", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def template_kernel(case, desc, n_tg):
    rng = rng_for("feat_template_kernel", case)
    k = rng.integers(-200, 201, size=(n_tg, 32))
    v = k / 8.0
    w = v[:, ::-1] * 2.0 + 0.5        # exact in float32
    c = Case("feat_template_kernel_f32", case, desc)
    c.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c.read(0, "x", f32(v))
    c.write(1, "out", f32(w), 0, 0, EXACT)
    c.save()
    xh = v.astype(np.float16)         # k/8 with |k| <= 200 is exact in half
    assert np.array_equal(xh.astype(np.float64), v)
    c = Case("feat_template_kernel_f16", case, desc)
    c.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c.read(0, "x", xh.view(np.uint16))
    c.write(1, "out", f32(w).astype(np.float16).view(np.uint16).copy(), 0, 0,
            "half bit patterns (uint16): computed in float (exact), rounded once to half, nearest even")
    c.save()
    xb, xb_val = bf16_round(f32(v))
    wb = xb_val.reshape(v.shape)[:, ::-1] * 2.0 + 0.5
    ob, _ = bf16_round(f32(wb))
    c = Case("feat_template_kernel_bf16", case, desc)
    c.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c.read(0, "x", xb.reshape(v.shape))
    c.write(1, "out", ob.reshape(v.shape), 0, 0,
            "bfloat bit patterns (uint16): inputs are bfloat, computed in float (exact), rounded once to "
            "bfloat, nearest even")
    c.save()


def constexpr_tg_array(case, desc, n_tg):
    rng = rng_for("feat_constexpr_tg_array", case)
    x = eighths(rng, (n_tg, 16))
    best = x.astype(np.float64).max(axis=1, keepdims=True)
    out = best + np.arange(16)[None, :] * 3.0
    c = Case("feat_constexpr_tg_array", case, desc)
    c.threadgroups([n_tg, 1, 1], [16, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def include_path(case, desc, n):
    rng = rng_for("feat_include_path", case)
    x = f32(rng.integers(-16, 17, size=n) / 4.0)
    v = x.astype(np.float64)
    out = 1.0 - 2.0 * v + 0.5 * v ** 2 + 0.25 * v ** 3
    c = Case("feat_include_path", case, desc)
    c.threads([n, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT + " (quarters up to 4: Horner's steps stay within 2^-6 .. 2^8)")
    c.save()


def define_flag(case, desc, n):
    rng = rng_for("feat_define_flag", case)
    x = eighths(rng, n)
    c = Case("feat_define_flag", case, desc)
    c.threads([n, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(x.astype(np.float64) + 0.25 + 1.0), 0, 0,
            EXACT + " (MSLPORT_FEATURE_BIAS=0.25f; __METAL_VERSION__ is 320)")
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    helper_barrier("small", "3 threadgroups of 64", 3)
    helper_simd_divergent("small", "4 threadgroups of 64 (8 SIMD groups): one all active, one none, the "
                          "rest random", 4)
    helper_out_param("small", "dispatchThreads 96 in 32-thread groups", 96)
    template_kernel("small", "4 threadgroups of 32", 4)
    constexpr_tg_array("small", "3 threadgroups of 16", 3)
    include_path("small", "dispatchThreads 200 in 64-thread groups (last partial)", 200)
    define_flag("small", "dispatchThreads 100 in 64-thread groups (last partial)", 100)
    struct_methods("small", "dispatchThreads 70 rows in 32-thread groups (last partial)", 70)
    builtin_types("small", "(2, 3) threadgroups of (16, 4) threads")
    matrix_ops("small", "dispatchThreads 50 vectors in 32-thread groups (last partial)", 50)
    vector_casts("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100)
    vector_init_lists("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    unions("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    union_constructors("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    constant_table_pointer("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    bool_vectors("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    reinterpret_cast("small", "4 threadgroups of 32", 4)
    mixed_scalar_vector("small", "dispatchThreads 96 in 32-thread groups; scale 0.1 (not a half: half(0.1) is "
                        "0.0999755859375)", 96, 0.1)
    mixed_scalar_vector_template("small", "dispatchThreads 64 in 32-thread groups", 64)
    function_constant("defaults", "no function constants: scale 1, no bias; dispatchThreads 70", 70, {})
    function_constant("scaled_biased", "scale_fc = 2.5, use_bias = true; dispatchThreads 70", 70,
                      {"scale_fc": 2.5, "use_bias": True})
    function_constant("by_index", "function constant 0 (scale_fc) = -0.5 by index, use_bias = false; "
                      "dispatchThreads 70", 70, {"0": -0.5, "use_bias": False})
    uniform_switch_collective("mode2", "mode 2, limit 6; dispatchThreads 70 in 32-thread groups (the last "
                              "has 6 threads)", 70, 2, 6)
    uniform_switch_collective("default", "mode 1: the default branch; dispatchThreads 70", 70, 1, 6)
    constant_copies("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    computed_constants("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    uniform_trip_loop("small", "3 threadgroups of 64, 5 steps each", 3, 5)
    uniform_trip_loop("one_step", "2 threadgroups of 64, 1 step each", 2, 1)
    reference_arguments("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    half_constants("all", "the 16 constants, written by one thread")
    template_literal_calls("small", "dispatchThreads 70 in 32-thread groups (last partial)", 70)
    host_function_constants("by_name", "taps 3, square false, scale 0.5, bias 0.25, set by name; 4 threadgroups "
                            "of 32", 4, {"taps": 3, "square": False, "scale": 0.5, "bias": 0.25})
    host_function_constants("by_index", "taps 5, square true, scale -1.25, bias -1.5, set by index; 3 "
                            "threadgroups of 32", 3, {"100": 5, "101": True, "102": -1.25, "7": -1.5})
    argument_buffers("small", "n 150 of 200 elements, a 1.5; 4 threadgroups of 64", 150, 200, 1.5)
    argument_buffers_nested("small", "n 40 of 64 elements, count 7, scale -3; 2 threadgroups of 32", 40, 64, 7, -3)
    argument_buffers_banks("small", "n 48 of 64 elements; 2 threadgroups of 32", 48, 64)
    macro_kernels_scale("feat_macro_kernels_scale_f32", np.float32, "small", "n 70 of 96; dispatchThreads 96", 70, 96)
    macro_kernels_scale("feat_macro_kernels_scale_i32", np.int32, "small", "n 70 of 96; dispatchThreads 96", 70, 96)
    macro_kernels_swap("small", "3 threadgroups of 32", 3)
    function_constant_params("both", "has_bias and has_scale true: every buffer bound; dispatchThreads 70", 70,
                             True, True)
    function_constant_params("bias_only", "has_bias true, has_scale false: sp not bound; dispatchThreads 70", 70,
                             True, False)
    function_constant_params("neither", "both flags false: bias and sp not bound; dispatchThreads 70", 70,
                             False, False)


def struct_methods(case, desc, rows):
    rng = rng_for("feat_struct_methods", case)
    x = eighths(rng, (rows, 4))
    v = x.astype(np.float64)
    total = v.sum(axis=1) + v[:, :2].sum(axis=1)
    peak = np.maximum(v.max(axis=1), -1000.0)
    out = total / 6.0 * 2.0 + peak + 6.0
    c = Case("feat_struct_methods", case, desc)
    c.threads([rows, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    # total (6 eighths) is exact; /6 rounds (U relative), *2 is exact, + peak + 6
    # round twice more: |error| <= U*(|m| + |m + peak| + |out|) <= 3U*max|terms|.
    bound = 3 * 2.0 ** -24 * (np.abs(total / 3.0) + np.abs(peak) + 6.0) * 4
    c.write(1, "out", f32(out), float(bound.max()), 0,
            "total is exact; the division by 6 and two additions round: 3U * (|mean*2| + |peak| + 6), x4")
    c.save()


def builtin_types(case, desc):
    out = np.zeros((12, 32))
    for gy in range(12):
        for gx in range(32):
            x, y = gx % 16, gy % 4
            lin = x + 16 * y
            out[gy, gx] = 1000 * (lin // 4) + 100 * (lin % 4) + 10 * 2 + 1
    c = Case("feat_builtin_types", case, desc)
    c.threadgroups([2, 3, 1], [16, 4, 1])
    c.write(0, "out", f32(out), 0, 0, "small integers: exact")
    c.save()


def matrix_ops(case, desc, n):
    rng = rng_for("feat_matrix", case)
    v = eighths(rng, (n, 4), -16, 17)
    m = eighths(rng, (4, 4), -16, 17)     # m[c] = column c
    a = eighths(rng, (2, 2), -16, 17)
    M = m.astype(np.float64).T              # M[r, c] = m[c][r]
    A = a.astype(np.float64).T
    out = np.zeros((n, 4))
    for i in range(n):
        x = v[i].astype(np.float64)
        w = (M.T @ (2.0 * np.eye(4))) @ x + x @ M
        S = A.copy()
        S[0, 1] += 1.0                      # s[1][0]: column 1, row 0
        out[i] = w + np.array([S[0, 1], S[1, 1], S[0, 0], S[1, 0]])
    c = Case("feat_matrix", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "v", v)
    c.read(1, "m", m)
    c.read(2, "a", a)
    # Sums of 8 products of eighths up to 2: every product has <= 14 significant
    # bits and the sums stay below 2^12, so float32 is exact in any order.
    c.write(3, "out", f32(out), 0, 0, EXACT)
    c.save()


def vector_casts(case, desc, n):
    rng = rng_for("feat_vector_casts", case)
    h = eighths(rng, (n, 4)).astype(np.float16)      # k/8, |k| <= 80: exact in half
    k = rng.integers(-1000, 1001, size=(n, 4)).astype(np.int32)
    f = f32(rng.integers(-400, 401, size=(n, 4)) / 16.0)
    f[0] = [2.9375, -2.9375, 0.5, -0.5]               # truncation toward zero, both signs
    hv = h.astype(np.float64)
    out = hv + 2.0 * hv + k.astype(np.float64) + np.trunc(f.astype(np.float64))
    c = Case("feat_vector_casts", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "h", h.view(np.uint16))
    c.read(1, "k", k)
    c.read(2, "f", f)
    c.write(3, "out", f32(out), 0, 0, "integers and eighths below 2^11: every float32 operation is exact")
    c.save()


def vector_init_lists(case, desc, n):
    rng = rng_for("feat_vector_init_lists", case)
    x = eighths(rng, (n, 4))
    v = x.astype(np.float64)
    xy = v.copy()
    xy[:, 2:] = 0.0                                    # the elements a short list leaves out are zero
    out = 6.0 * v + xy + xy
    c = Case("feat_vector_init_lists", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "in", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def unions(case, desc, n):
    rng = rng_for("feat_unions", case)
    # Metal's layout of feat_block_q4: half d, half m (sharing the union with a
    # half2), then uchar qs[4]: 8 bytes, 2-aligned.
    block = np.dtype([("d", "<f2"), ("m", "<f2"), ("qs", "u1", (4,))])
    b = np.zeros(n, dtype=block)
    b["d"] = eighths(rng, n, -16, 17).astype(np.float16)
    b["m"] = eighths(rng, n, -16, 17).astype(np.float16)
    b["qs"] = rng.integers(0, 256, size=(n, 4), dtype=np.uint8)
    h = eighths(rng, n).astype(np.float16)            # k/8, |k| <= 80: exact in half
    raw = h.view(np.uint16)
    d, m = b["d"].astype(np.float64), b["m"].astype(np.float64)
    q = (b["qs"] & 0xF).astype(np.float64).sum(axis=1) + (b["qs"] >> 4).astype(np.float64).sum(axis=1)
    out = np.zeros((n, 3))
    out[:, 0] = d * q + 8.0 * m + 0.5
    out[:, 1] = d - m
    out[:, 2] = h.astype(np.float64) + (raw >> 8).astype(np.float64)
    c = Case("feat_unions", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "blocks", b)
    c.read(1, "raw", raw)
    c.write(2, "out", f32(out.reshape(-1)), 0, 0, EXACT)
    c.save()


def union_constructors(case, desc, n):
    rng = rng_for("feat_union_constructors", case)
    x = eighths(rng, n)
    y = eighths(rng, n)
    bits = y.view(np.uint32)
    v, w = x.astype(np.float64), y.astype(np.float64)
    out = np.zeros((n, 4))
    out[:, 0] = v + 0.25
    out[:, 1] = (v + 1.0) * 2.0
    out[:, 2] = w
    out[:, 3] = v / 2.0 + 0.25
    c = Case("feat_union_constructors", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.read(1, "bits", bits)
    c.write(2, "out", f32(out.reshape(-1)), 0, 0, EXACT)
    c.save()


def constant_table_pointer(case, desc, n):
    rng = rng_for("feat_constant_table_pointer", case)
    x = eighths(rng, n)
    s = (np.arange(8) + 1) / 2.0
    grid = np.array([0x04030201, 0x08070605, 0x0C0B0A09, 0x100F0E0D], dtype="<u4")
    grid_bytes = grid.view(np.uint8).reshape(4, 4).astype(np.float64)
    out = np.zeros((n, 2))
    for i in range(n):
        r = i % 4
        out[i, 0] = float(x[i]) * (s[2 * r] + s[2 * r + 1]) + grid_bytes[r].sum()
        a = i % 2
        rows = 4 * np.arange(2)[:, None] + np.arange(4)[None, :] + 1.0
        out[i, 1] = (s[2 * r + 1] if i % 2 == 1 else s[7]) - s[6] + rows[a, 3] + rows[a, 1]
    c = Case("feat_constant_table_pointer", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out.reshape(-1)), 0, 0, EXACT)
    c.save()


def function_constant(case, desc, n, constants):
    rng = rng_for("feat_function_constant", case)
    x = eighths(rng, n)
    bias = eighths(rng, 4)
    scale = constants.get("scale_fc", constants.get("0", 1.0))
    out = x.astype(np.float64) * scale
    if constants.get("use_bias", False):
        out += bias.astype(np.float64)[np.arange(n) % 4]
    c = Case("feat_function_constant", case, desc)
    c.function_constants(**constants)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    if constants.get("use_bias", False):
        c.read(2, "bias", bias)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def host_function_constants(case, desc, n_tg, constants):
    """The kernel's header comment, from the constants' values as the case
    gives them (by name or by index)."""
    rng = rng_for("feat_host_function_constants", case)
    n = n_tg * 32
    x = eighths(rng, n)
    get = lambda name, index: constants[name] if name in constants else constants[str(index)]
    taps, square, scale, bias = get("taps", 100), get("square", 101), get("scale", 102), get("bias", 7)
    xv = x.astype(np.float64)
    w = float(scale) / (np.arange(taps) + 1.0)
    idx = (np.arange(n)[:, None] + np.arange(taps)[None, :]) % n
    terms = w[None, :] * xv[idx]
    acc = terms.sum(axis=1)
    mag = np.abs(terms).sum(axis=1)
    if square:
        nxt = (np.arange(n) // 32) * 32 + (np.arange(n) % 32 + 1) % 32
        acc, mag = acc * acc[nxt], mag * mag[nxt]
    out = acc + float(np.float16(bias)) + (2 * taps + 1)
    # float32 evaluation: each weight, product and sum rounds once (at most
    # 2 * taps + 1 roundings, doubled by the product of two sums), each off
    # by at most 2^-24 of the terms' magnitude.
    atol = float((2 * (2 * taps + 1) + 1) * 2.0 ** -24 * mag.max())
    c = Case("feat_host_function_constants", case, desc)
    c.function_constants(**constants)
    c.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), atol, 0,
            "float32 sums of products: at most (2 * (2 * taps + 1) + 1) roundings of 2^-24 of the largest "
            "sum of the terms' magnitudes")
    c.read(2, "n", np.array([n], dtype=np.uint32))
    c.save()


def template_literal_calls(case, desc, n):
    """The kernel's header comment: x = k/8 with |k| <= 80, so x / 4, x * 0.25
    and x * 0.5 are exact in half and float, and so is every result."""
    rng = rng_for("feat_template_literal_calls", case)
    x = rng.integers(-80, 81, size=n) / 8.0
    x[:3] = [-2.0, 2.0, -0.5]   # the hard sigmoid's ends; x * 0.5 + 0.25 = 0
    out = np.stack([np.clip(x / 4 + 0.5, 0, 1), np.abs(x * 0.25 - 1), np.floor(x * 0.5 + 0.25)], axis=1).reshape(-1)
    for name, dt in (("feat_template_literal_calls_f", np.float32), ("feat_template_literal_calls_h", np.float16)):
        c = Case(name, case, desc)
        c.threads([n, 1, 1], [32, 1, 1])
        c.read(0, "in", x.astype(dt) if dt == np.float32 else x.astype(dt).view(np.uint16))
        o = out.astype(dt)
        c.write(1, "out", o if dt == np.float32 else o.view(np.uint16), 0, 0,
                "eighths scaled by powers of two: every result is exact in half and float")
        c.save()


def uniform_switch_collective(case, desc, n, mode, limit):
    """The kernel's header comment: sums of eighths times 1 or 2, exact."""
    rng = rng_for("feat_uniform_switch_collective", case)
    x = eighths(rng, n)
    groups = (n + 31) // 32
    out = np.full(2 * groups, -1.0)
    if mode == 2:
        for g in range(groups):
            lanes = x[32 * g:min(32 * g + 32, n)].astype(np.float64)
            for r in range(2):
                if 2 * g + r < limit:
                    out[2 * g + r] = lanes.sum() * (r + 1)
    c = Case("feat_uniform_switch_collective", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.read(2, "p", np.array([mode, limit], dtype=np.int32))
    c.save()


def half_constants(case, desc):
    """Each constant of the kernel's table rounded to half (NumPy rounds a
    float64 to float16 correctly); M_PI_H * 2 doubles a half exactly."""
    import math
    values = [65504.0, math.e, math.log2(math.e), math.log10(math.e), math.log(2), math.log(10), math.pi,
              math.pi / 2, math.pi / 4, 1 / math.pi, 2 / math.pi, 2 / math.sqrt(math.pi), math.sqrt(2),
              math.sqrt(0.5), -65504.0, float(np.float16(math.pi)) * 2]
    c = Case("feat_half_constants", case, desc)
    c.threads([1, 1, 1], [1, 1, 1])
    c.write(0, "out", np.array(values, dtype=np.float64).astype(np.float16).view(np.uint16), 0, 0,
            "each constant correctly rounded to half: bit-exact")
    c.save()


def reference_arguments(case, desc, n):
    """The kernel's header comment. a: eighths in [-10, 10]; v: halves of
    quarters in [-8, 8]: every float and half operation is exact."""
    rng = rng_for("feat_reference_arguments", case)
    x = eighths(rng, n)
    y = (rng.integers(-32, 33, size=(n, 4)) / 4.0).astype(np.float16)
    a = x.astype(np.float64)
    v = y.astype(np.float64)
    out = ((a + 1) * 2 + 3) + (a * 2 + a * 0.5)
    outh = ((v - 1) * 2 + np.abs(v) * 2).astype(np.float16)
    c = Case("feat_reference_arguments", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.read(1, "y", y.view(np.uint16))
    c.write(2, "out", f32(out), 0, 0, EXACT)
    c.write(3, "outh", outh.view(np.uint16), 0, 0, "quarters up to 32 in half: every operation exact, bit-exact")
    c.save()


def uniform_trip_loop(case, desc, groups, steps):
    """The kernel's header comment: sums of eighths, exact."""
    rng = rng_for("feat_uniform_trip_loop", case)
    x = eighths(rng, groups * steps * 64)
    xv = x.astype(np.float64).reshape(groups, steps, 64)
    out = np.roll(xv, -1, axis=2).sum(axis=1).reshape(-1)   # lane l reads lane (l + 1) % 64
    c = Case("feat_uniform_trip_loop", case, desc)
    c.threadgroups([groups, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.read(2, "n", np.array([steps], dtype=np.uint32))
    c.save()


def constant_copies(case, desc, n):
    """The kernel's header comment, with its table; eighths: exact."""
    rng = rng_for("feat_constant_copies", case)
    params = np.dtype([("scale", "<f4"), ("offset", "<f4"), ("bias", "<i4")])
    pair = np.dtype([("value", "<f4"), ("bias", "<i4")])
    table = [(1.0, 0.5, 1), (2.0, -1.0, 2), (-0.5, 4.0, 3)]
    x = eighths(rng, n)
    p = np.array([(1.5, 0.0, -7)], dtype=params)
    k = np.arange(n) % 3
    out = np.zeros(n, dtype=pair)
    out["value"] = f32(1.5 * x.astype(np.float64) + np.array([t[1] for t in table])[k])
    out["bias"] = -7 + np.array([t[2] for t in table])[k]
    row = np.array([table[2 - j] for j in k], dtype=params)
    c = Case("feat_constant_copies", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.read(1, "p", p)
    c.write(2, "out", out, 0, 0, "one float32 product and sum of eighths, and integers: exact")
    c.write(3, "row", row, 0, 0, "copies of the table's rows: exact")
    c.save()


def computed_constants(case, desc, n):
    """The kernel's header comment: turns of eighths, doubled, plus quarters: exact."""
    rng = rng_for("feat_computed_constants", case)
    v = eighths(rng, (n, 2))
    vv = v.astype(np.float64)
    quarter = np.stack([-vv[:, 1], vv[:, 0]], axis=1)   # columns (0, 1) and (-1, 0)
    half = -vv
    out = np.where((np.arange(n) % 2 == 0)[:, None], quarter, half) * 2.0 + np.array([0.25, 0.5])
    c = Case("feat_computed_constants", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "v_in", v)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def bool_vectors(case, desc, n):
    """Metal's bool vectors, from the rules the kernel's header comment
    restates (MSL: relational and logical operators on vectors are lane by
    lane and give bool vectors; a number converts to bool as != 0, a bool to
    a number as 1 or 0; select(a, b, m) takes b where m is true)."""
    rng = rng_for("feat_bool_vectors", case)
    a = f32(rng.integers(-12, 13, size=(n, 4)) / 4.0)
    b = f32(rng.integers(-12, 13, size=(n, 4)) / 4.0)
    b[::3, 1] = a[::3, 1]                               # equal lanes: < is false, <= true
    specials = [0.0, -0.0, np.nan, np.inf, -np.inf, 0.5, -3.0, 1e-3]
    c = f32(rng.choice(specials, size=(n, 4)))
    c[0] = [0.0, -0.0, np.nan, np.inf]
    k = rng.integers(-3, 9, size=(n, 4)).astype(np.int32)
    k[rng.random((n, 4)) < 0.3] = 0                     # zero lanes are false
    m = rng.random((n, 4)) < 0.5
    m[1] = True                                         # a row where all(mi) holds
    # struct Flags: bool2 p at byte 0, float w at 4, bool3 q at 8 (byte 11 padding).
    fp = rng.random((n, 2)) < 0.5
    fq = rng.random((n, 3)) < 0.5
    fq[2] = True
    fw = f32(rng.integers(-40, 41, size=n) / 8.0)
    flags = np.zeros((n, 12), np.uint8)
    flags[:, 0:2] = fp
    flags[:, 4:8] = fw.reshape(n, 1).view(np.uint8)
    flags[:, 8:11] = fq

    x, y, z = (v.astype(np.float64) for v in (a, b, c))
    lt = x < y
    nz = k != 0
    mi = m
    maj = (lt & nz) | (lt & mi) | (nz & mi)
    whole = k[:, 3] > 0
    fl = np.where(whole[:, None], ~lt[:, :3], np.stack([~lt[:, 0], lt[:, 1], lt[:, 2]], axis=1))
    pieces = np.stack([np.ones(n, bool), np.zeros(n, bool), x[:, 2] >= 0.0, np.zeros(n, bool)], axis=1)
    sw = lt[:, ::-1].copy()                             # lt.wzyx
    sw[:, 0:2] = mi[:, 2:4]                             # sw.xy = mi.zw
    sw[:, 2] = ~sw[:, 2]
    zb = (z != 0.0) | np.isnan(z)                       # NaN != 0 is true
    out = np.zeros((n, 5, 4))
    out[:, 0] = lt
    out[:, 1] = np.where(nz & ~mi, y, x)
    out[:, 2] = pieces + 2.0 * (lt == nz) + 4.0 * (lt != mi) + 8.0 * maj
    out[:, 3] = zb + 2.0 * (x <= y) + 4.0 * (k[:, 0] != 0)[:, None]
    out[:, 4] = sw
    bits = np.zeros(n, np.uint32)
    idx = k[:, 0] & 3
    terms = [lt.any(axis=1), lt.all(axis=1), np.ones(n, bool), mi.all(axis=1), lt[np.arange(n), idx], lt[:, 0],
             (k.astype(np.int64) % 2**32 > 5).any(axis=1), fl.all(axis=1)]
    for bit, t in enumerate(terms):
        bits |= (t.astype(np.uint32) << bit)
    mout = np.zeros((n, 3, 4), bool)
    mout[:, 0] = maj
    mout[:, 1, :3] = fl
    mout[:, 1, 3] = lt[:, 3] != mi[:, 3]
    mout[:, 2] = np.where(lt, nz, mi)
    fout = np.zeros((n, 12), np.uint8)
    fout[:, 0:2] = fp & fq[:, 1:3]
    fout[:, 4:8] = f32(fw.astype(np.float64) + fq.all(axis=1)).reshape(n, 1).view(np.uint8)
    fout[:, 8:11] = ~fq

    cs = Case("feat_bool_vectors", case, desc)
    cs.threads([n, 1, 1], [32, 1, 1])
    cs.read(0, "a", a)
    cs.read(1, "b", b)
    cs.read(2, "c", c)
    cs.read(3, "k", k)
    cs.read(4, "m", m)
    cs.read(5, "flags", flags)
    cs.write(6, "out", f32(out.reshape(n * 5, 4)), 0, 0, "0/1 lanes, small sums of them and quarters: exact")
    cs.write(7, "bits", bits, 0, 0, "flag bits: exact")
    cs.write(8, "mout", mout.reshape(n * 3, 4), 0, 0, "bool lanes, a byte each: exact")
    cs.read_write(9, "fout", np.zeros((n, 12), np.uint8), fout, 0, 0,
                  "bool bytes and a float of eighths plus 0 or 1: exact; the padding bytes keep their zeros")
    cs.save()


def reinterpret_cast(case, desc, n_tg):
    rng = rng_for("feat_reinterpret_cast", case)
    n = 32 * n_tg
    x = eighths(rng, 4 * n)
    h = eighths(rng, 2 * n).astype(np.float16)        # k/8, |k| <= 80: exact in half
    i = np.arange(n)
    m = 32 * (i // 32) + (i % 32 + 1) % 32            # the next lane of the same threadgroup
    xv = x.astype(np.float64).reshape(n, 4)
    v = xv[m][:, ::-1].copy()                         # that lane's floats, reversed
    v[:, 0] += h[0::2].astype(np.float64)
    v[:, 1] += h[1::2].astype(np.float64)
    vf = f32(v)
    expected_bits = vf.view(np.uint32).copy()        # the same bits, read as uint
    out = vf.copy()
    out[:, 0] = np.abs(out[:, 0])                    # sign bit cleared through a thread reference
    out[:, 3] = -out[:, 3]                           # sign bit flipped through a device reference
    c = Case("feat_reinterpret_cast", case, desc)
    c.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c.tg_memory(0, 32 * 16)
    c.read(0, "in", x)
    c.read(1, "hin", h.view(np.uint16))
    c.write(2, "out", out, 0, 0, EXACT)
    c.write(3, "bits", expected_bits, 0, 0, "bit patterns of exact float32 sums: exact")
    c.save()


def half_op(x):
    """A half result: the exact value (float64) rounded to half, to nearest even."""
    return np.asarray(x, dtype=np.float64).astype(np.float16)


def mixed_scalar_vector_template(case, desc, n):
    """y = 0.1 * v per instance: the literal converted to the element type
    first (float32(0.1), half(0.1)), the product rounded to it. (Half: 0.1
    widened to float and the product rounded to half would differ in the
    last bit for most inputs.)"""
    rng = rng_for("feat_mixed_scalar_vector_template", case)
    v = rng.integers(-2000, 2001, size=(n, 4)) / 64.0   # |v| <= 31.25, 1/64 steps: halves and floats exactly
    f = np.float32(0.1) * v.astype(np.float32)
    h = half_op(float(np.float16(0.1)) * v)
    for name, x, y, note in (("feat_mixed_scalar_vector_f4", v.astype(np.float32), f.astype(np.float32),
                              "one float32 product, correctly rounded (NumPy float32): exact"),
                             ("feat_mixed_scalar_vector_h4", half_op(v).view(np.uint16), h.view(np.uint16),
                              "the exact product rounded once to half: bit-exact")):
        c = Case(name, case, desc)
        c.threads([n, 1, 1], [32, 1, 1])
        c.read(0, "x", x)
        c.write(1, "y", y, 0, 0, note)
        c.save()


def mixed_scalar_vector(case, desc, n, scale):
    rng = rng_for("feat_mixed_scalar_vector", case)
    h = half_op(rng.integers(-2000, 2001, size=(n, 4)) / 64.0)   # |h| <= 31.25, 1/64 steps
    s = np.float32(scale)
    hs = np.float16(s)                    # the scalar converted to the element type
    hv = h.astype(np.float64)
    sv = rng.integers(-20000, 20001, size=(n, 4)).astype(np.int16)
    k = rng.integers(-100000, 100001, size=n).astype(np.int32)
    k[:4] = [70000, -70000, 32768, 65535]  # low 16 bits: 4464, -4464, -32768, -1
    a = half_op(hv * float(hs))
    b = half_op(float(hs) + hv)
    c = half_op(half_op(hv * float(hs)).astype(np.float64) - 0.5)
    oh = np.stack([a, b, c], axis=1).reshape(3 * n, 4)
    odd = (np.arange(n) % 2 == 1)[:, None]
    of = np.where(odd, a.astype(np.float64), 0.0)
    # short arithmetic wraps modulo 2^16; k keeps its low 16 bits
    prod = (sv.astype(np.int64) * 3 + (k.astype(np.int64) & 0xFFFF).astype(np.uint16).astype(np.int16)[:, None])
    os_ = ((prod + 32768) % 65536 - 32768).astype(np.int16)
    c_ = Case("feat_mixed_scalar_vector", case, desc)
    c_.threads([n, 1, 1], [32, 1, 1])
    c_.read(0, "h", h.view(np.uint16))
    c_.read(1, "scale", np.array([s], dtype=np.float32))
    c_.read(2, "sv_in", sv)
    c_.read(3, "k_in", k)
    c_.write(4, "oh", oh.view(np.uint16), 0, 0,
             "one rounding to half per operation, of exact products and sums: bit-exact")
    c_.write(5, "of", f32(of), 0, 0, "halves widened to float: exact")
    c_.write(6, "os", os_, 0, 0, "wrapping 16-bit integer arithmetic: exact")
    c_.save()


def argument_buffers(case, desc, n, size, a):
    """The kernel's header comment. The argument buffer is AxpyArgs's 32
    bytes as Metal lays them out (three 8-byte pointers, whose values the
    runner stores, then a and n); eighths times 1.5 plus eighths: exact."""
    rng = rng_for("feat_argument_buffers", case)
    x, y, out0 = eighths(rng, size), eighths(rng, size), eighths(rng, size)
    out = out0.copy()
    out[:n] = f32(a * x[:n].astype(np.float64) + y[:n])
    args = np.frombuffer(struct.pack("<QQQfI", 0, 0, 0, a, n), dtype=np.uint8)
    c = Case("feat_argument_buffers", case, desc)
    c.threadgroups([(size + 63) // 64, 1, 1], [64, 1, 1])
    c.read(0, "args", args)
    c.read(0, "x", x, argument_buffer_offset=0)
    c.read(0, "y", y, argument_buffer_offset=8)
    c.read_write(0, "out", out0, out, 0, 0, EXACT + "; past n the initial values, untouched",
                 argument_buffer_offset=16)
    c.save()


def argument_buffers_nested(case, desc, n, size, count, scale):
    """The kernel's header comment. NestedArgs is 40 bytes: count at 0, the
    nested Ends' two pointers at 8 and 16, lut at 24, scale at 32; integers:
    exact."""
    rng = rng_for("feat_argument_buffers_nested", case)
    vals = rng.integers(-1000, 1000, size).astype(np.int32)
    lut = np.array([5, -2, 11, 0], dtype=np.int32)
    dst0 = rng.integers(-100, 100, size).astype(np.int32)
    dst = dst0.copy()
    dst[:n] = lut[vals[:n] & 3] * scale + count
    args = np.frombuffer(struct.pack("<I4xQQQi4x", count, 0, 0, 0, scale), dtype=np.uint8)
    c = Case("feat_argument_buffers_nested", case, desc)
    c.threadgroups([(size + 31) // 32, 1, 1], [32, 1, 1])
    c.read(0, "n", np.array([n], dtype=np.uint32))
    c.read(1, "args", args)
    c.read(1, "vals", vals, argument_buffer_offset=8)
    c.read_write(1, "dst", dst0, dst, 0, 0, "integers: exact; past n the initial values, untouched",
                 argument_buffer_offset=16)
    c.read(1, "lut", lut, argument_buffer_offset=24)
    c.save()


def argument_buffers_banks(case, desc, n, size):
    """The kernel's header comment. Banks is 40 bytes: the three bank
    pointers at 0, 8 and 16, out at 24, n at 32; eighths plus twice eighths:
    exact."""
    rng = rng_for("feat_argument_buffers_banks", case)
    banks = [eighths(rng, size) for _ in range(3)]
    out0 = eighths(rng, size)
    out = out0.copy()
    i = np.arange(n)
    chosen = np.stack(banks)[i % 3, i].astype(np.float64)
    out[:n] = f32(chosen + 2.0 * banks[2][:n])
    args = np.frombuffer(struct.pack("<QQQQI4x", 0, 0, 0, 0, n), dtype=np.uint8)
    c = Case("feat_argument_buffers_banks", case, desc)
    c.threadgroups([(size + 31) // 32, 1, 1], [32, 1, 1])
    c.read(0, "b", args)
    for j, bank in enumerate(banks):
        c.read(0, "bank%d" % j, bank, argument_buffer_offset=8 * j)
    c.read_write(0, "out", out0, out, 0, 0, EXACT + "; past n the initial values, untouched",
                 argument_buffer_offset=24)
    c.save()


def macro_kernels_scale(kernel, dtype, case, desc, n, size):
    """The kernel's header comment (k = 3); eighths or integers: exact. Past
    n the initial values, untouched."""
    rng = rng_for(kernel, case)
    if dtype == np.float32:
        x, out0 = eighths(rng, size), eighths(rng, size)
    else:
        x = rng.integers(-1000, 1000, size).astype(np.int32)
        out0 = rng.integers(-1000, 1000, size).astype(np.int32)
    out = out0.copy()
    i = np.arange(n)
    out[:n] = (x[:n].astype(np.float64) * 3 + i // 32).astype(dtype)
    c = Case(kernel, case, desc)
    c.threads([size, 1, 1], [32, 1, 1])
    c.read(0, "in", x)
    c.read_write(1, "out", out0, out, 0, 0, "eighths or integers times 3 plus an integer: exact")
    c.read(2, "n", np.array([n], dtype=np.uint32))
    c.save()


def macro_kernels_swap(case, desc, groups):
    """The kernel's header comment; eighths plus small integers: exact."""
    rng = rng_for("feat_macro_kernels_swap", case)
    n = groups * 32
    v = eighths(rng, (n, 2))
    i = np.arange(n)
    out = v[:, ::-1].astype(np.float64) + (i // 32 + i % 32)[:, None]
    c = Case("feat_macro_kernels_swap", case, desc)
    c.threadgroups([groups, 1, 1], [32, 1, 1])
    c.read(0, "v", v)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def function_constant_params(case, desc, n, bias_on, scale_on):
    """The kernel's header comment, scale 1.5, shift -0.25; eighths: exact.
    A buffer whose flag is false is not in the case, as a Metal host binds
    none there."""
    rng = rng_for("feat_function_constant_params", case)
    x, bias = eighths(rng, n), eighths(rng, n)
    v = x.astype(np.float64)
    if scale_on:
        v = v * 1.5 - 0.25
    if bias_on:
        v = v + bias
    c = Case("feat_function_constant_params", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.function_constants(has_bias=bias_on, has_scale=scale_on)
    c.read(0, "x", x)
    c.write(1, "out", f32(v), 0, 0, EXACT)
    if bias_on:
        c.read(2, "bias", bias)
    if scale_on:
        c.read(3, "sp", np.array([1.5, -0.25], dtype=np.float32))
    c.save()
