"""Golden cases for the feature-test kernels in metal_src/features/.

Each kernel exercises one Metal idea. Expected outputs come from NumPy
reasoning about Metal's semantics:
  * a threadgroup's threads are linearised as x + y*X + z*X*Y; SIMD groups are
    consecutive runs of 32 of those (the last one partial when the size is not
    a multiple of 32); a collective combines only the lanes that execute it
    (not returned, inside the taken branch);
  * simd_shuffle_down(v, d) leaves the top d lanes with their own value;
  * float -> bfloat and float -> half conversions round to nearest even;
  * for dispatchThreads, edge threadgroups are partial and
    threads_per_threadgroup is their real size (docs/golden-format.md).
Most data are small integers stored as floats, so sums are exact and the
tolerance is 0."""
import math

import numpy as np

from common import U, Case, f32, u32, bf16_round, rng_for, reset_kernel_dir, tol_from_bound

KERNELS = ["feat_simd_sum_divergent", "feat_early_return_simd", "feat_barrier_in_loop",
           "feat_barrier_stencil_rounds", "feat_static_tg_array", "feat_static_tg_array_2d",
           "feat_dynamic_tg_memory", "feat_uint3_builtins", "feat_dispatch_threads",
           "feat_simd_max_shuffle", "feat_bfloat_io", "feat_half_io", "feat_implicit_buffer_index",
           "feat_constant_struct", "feat_program_constant", "feat_define_macro", "feat_simdgroup_matmul",
           "feat_simd_lanes_3d", "feat_vector_subscript"]

EXACT = "small integers in float32: every intermediate is exact, so the result must be exact"


def ints(rng, shape, lo=-9, hi=10):
    return f32(rng.integers(lo, hi, size=shape))


def simd_groups_1d(n_groups, tg):
    """For a 1-D dispatch: list of arrays of global thread ids, one per SIMD group."""
    out = []
    for g in range(n_groups):
        for s in range(0, tg, 32):
            out.append(np.arange(g * tg + s, g * tg + min(s + 32, tg)))
    return out


def simd_sum_divergent(case, desc, n_tg, tg, active):
    k = "feat_simd_sum_divergent"
    rng = rng_for(k, case)
    n = n_tg * tg
    x = ints(rng, n)
    groups = simd_groups_1d(n_tg, tg)
    assert len(groups) == len(active)
    out = np.full(n, -1.0)
    for g, ids in enumerate(groups):
        on = ids[np.arange(ids.size) < active[g]]
        out[on] = x[on].astype(np.float64).sum()
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [tg, 1, 1])
    c.read(0, "x", x)
    c.read(1, "active", u32(active))
    c.write(2, "out", f32(out), 0, 0, EXACT)
    c.save()


def early_return_simd(case, desc, n, tg, extra_tg=0):
    k = "feat_early_return_simd"
    rng = rng_for(k, case)
    n_tg = math.ceil(n / tg) + extra_tg
    x = ints(rng, n)
    keep = u32(rng.random(n) < 0.6)
    keep[:32] = 1          # one SIMD group with every lane alive
    keep[32:64] = 0        # one with none
    sentinel = np.full(n, -7.0, dtype=np.float32)
    out = sentinel.astype(np.float64).copy()
    for ids in simd_groups_1d(n_tg, tg):
        live = ids[(ids < n)]
        live = live[keep[live] != 0]
        if live.size:
            out[live] = x[live].astype(np.float64).sum()
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [tg, 1, 1])
    c.read(0, "x", x)
    c.read(1, "keep", keep)
    c.read_write(2, "out", sentinel, f32(out), 0, 0,
                 EXACT + "; threads that returned leave the initial -7 in place")
    c.read(3, "n", u32([n]))
    c.save()


def barrier_in_loop(case, desc, n_tg, tg):
    k = "feat_barrier_in_loop"
    rng = rng_for(k, case)
    x = ints(rng, (n_tg, tg))
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [tg, 1, 1])
    c.tg_memory(0, tg * 4)
    c.read(0, "x", x)
    c.write(1, "out", f32(x.astype(np.float64).sum(axis=1)), 0, 0, EXACT)
    c.save()


