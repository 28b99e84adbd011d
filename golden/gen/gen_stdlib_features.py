"""Golden cases for the feature kernels of Metal's standard library and of
the constructs real kernel libraries use around it (metal_src/features/):
SIMD-group functions in divergent code and loops that threads leave at
different times, per-thread arrays initialised in divergent code, struct
buffers, atomics, integer bit functions, prefix sums, quad-groups, half
arithmetic and simdgroup_matrix.

References are plain NumPy loops in float64 (or exact integers) written from
each kernel's documented math (the comment at the top of its .metal file),
never from the translator's output. Where the inputs are small dyadic numbers
every float32 operation of a kernel is exact whatever the order, and the
tolerance is 0; other tolerances are justified where the case is written."""
import numpy as np

from common import Case, f32, u32, rng_for, reset_kernel_dir

EXACT = "dyadic inputs with few significant bits: every float32 operation is exact, so the result is exact"

KERNELS = ["feat_divergent_array_init", "feat_simd_conditional", "feat_simd_loop_exit", "feat_struct_buffers",
           "feat_spirv_cross_style"]


def eighths(rng, shape, lo=-80, hi=81):
    return f32(rng.integers(lo, hi, size=shape) / 8.0)


def simd_groups(n_threads):
    """Global thread ids of each 32-lane SIMD group of a 1-D dispatch whose
    threadgroups are multiples of 32 threads."""
    return [np.arange(g, min(g + 32, n_threads)) for g in range(0, n_threads, 32)]