def stencil_rounds(case, desc, n_tg, tg, rounds):
    k = "feat_barrier_stencil_rounds"
    rng = rng_for(k, case)
    x = ints(rng, (n_tg, tg), 0, 4)
    v = x.astype(np.float64)
    for _ in range(rounds):
        v = v + np.roll(v, -1, axis=1)
    assert np.abs(v).max() < 2 ** 24
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [tg, 1, 1])
    c.tg_memory(0, tg * 4)
    c.read(0, "x", x)
    c.write(1, "out", f32(v), 0, 0, EXACT)
    c.read(2, "rounds", u32([rounds]))
    c.save()


def static_tg_array(case, desc, n_tg):
    k = "feat_static_tg_array"
    rng = rng_for(k, case)
    x = f32(rng.normal(size=(n_tg, 64)))
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(x[:, ::-1]), 0, 0, "values are only moved: exact")
    c.save()


def static_tg_array_2d(case, desc, n):
    k = "feat_static_tg_array_2d"
    rng = rng_for(k, case)
    a = f32(rng.normal(size=(n, n)))
    c = Case(k, case, desc)
    c.threadgroups([n // 8, n // 8, 1], [8, 8, 1])
    c.read(0, "in", a)
    c.write(1, "out", f32(a.T), 0, 0, "values are only moved: exact")
    c.read(2, "n", u32([n]))
    c.save()


def dynamic_tg_memory(case, desc, n_tg, tg):
    k = "feat_dynamic_tg_memory"
    rng = rng_for(k, case)
    x = ints(rng, (n_tg, tg))
    out = np.zeros((n_tg, tg))
    for g in range(n_tg):
        for t in range(tg):
            j = (t + 1) % tg
            out[g, t] = x[g, j] + ((j * 3 + g) % 7)
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [tg, 1, 1])
    c.tg_memory(0, tg * 4)
    c.tg_memory(1, tg * 4)
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def uint3_builtins(case, desc, tgs, tptg):
    k = "feat_uint3_builtins"
    X, Y, Z = tptg
    grid = [tgs[i] * tptg[i] for i in range(3)]
    rec = np.zeros((grid[2], grid[1], grid[0], 21), dtype=np.uint32)
    for z in range(grid[2]):
        for y in range(grid[1]):
            for x in range(grid[0]):
                g = (x, y, z)
                l = (x % X, y % Y, z % Z)
                grp = (x // X, y // Y, z // Z)
                li = l[0] + l[1] * X + l[2] * X * Y
                rec[z, y, x] = list(g) + list(l) + list(grp) + list(tptg) + list(tgs) + grid + \
                    [li, li % 32, li // 32]
    c = Case(k, case, desc)
    c.threadgroups(tgs, tptg)
    c.write(0, "out", rec, 0, 0, "integer output: exact")
    c.save()


def dispatch_threads(case, desc, threads, tptg):
    k = "feat_dispatch_threads"
    W, H = threads[0], threads[1]
    rec = np.zeros((H, W, 10), dtype=np.uint32)
    for y in range(H):
        for x in range(W):
            gx, gy = x // tptg[0], y // tptg[1]
            rw = min(tptg[0], W - gx * tptg[0])
            rh = min(tptg[1], H - gy * tptg[1])
            rec[y, x] = [x, y, x % tptg[0], y % tptg[1], gx, gy, rw, rh, W, H]
    c = Case(k, case, desc)
    c.threads(threads, tptg)
    c.write(0, "out", rec, 0, 0, "integer output: exact")
    c.save()


def simd_max_shuffle(case, desc, n_tg, tg):
    k = "feat_simd_max_shuffle"
    rng = rng_for(k, case)
    assert tg % 32 == 0
    x = f32(rng.normal(size=n_tg * tg))
    g = x.reshape(-1, 32)
    mx = np.repeat(g.max(axis=1), 32)
    down = g.copy()
    down[:, :29] = g[:, 3:]
    bc = np.repeat(g[:, 5], 32)
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [tg, 1, 1])
    c.read(0, "x", x)
    c.write(1, "max_out", f32(mx), 0, 0, "a maximum of stored values: exact")
    c.write(2, "down_out", f32(down.ravel()), 0, 0, "values are only moved: exact")
    c.write(3, "bcast_out", f32(bc), 0, 0, "values are only moved: exact")
    c.save()


def bfloat_io(case, desc, n):
    k = "feat_bfloat_io"
    rng = rng_for(k, case)
    mag = 2.0 ** rng.uniform(-4, 6, size=n)
    bits, v = bf16_round(f32(mag * rng.choice([-1.0, 1.0], size=n)))
    w = v * 3.0 + 0.5
    assert np.array_equal(f32(w).astype(np.float64), w)      # exact in float32
    ybits, _ = bf16_round(f32(w))
    c = Case(k, case, desc)
    c.threads([n, 1, 1], [64, 1, 1])
    c.read(0, "x", bits)
    c.write(1, "y", ybits, 0, 0, "bfloat bit patterns: bfloat(w) rounds to nearest even; exact")
    c.write(2, "yf", f32(w), 0, 0, "v*3+0.5 is exact in float32 for these bf16 inputs")
    c.write(3, "bits", bits.copy(), 0, 0, "as_type<ushort>(bfloat): the input's bits, exact")
    c.save()


def half_io(case, desc, n):
    k = "feat_half_io"
    rng = rng_for(k, case)
    mag = 2.0 ** rng.uniform(-3, 5, size=n)
    xh = (mag * rng.choice([-1.0, 1.0], size=n)).astype(np.float16)
    v = xh.astype(np.float64)
    w = v * 3.0 + 0.25
    assert np.array_equal(f32(w).astype(np.float64), w)
    yh = f32(w).astype(np.float16)                              # IEEE round to nearest even
    c = Case(k, case, desc)
    c.threads([n, 1, 1], [64, 1, 1])
    c.read(0, "x", xh.view(np.uint16))
    c.write(1, "y", yh.view(np.uint16).copy(), 0, 0,
            "half bit patterns (uint16): half(w) rounds to nearest even; exact")
    c.write(2, "yf", f32(w), 0, 0, "v*3+0.25 is exact in float32 for these half inputs")
    c.save()


def implicit_buffer_index(case, desc, n, tg):
    k = "feat_implicit_buffer_index"
    rng = rng_for(k, case)
    a = f32(rng.normal(size=n))
    b = f32(rng.normal(size=n))
    out = 2.0 * a.astype(np.float64) - b.astype(np.float64)
    c = Case(k, case, desc)
    c.threadgroups([math.ceil(n / tg) + 1, 1, 1], [tg, 1, 1])
    c.read(0, "a", a)
    c.read(1, "b", b)
    c.write(2, "out", f32(out), 0, 2 * U, "a*2 is exact, one rounding for the subtraction: rtol 2U")
    c.read(3, "n", u32([n]))
    c.save()


feat_params = np.dtype({"names": ["n", "scale", "shift", "bias"],
                        "formats": ["<u4", "<f4", "<i4", ("<f4", (2,))],
                        "offsets": [0, 4, 8, 16], "itemsize": 24})


def constant_struct(case, desc, n, shift):
    k = "feat_constant_struct"
    rng = rng_for(k, case)
    x = f32(rng.normal(size=n))
    scale = float(np.float32(rng.uniform(0.5, 2.0)))
    bias = f32(rng.normal(size=2))
    src = (np.arange(n) + shift) % n
    bsel = np.where(np.arange(n) % 2 == 1, float(bias[1]), float(bias[0]))
    prod = x.astype(np.float64)[src] * scale
    out = prod + bsel
    bound = 2 * U * (np.abs(prod) + np.abs(bsel))
    atol, rtol = tol_from_bound(out, bound, 2 * U)
    p = np.zeros(1, dtype=feat_params)
    p["n"], p["scale"], p["shift"], p["bias"] = n, scale, shift, bias
    c = Case(k, case, desc)
    c.threadgroups([math.ceil(n / 64), 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), atol, rtol,
            "x*scale + bias: two roundings (or one with FMA), 2U*(|x*scale|+|bias|) per element, x4")
    c.read(2, "p", p)
    c.save()


def program_constant(case, desc, n_tg):
    k = "feat_program_constant"
    rng = rng_for(k, case)
    x = ints(rng, (n_tg, 16))
    acc = (x.astype(np.float64) * np.arange(1, 17)).sum(axis=1, keepdims=True)
    out = acc + np.arange(16)
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [16, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def define_macro(case, desc, n, tg):
    k = "feat_define_macro"
    rng = rng_for(k, case)
    x = ints(rng, (n, 4))
    xd = x.astype(np.float64)
    out = 0.5 * 16 + xd[:, 3] * 8 + xd[:, 2] * 4 + xd[:, 1] * 2 + xd[:, 0]
    c = Case(k, case, desc)
    c.threadgroups([math.ceil(n / tg), 1, 1], [tg, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.read(2, "n", u32([n]))
    c.save()


def simdgroup_matmul(case, desc, kdim):
    k = "feat_simdgroup_matmul"
    rng = rng_for(k, case)
    a = ints(rng, (8, kdim), -4, 5)
    bt = ints(rng, (8, kdim), -4, 5)
    cm = a.astype(np.float64) @ bt.astype(np.float64).T
    c = Case(k, case, desc)
    c.threadgroups([1, 1, 1], [32, 1, 1])
    c.read(0, "a", a)
    c.read(1, "bt", bt)
    c.write(2, "c", f32(cm), 0, 0, EXACT)
    c.read(3, "k", u32([kdim]))
    c.save()


def simd_lanes_3d(case, desc, tgs, tptg):
    k = "feat_simd_lanes_3d"
    X, Y, Z = tptg
    T = X * Y * Z
    grid = [tgs[i] * tptg[i] for i in range(3)]
    rec = np.zeros((grid[2], grid[1], grid[0], 5), dtype=np.uint32)
    for z in range(grid[2]):
        for y in range(grid[1]):
            for x in range(grid[0]):
                li = (x % X) + (y % Y) * X + (z % Z) * X * Y
                base, lane = li - li % 32, li % 32
                size = min(32, T - base)
                partner = lane ^ 1
                xor = base + partner if partner < size else li
                members = range(base, base + size)
                rec[z, y, x] = [base, lane, xor, sum(members), base + size - 1]
    c = Case(k, case, desc)
    c.threadgroups(tgs, tptg)
    c.write(0, "out", rec, 0, 0, "integer output: exact")
    c.save()


def vector_subscript(case, desc, n, tg):
    k = "feat_vector_subscript"
    rng = rng_for(k, case)
    total = n
    words = u32(rng.integers(0, 1000, size=(total, 4)))
    sel = u32(rng.integers(0, 2**32, size=total, dtype=np.uint64))
    i = sel & 3
    picked = np.zeros(total, dtype=np.uint32)
    mixed = np.zeros((total, 4), dtype=np.uint32)
    lane3 = np.zeros(total, dtype=np.float64)
    for g in range(n):
        w = [int(v) for v in words[g]]
        picked[g] = w[i[g]] * 1000 + w[(i[g] + 1) % 4]
        m = list(w)
        m[i[g]] = 100 + g
        m[(i[g] + 2) % 4] += 7
        mixed[g] = m
        lane3[g] = w[sel[g] % 3] * 0.5
    c = Case(k, case, desc)
    c.threads([total, 1, 1], [tg, 1, 1])
    c.read(0, "words", words)
    c.read(1, "sel", sel)
    c.write(2, "picked", picked, 0, 0, "integer output: exact")
    c.write(3, "mixed", mixed, 0, 0, "integer output: exact")
    c.write(4, "lane3", f32(lane3), 0, 0, "integers below 1000 halved: exact in float32")
    c.read(5, "n", u32([n]))
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    simd_sum_divergent("small", "3 threadgroups of 96 (9 SIMD groups), active lanes per group "
                       "0,1,5,32,17,31,2,40,16", 3, 96, [0, 1, 5, 32, 17, 31, 2, 40, 16])
    simd_sum_divergent("partial_simd", "2 threadgroups of 48: SIMD groups of 32 and 16 lanes; active "
                       "20,20,3,32 (the 16-lane groups have only 16 lanes to activate)", 2, 48,
                       [20, 20, 3, 32])
    early_return_simd("small", "n=150, 64-thread groups (3): random survivors, SIMD group 0 all alive, "
                      "group 1 all returned, threads >= n return", 150, 64)
    early_return_simd("extra_group", "n=40, 32-thread groups, one extra threadgroup wholly past n", 40,
                      32, extra_tg=1)
    barrier_in_loop("small", "4 threadgroups of 256", 4, 256)
    barrier_in_loop("tiny_tg", "3 threadgroups of 2 (one loop iteration)", 3, 2)
    barrier_in_loop("single_thread", "2 threadgroups of 1 (the loop does not run)", 2, 1)
    stencil_rounds("small", "2 threadgroups of 32, 5 rounds", 2, 32, 5)
    stencil_rounds("zero_rounds", "3 threadgroups of 64, 0 rounds (the loop does not run)", 3, 64, 0)
    stencil_rounds("wide", "1 threadgroup of 128, 7 rounds", 1, 128, 7)
    static_tg_array("small", "3 threadgroups of 64", 3)
    static_tg_array_2d("small", "n=24: 3x3 threadgroups of 8x8", 24)
    dynamic_tg_memory("small", "3 threadgroups of 64, two dynamic buffers (float, uint)", 3, 64)
    dynamic_tg_memory("odd", "2 threadgroups of 40", 2, 40)
    uint3_builtins("small", "threadgroups (3,2,2) of (4,2,3) threads (24: one partial SIMD group)",
                   [3, 2, 2], [4, 2, 3])
    uint3_builtins("two_simd", "threadgroups (2,1,3) of (8,4,2) threads (64: two SIMD groups)", [2, 1, 3],
                   [8, 4, 2])
    simd_lanes_3d("two_simd", "threadgroups (2,1,3) of (8,4,2) threads (64: two whole SIMD groups)",
                  [2, 1, 3], [8, 4, 2])
    simd_lanes_3d("cube", "threadgroups (1,2,1) of (4,4,8) threads (128: four whole SIMD groups)",
                  [1, 2, 1], [4, 4, 8])
    simd_lanes_3d("partial", "threadgroups (3,1,2) of (4,3,3) threads (36: one whole, one partial SIMD group)",
                  [3, 1, 2], [4, 3, 3])
    dispatch_threads("small", "dispatchThreads grid (37,5) with 16x4 threadgroups: edge groups 5 wide "
                     "and 1 tall", [37, 5, 1], [16, 4, 1])
    dispatch_threads("1d", "dispatchThreads grid 1000 with 256-thread groups: last group has 232",
                     [1000, 1, 1], [256, 1, 1])
    simd_max_shuffle("small", "2 threadgroups of 64 (4 full SIMD groups)", 2, 64)
    bfloat_io("small", "dispatchThreads 200 (last group partial)", 200)
    half_io("small", "dispatchThreads 200 (last group partial)", 200)
    implicit_buffer_index("small", "n=100, 64-thread groups, one extra group past n", 100, 64)
    constant_struct("small", "n=100, shift=-7 (wraps), float2 at offset 16 of a 24-byte struct", 100, -7)
    constant_struct("no_shift", "n=64, shift=0", 64, 0)
    program_constant("small", "3 threadgroups of TILE=16", 3)
    define_macro("small", "n=70, 32-thread groups (last partial)", 70, 32)
    simdgroup_matmul("small", "A 8x8 times B 8x8 (one tile: simdgroup_multiply only)", 8)
    simdgroup_matmul("k32", "A 8x32 times B 32x8 (multiply then three multiply_accumulate)", 32)
    vector_subscript("small", "dispatchThreads 90 in 32-thread groups (last partial): every index 0-3 "
                     "and 0-2 taken", 90, 32)