def divergent_array_init(case, desc, rows, cols):
    k = "feat_divergent_array_init"
    rng = rng_for(k, case)
    nr = 2
    words = cols // 8
    nib = rng.integers(0, 16, size=(rows, cols))
    w = np.zeros((rows, words), dtype=np.uint64)
    for j in range(8):
        w |= nib[:, j::8].astype(np.uint64) << np.uint64(4 * j)
    scale = f32(rng.integers(1, 17, size=(rows, cols // 32)) / 8.0)
    x = eighths(rng, cols, -32, 33)
    s = np.repeat(scale.astype(np.float64), 32, axis=1)
    out = (s * nib * x.astype(np.float64)[None, :]).sum(axis=1)
    n_tg = -(-rows // (2 * nr))
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "w", u32(w))
    c.read(1, "scale", scale)
    c.read(2, "x", x)
    # Products nibble * scale * x have <= 15 significant bits in units of
    # 2^-6 and every partial sum stays below 2^15: exact in float32.
    c.write(3, "out", f32(out), 0, 0, EXACT)
    c.read(4, "rows", u32([rows]))
    c.read(5, "cols", u32([cols]))
    c.save()


def simd_conditional(case, desc, n_tg):
    k = "feat_simd_conditional"
    rng = rng_for(k, case)
    n = n_tg * 64
    x = f32(rng.integers(-6, 7, size=n) / 2.0)
    x[:32] = np.abs(x[:32]) + 3.0      # a group where every lane is above 2
    x[32:64] = -np.abs(x[32:64]) - 2.0  # one where every lane is below -1
    v = x.astype(np.float64)
    out = np.zeros((n, 3))
    for ids in simd_groups(n):
        g = v[ids]
        pos = g > 0
        out[ids, 0] = np.where(pos, g[pos].sum(), -1.0)
        above1 = g > 1
        out[ids, 1] = np.where(above1, float(np.any(g[above1] > 2)), 0.0)
        neg = g < 0
        out[ids, 2] = np.where(~neg, 1.0, float(np.all(g[neg] < -1)))
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out.ravel()), 0, 0, EXACT + " (halves; flags are 0 or 1)")
    c.save()


def simd_loop_exit(case, desc, n_tg, k_lanes, stop):
    k = "feat_simd_loop_exit"
    rng = rng_for(k, case)
    n = n_tg * 64
    x = f32(rng.integers(-64, 65, size=n) / 8.0)
    x[:32] = f32(rng.integers(-8, 9, size=32) / 16.0)   # a group needing no halving
    y = f32(rng.integers(-12, 25, size=(n, 8)) / 4.0)
    cnt = rng.integers(0, 9, size=n).astype(np.uint32)
    cnt[64:96] = 8                                        # a group where every lane runs 8 times
    out = np.zeros((n, 3))
    for ids in simd_groups(n):
        g = x[ids].astype(np.float64)
        h = 0
        while np.any(g / 2.0 ** h > 1.0):
            h += 1
        out[ids, 0] = g / 2.0 ** h + 16.0 * h
        acc = np.zeros(len(ids))
        running = np.ones(len(ids), dtype=bool)
        for i in range(8):
            running &= i < cnt[ids]
            t = y[ids, i].astype(np.float64)
            running &= ~(t < -2.0)
            part = running & (t >= 0.0)
            acc[part] += t[part].sum()
        out[ids, 1] = acc
        lanes = ids % 32
        out[ids, 2] = np.where(lanes < k_lanes, k_lanes * min(stop, 4), 0.0)
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.read(1, "y", y)
    c.read(2, "n", u32(cnt))
    c.write(3, "out", f32(out.ravel()), 0, 0, EXACT + " (quarters and powers of two)")
    c.read(4, "k", u32([k_lanes]))
    c.read(5, "stop", u32([stop]))
    c.save()


def words(values):
    """float32 values as the uint32 words of a buffer."""
    return f32(values).view(np.uint32)


def struct_buffers(case, desc, ranges):
    k = "feat_struct_buffers"
    rng = rng_for(k, case)
    n = 64
    data = eighths(rng, n, -40, 41)
    weight = eighths(rng, 2, -16, 17)
    offset = eighths(rng, 3, -16, 17)
    bias = float(eighths(rng, 1)[0])
    dirv = eighths(rng, 3, -16, 17)
    stride = int(rng.integers(1, 9))
    # Table: n_ranges @0, ranges[4] {first, count} @4, weight[2] @36, data @44.
    table = np.zeros(11 + n, dtype=np.uint32)
    table[0] = len(ranges)
    for r, (first, count) in enumerate(ranges):
        table[1 + 2 * r], table[2 + 2 * r] = first, count
    table[9:11] = words(weight)
    table[11:] = words(data)
    # Params (Metal layout, 64 bytes): packed_float3 offset @0, bias @12,
    # alignas(32) stride @32, float3 dir @48 (16-aligned).
    params = np.zeros(16, dtype=np.uint32)
    params[0:3] = words(offset)
    params[3] = words([bias])[0]
    params[8] = stride
    params[12:15] = words(dirv)
    o, d, w, x = offset.astype(np.float64), dirv.astype(np.float64), weight.astype(np.float64), data.astype(np.float64)
    vals = np.full(n, float(stride))
    for i in range(n):
        which = None
        for r, (first, count) in enumerate(ranges):
            if first <= i < first + count:
                which = r
        if which is not None:
            vals[i] += x[i] * w[which & 1] + bias + o[1] * d[2]
    last = max(ranges, key=lambda rc: rc[0]) if ranges else (0, 0)
    out = np.zeros(2 + n, dtype=np.uint32)
    out[0] = words([o[0] + o[2] + last[1]])[0]
    out[1] = len(ranges)
    out[2:] = words(vals)
    c = Case(k, case, desc)
    c.threadgroups([1, 1, 1], [64, 1, 1])
    c.read(0, "table", table)
    c.read(1, "p", params)
    c.write(2, "out", out, 0, 0, EXACT + " (compared as uint32 words: a struct of floats and uints)")
    c.write(3, "total", f32([float(o @ d)]), 0, 0, EXACT)
    c.save()


def spirv_cross_style(case, desc):
    k = "feat_spirv_cross_style"
    rng = rng_for(k, case)
    n = 64
    q = lambda shape, lo=-4, hi=5: f32(rng.integers(lo, hi, size=shape) / 4.0)
    mvp = q((4, 4))                      # mvp[c] = column c
    pos = q(3)
    count = int(rng.integers(0, 1000))
    color = q(4, -40, 41)
    weights = q(4)
    # SSBO words: mvp @0 (16), pos @16 (3), count @19, pos_out @20 (3),
    # count_out @23, data @24.
    ssbo = np.zeros(24 + n, dtype=np.uint32)
    ssbo[0:16] = words(mvp.ravel())
    ssbo[16:19] = words(pos)
    ssbo[19] = count
    ssbo[20:24] = 0xDEADBEEF
    M = mvp.astype(np.float64).T          # M[r, c]
    p = pos.astype(np.float64)
    total = sum((M @ np.append(p * t, 1.0))[0] * (2.0 * float(weights[1])) for t in range(n))
    expected = ssbo.copy()
    expected[20:23] = words(p + 1.0)
    expected[23] = count + 1
    expected[24:] = words(np.full(n, total + float(color[1])))
    ubo = np.zeros(8, dtype=np.uint32)     # color @0, weights @16
    ubo[0:4] = words(color)
    ubo[4:8] = words(weights)
    c = Case(k, case, desc)
    c.threadgroups([1, 1, 1], [64, 1, 1])
    # Quarters of at most 1 times t < 64: every product and partial sum has
    # fewer than 24 significant bits, so float32 is exact in any order.
    c.read_write(0, "ssbo", ssbo, expected, 0, 0, EXACT + " (compared as uint32 words)")
    c.read(1, "ubo", ubo)
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    divergent_array_init("small", "37 rows of 256 columns: 10 threadgroups of 64, the last SIMD groups "
                         "partly or wholly past the rows", 37, 256)
    divergent_array_init("wide", "8 rows of 1024 columns: lanes take 4 words each", 8, 1024)
    simd_conditional("small", "4 threadgroups of 64: a group all above 2, one all below -1, the rest mixed", 4)
    simd_loop_exit("small", "3 threadgroups of 64, 20 lanes take the branch, break after 3", 3, 20, 3)
    struct_buffers("small", "one threadgroup of 64, 3 overlapping ranges", [(3, 10), (8, 20), (40, 30)])
    struct_buffers("one_range", "one threadgroup of 64, one range", [(0, 17)])
    spirv_cross_style("small", "one threadgroup of 64")
    simd_loop_exit("no_break", "2 threadgroups of 64, 7 lanes take the branch, no break (stop 9)", 2, 7, 9)
