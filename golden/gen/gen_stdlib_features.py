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

from common import Case, bf16_round, f32, u32, rng_for, reset_kernel_dir

EXACT = "dyadic inputs with few significant bits: every float32 operation is exact, so the result is exact"

KERNELS = ["feat_divergent_array_init", "feat_simd_conditional", "feat_simd_loop_exit", "feat_struct_buffers",
           "feat_spirv_cross_style", "feat_atomic_histogram", "feat_atomic_counter",
           "feat_math_functions", "feat_integer_functions",
           "feat_geometric_relational", "feat_simd_prefix", "feat_quad_functions",
           "feat_simd_exchange", "feat_simdgroup_matrix_half",
           "feat_half_arithmetic", "feat_conversions", "feat_matrix_shapes",
           "feat_quad_prefix_rotate", "feat_sincos_ilogb"]


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


ORDER_FREE = ("exact: integer counts, extrema, bit operations and sums of small integers do not depend on the "
              "order in which the atomics happen")


def atomic_histogram(case, desc, n_tg):
    k = "feat_atomic_histogram"
    rng = rng_for(k, case)
    n = 64 * n_tg
    x = u32(rng.integers(0, 1000, size=n))
    bins = np.bincount(x % 16, minlength=16).astype(np.uint32)
    imax = np.array([np.iinfo(np.int32).min, np.iinfo(np.int32).max], dtype=np.int32)
    imax_out = np.array([int(x.max()) - 500, int(x.min()) - 500], dtype=np.int32)
    start = 12345 + n
    stats = np.array([0, 0, 0xFFFFFFFF, start], dtype=np.uint32)
    orv, xorv, andv = 0, 0, 0xFFFFFFFF
    for v in x.tolist():
        orv |= 1 << (v % 32)
        xorv ^= v
        andv &= v | 0xF0000000
    stats_out = np.array([orv, xorv, andv, start - n], dtype=np.uint32)
    total = float((x % 64).astype(np.float64).sum())
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.read_write(1, "bins", np.zeros(16, dtype=np.uint32), bins, 0, 0, ORDER_FREE)
    c.read_write(2, "imax", imax, imax_out, 0, 0, ORDER_FREE)
    c.read_write(3, "stats", stats, stats_out, 0, 0, ORDER_FREE)
    c.read_write(4, "total", f32([0.0]), f32([total]), 0, 0, ORDER_FREE)
    c.save()


def atomic_counter(case, desc, n_tg, reps):
    k = "feat_atomic_counter"
    n = 64 * n_tg
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read_write(0, "counter", u32([0]), u32([n]), 0, 0, ORDER_FREE)
    c.read_write(1, "taken", np.zeros(n, dtype=np.uint32), np.ones(n, dtype=np.uint32), 0, 0,
                 "exact: each slot handed out once")
    c.read_write(2, "claim", u32([0]), u32([1]), 0, 0, "exact: claimed once, 0 -> 1")
    c.read_write(3, "wins", u32([0, 0]), u32([1, 1]), 0, 0,
                 "exact: one compare-and-exchange and one exchange find the initial value")
    c.read_write(4, "seen", np.zeros(4, dtype=np.uint8), np.array([1, 0, 0, 0], dtype=np.uint8), 0, 0,
                 "exact: the atomic_bool is true afterwards (the word's other bytes untouched)")
    c.read_write(5, "half_n", f32([0.0]), f32([0.5 * n]), 0, 0,
                 "exact: multiples of 0.5 below 2^23 add exactly in any order")
    c.read_write(6, "hammered", u32([0]), u32([n * reps]), 0, 0, "exact: no increment lost")
    c.read(7, "reps", u32([reps]))
    c.save()


# feat_math_functions: the expressions of its kernel (the Metal) and their
# float64 references (the NumPy), in output order.
MATH_TRANSCENDENTAL = [
    ('exp(t)', 'np.exp(t)'),
    ('exp2(t)', 'np.exp2(t)'),
    ('exp10(t)', '10.0 ** t'),
    ('log(1.0f + t)', 'np.log(1 + t)'),
    ('log2(1.0f + t)', 'np.log2(1 + t)'),
    ('log10(1.0f + t)', 'np.log10(1 + t)'),
    ('sqrt(t)', 'np.sqrt(t)'),
    ('rsqrt(t)', '1 / np.sqrt(t)'),
    ('sin(t)', 'np.sin(t)'),
    ('cos(t)', 'np.cos(t)'),
    ('tan(t)', 'np.tan(t)'),
    ('asin(t)', 'np.arcsin(t)'),
    ('acos(t)', 'np.arccos(t)'),
    ('atan(t)', 'np.arctan(t)'),
    ('atan2(t, 1.0f - 0.5f * t)', 'np.arctan2(t, 1 - 0.5 * t)'),
    ('sinh(t)', 'np.sinh(t)'),
    ('cosh(t)', 'np.cosh(t)'),
    ('tanh(t)', 'np.tanh(t)'),
    ('asinh(t)', 'np.arcsinh(t)'),
    ('acosh(1.0f + t)', 'np.arccosh(1 + t)'),
    ('atanh(0.9f * t)', 'np.arctanh(0.9 * t)'),
    ('sinpi(t)', 'np.sin(np.pi * t)'),
    ('cospi(0.4f * t)', 'np.cos(np.pi * 0.4 * t)'),
    ('tanpi(0.4f * t)', 'np.tan(np.pi * 0.4 * t)'),
    ('pow(1.0f + t, 1.5f + t)', '(1 + t) ** (1.5 + t)'),
    ('powr(1.0f + t, t)', '(1 + t) ** t'),
    ('precise::exp(t)', 'np.exp(t)'),
    ('precise::exp2(t)', 'np.exp2(t)'),
    ('precise::log(1.0f + t)', 'np.log(1 + t)'),
    ('precise::log2(1.0f + t)', 'np.log2(1 + t)'),
    ('precise::sqrt(t)', 'np.sqrt(t)'),
    ('precise::rsqrt(t)', '1 / np.sqrt(t)'),
    ('precise::sin(t)', 'np.sin(t)'),
    ('precise::cos(t)', 'np.cos(t)'),
    ('precise::tan(t)', 'np.tan(t)'),
    ('precise::tanh(t)', 'np.tanh(t)'),
    ('precise::pow(1.0f + t, 1.5f + t)', '(1 + t) ** (1.5 + t)'),
    ('fast::exp(t)', 'np.exp(t)'),
]
MATH_EXACT = [
    ('fabs(t - 0.5f)', 'np.abs(t - 0.5)'),
    ('abs(t - 0.5f)', 'np.abs(t - 0.5)'),
    ('floor(8.0f * t)', 'np.floor(8 * t)'),
    ('ceil(8.0f * t)', 'np.ceil(8 * t)'),
    ('round(8.0f * t - 0.5f)', 'np.where(8*t-0.5 >= 0, np.floor(8*t-0.5+0.5), np.ceil(8*t-0.5-0.5))'),
    ('rint(8.0f * t - 0.5f)', 'np.rint(8 * t - 0.5)'),
    ('trunc(8.0f * t - 3.0f)', 'np.trunc(8 * t - 3)'),
    ('fract(8.0f * t)', '8 * t - np.floor(8 * t)'),
    ('fmod(8.0f * t, 0.75f)', 'np.fmod(8 * t, 0.75)'),
    ('fmin(t, 0.5f)', 'np.minimum(t, 0.5)'),
    ('fmax(t, 0.5f)', 'np.maximum(t, 0.5)'),
    ('min(t, 0.5f)', 'np.minimum(t, 0.5)'),
    ('max(t, 0.5f)', 'np.maximum(t, 0.5)'),
    ('fmin3(t, 0.5f, 1.0f - t)', 'np.minimum(np.minimum(t, 0.5), 1 - t)'),
    ('fmax3(t, 0.5f, 1.0f - t)', 'np.maximum(np.maximum(t, 0.5), 1 - t)'),
    ('fmedian3(t, 0.5f, 1.0f - t)', 'np.median(np.stack([t, np.full_like(t, 0.5), 1 - t]), axis=0)'),
    ('min3(t, 0.5f, 1.0f - t)', 'np.minimum(np.minimum(t, 0.5), 1 - t)'),
    ('max3(t, 0.5f, 1.0f - t)', 'np.maximum(np.maximum(t, 0.5), 1 - t)'),
    ('copysign(t, t - 0.5f)', 'np.copysign(t, t - 0.5)'),
    ('fdim(t, 0.5f)', 'np.maximum(t - 0.5, 0)'),
    ('fma(t, t, t)', 't * t + t'),
    ('mad(t, t, 0.25f)', 't * t + 0.25'),
    ('divide(t, 0.25f)', 't / 0.25'),
    ('nextafter(t, 2.0f) - t', 'np.nextafter(t.astype(np.float32), np.float32(2)).astype(np.float64) - t'),
    ('ldexp(t, 3)', 't * 8'),
    ('frexp_parts(t)', 'frexp_parts(t)'),
    ('modf_parts(8.0f * t)', 'modf_parts(8 * t)'),
    ('saturate(4.0f * t - 1.0f)', 'np.clip(4 * t - 1, 0, 1)'),
    ('sign(t - 0.5f)', 'np.sign(t - 0.5)'),
    ('step(0.5f, t)', 'np.where(t < 0.5, 0.0, 1.0)'),
    ('clamp(t, 0.25f, 0.75f)', 'np.clip(t, 0.25, 0.75)'),
    ('mix(t, 1.0f - t, 0.25f)', 't + (1 - 2 * t) * 0.25'),
    ('smoothstep(0.25f, 0.75f, t)', 'smooth(t)'),
    ('select(t, 1.0f - t, t > 0.5f)', 'np.where(t > 0.5, 1 - t, t)'),
    ('exp(float4(t, 0.5f * t, 1.0f, 0.0f)).x - exp(t)', '0 * t'),
    ('dot(clamp(float4(t, 1.0f - t, 0.5f, 2.0f), float4(0.25f), float4(0.75f)), float4(1.0f, 2.0f, 4.0f, 8.0f))', 'np.clip(t,0.25,0.75) + 2*np.clip(1-t,0.25,0.75) + 4*0.5 + 8*0.75'),
]


def math_functions(case, desc, n):
    k = "feat_math_functions"
    rng = rng_for(k, case)
    x = f32(rng.integers(1, 64, size=n) / 64.0)
    t = x.astype(np.float64)

    def frexp_parts(v):
        m, e = np.frexp(v)
        return m + e

    def modf_parts(v):
        f, w = np.modf(v)
        return w + 8 * f

    def smooth(v):
        u = np.clip((v - 0.25) / 0.5, 0, 1)
        return u * u * (3 - 2 * u)

    env = {"np": np, "t": t, "frexp_parts": frexp_parts, "modf_parts": modf_parts, "smooth": smooth}
    tr = np.stack([eval(ref, env) for _, ref in MATH_TRANSCENDENTAL], axis=1)
    ex = np.stack([eval(ref, env) for _, ref in MATH_EXACT], axis=1)
    c = Case(k, case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    # The loosest bound of the functions here: OpenCL's pow and powr, 16 ulp
    # (2^-23 relative each); C++ is within 1 ulp. x4 for safety. Results
    # lie in [0.05, 30], so the relative bound is all (atol covers the
    # rounding of the float64 reference itself, 2^-24 of the largest).
    c.write(1, "tr", f32(tr.ravel()), 2e-6, 4 * 16 * 2.0 ** -23,
            "the transcendental functions within OpenCL's full-profile ulp bounds (pow: 16 ulp), x4")
    c.write(2, "ex", f32(ex.ravel()), 0, 0,
            EXACT + " (multiples of 1/64: rounding, min/max, fma, mix and smoothstep of them are exact)")
    c.save()


# feat_integer_functions: its expressions and their exact references (Python
# integers), in output order; a, b, c are int32, ua, ub their uint32 bits,
# lg = a * 65537 as long.
INTEGER_FUNCTIONS = [
    ('abs(a)', 'wrap32(abs(a))'),
    ('abs(short(a))', 'wrap16(abs(s16(a)))'),
    ('absdiff(a, b)', 'abs(a - b) & M32'),
    ('absdiff(uchar(a), uchar(b))', 'abs(u8(a) - u8(b))'),
    ('addsat(a, b)', 'sat32(a + b)'),
    ('addsat(ua, ub)', 'min(ua + ub, M32)'),
    ('addsat(char(a), char(b))', 'max(-128, min(127, s8(a) + s8(b)))'),
    ('subsat(a, b)', 'sat32(a - b)'),
    ('subsat(ua, ub)', 'max(ua - ub, 0)'),
    ('subsat(ushort(a), ushort(b))', 'max(u16(a) - u16(b), 0)'),
    ('clamp(a, -1000, 1000)', 'max(-1000, min(1000, a))'),
    ('clz(ua)', '32 - ua.bit_length()'),
    ('clz(uchar(a))', '8 - u8(a).bit_length()'),
    ('clz(a)', '0 if a < 0 else 32 - a.bit_length()'),
    ('ctz(ua)', 'ctz(ua, 32)'),
    ('ctz(ushort(b))', 'ctz(u16(b), 16)'),
    ('extract_bits(ua, 3u, 9u)', '(ua >> 3) & 511'),
    ('extract_bits(a, 5u, 7u)', 'sext((a >> 5) & 127, 7)'),
    ('extract_bits(a, 0u, 0u)', '0'),
    ('insert_bits(ua, ub, 4u, 12u)', '(ua & ~(4095 << 4) & M32) | ((ub << 4) & (4095 << 4))'),
    ('insert_bits(a, b, 20u, 12u)', 's32((u32(a) & ~(4095 << 20) & M32) | ((u32(b) << 20) & (4095 << 20) & M32))'),
    ('hadd(a, b)', '(a + b) >> 1'),
    ('rhadd(a, b)', '(a + b + 1) >> 1'),
    ('hadd(ua, ub)', '(ua + ub) >> 1'),
    ('madhi(a, b, c)', 's32(((a * b) >> 32) + c)'),
    ('madsat(short(a), short(b), short(c))', 'max(-32768, min(32767, s16(a) * s16(b) + s16(c)))'),
    ('madsat(ua, 3u, ub)', 'min(ua * 3 + ub, M32)'),
    ('max(a, b)', 'max(a, b)'),
    ('min(ua, ub)', 'min(ua, ub)'),
    ('max3(a, b, c)', 'max(a, b, c)'),
    ('min3(a, b, c)', 'min(a, b, c)'),
    ('median3(a, b, c)', 'sorted([a, b, c])[1]'),
    ('mulhi(a, b)', '(a * b) >> 32'),
    ('mulhi(ua, ub)', '(ua * ub) >> 32'),
    ('mulhi(lg, long(b))', '(lg * b) >> 64'),
    ('mul24(a >> 8, b >> 8)', 's32((a >> 8) * (b >> 8))'),
    ('mad24(a >> 8, b >> 8, c)', 's32((a >> 8) * (b >> 8) + c)'),
    ('mul24(ua >> 8, ub >> 8)', '((ua >> 8) * (ub >> 8)) & M32'),
    ('popcount(ua)', "bin(ua).count('1')"),
    ('popcount(a)', "bin(u32(a)).count('1')"),
    ('reverse_bits(ua)', 'int(bin(ua)[2:].zfill(32)[::-1], 2)'),
    ('reverse_bits(uchar(a))', 'int(bin(u8(a))[2:].zfill(8)[::-1], 2)'),
    ('rotate(ua, ub)', '((ua << (ub % 32)) | (ua >> ((32 - ub % 32) % 32))) & M32'),
    ('rotate(uchar(a), uchar(3))', '((u8(a) << 3) | (u8(a) >> 5)) & 255'),
    ('popcount(uint4(ua, ub, 0u, 0xFFFFFFFFu)).x + 100u * popcount(uint4(ua, ub, 0u, 0xFFFFFFFFu)).w', "bin(ua).count('1') + 3200"),
    ('extract_bits(int2(a, b), 4u, 8u).y', 'sext((b >> 4) & 255, 8)'),
]

M32 = 0xFFFFFFFF


def _wrap(v, bits, signed):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def sincos_ilogb(case, desc, n):
    k = "feat_sincos_ilogb"
    rng = rng_for(k, case)
    mag = np.exp2(rng.uniform(-20.0, 10.0, size=n))
    x = f32(np.where(rng.random(n) < 0.5, -mag, mag))
    x[:8] = [1.0, -1.0, 0.5, 3.0, 2.0 ** -20, 1023.5, -np.pi / 2, 1e-30]
    x = f32(x)
    t = x.astype(np.float64)
    _, ex = np.frexp(t)  # t = m * 2^ex with 0.5 <= |m| < 1: ilogb is ex - 1
    c = Case(k, case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    # OpenCL C's full profile holds sin and cos to 4 ulp (C++: libm, 1 ulp);
    # |result| <= 1, where one ulp is at most 2^-24: 4 ulp and the
    # reference's rounding are below 8 * 2^-24.
    note = "sin/cos: 4 ulp (OpenCL's bound) of results at most 1, plus the float32 rounding: 8 * 2^-24"
    c.write(1, "s", f32(np.sin(t)), 8 * 2.0 ** -24, 0, note)
    c.write(2, "c", f32(np.cos(t)), 8 * 2.0 ** -24, 0, note)
    c.write(3, "e", (ex - 1).astype(np.int32), 0, 0, "integers: exact")
    c.read(4, "n", u32([n]))
    c.save()


def integer_functions(case, desc, n):
    k = "feat_integer_functions"
    rng = rng_for(k, case)
    a = rng.integers(-2 ** 31, 2 ** 31, size=n).astype(np.int32)
    b = rng.integers(-2 ** 31, 2 ** 31, size=n).astype(np.int32)
    c = rng.integers(-2 ** 31, 2 ** 31, size=n).astype(np.int32)
    a[:4] = [0, -1, 2 ** 31 - 1, -2 ** 31]      # the edges: zero, all ones, the extremes
    b[:4] = [0, 2 ** 31 - 1, 1, -1]
    env = {
        "M32": M32,
        "wrap32": lambda v: _wrap(v, 32, True), "wrap16": lambda v: _wrap(v, 16, True),
        "s8": lambda v: _wrap(v, 8, True), "u8": lambda v: _wrap(v, 8, False),
        "s16": lambda v: _wrap(v, 16, True), "u16": lambda v: _wrap(v, 16, False),
        "s32": lambda v: _wrap(v, 32, True), "u32": lambda v: _wrap(v, 32, False),
        "sat32": lambda v: max(-2 ** 31, min(2 ** 31 - 1, v)),
        "ctz": lambda v, w: w if v == 0 else (v & -v).bit_length() - 1,
        "sext": lambda v, w: v - (1 << w) if v >> (w - 1) else v,
    }
    out = []
    for i in range(n):
        ai, bi, ci = int(a[i]), int(b[i]), int(c[i])
        env.update(a=ai, b=bi, c=ci, ua=ai & M32, ub=bi & M32, lg=ai * 65537)
        out.append([_wrap(eval(ref, env), 64, True) for _, ref in INTEGER_FUNCTIONS])
    cs = Case(k, case, desc)
    cs.threads([n, 1, 1], [32, 1, 1])
    cs.read(0, "a", a)
    cs.read(1, "b", b)
    cs.read(2, "c", c)
    cs.write(3, "out", np.array(out, dtype=np.int64).ravel(), 0, 0, "integer results: exact")
    cs.save()


def geometric_relational(case, desc, n):
    k = "feat_geometric_relational"
    rng = rng_for(k, case)
    x = eighths(rng, 6 * n, -24, 25)
    x[0:6] = [0.0, 0.0, 0.5, 1.0, -1.0, 0.0]   # a normalised vector
    v = x.astype(np.float64).reshape(n, 2, 3)
    a, b = v[:, 0], v[:, 1]
    a[np.all(a == 0, axis=1)] = [0.125, 0.0, 0.0]   # normalize(0) is undefined
    x = f32(v.reshape(-1))
    a, b = v[:, 0], v[:, 1]
    cr = np.cross(a, b)
    exact = np.stack([np.sum(a * b, axis=1), cr[:, 0], cr[:, 1], cr[:, 2], np.sum(a * a, axis=1),
                      np.sum((a - b) ** 2, axis=1), (a[:, 0] > 0).astype(float),
                      ((a[:, 0] > 0) | (b[:, 0] > 0)).astype(float)], axis=1)
    length = np.sqrt(np.sum(a * a, axis=1))
    rounded = np.stack([length, np.sqrt(np.sum((a - b) ** 2, axis=1)), a[:, 0] / length, a[:, 1] / length,
                        a[:, 2] / length], axis=1)
    specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 2.0 ** -130, -2.0 ** -127, 1.5, -2.5, 2.0 ** -126]
    s = np.array([specials[i % len(specials)] for i in range(n)], dtype=np.float32)
    sd = s.astype(np.float64)
    rel = np.stack([np.isnan(sd), np.isinf(sd), np.isfinite(sd),
                    np.isfinite(sd) & (np.abs(sd) >= 2.0 ** -126), np.signbit(sd),
                    np.where(np.isnan(sd) | (sd > 0), 1.0, -1.0)], axis=1).astype(float)
    c = Case(k, case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.read(1, "special", s)
    c.write(2, "geo_exact", f32(exact.ravel()), 0, 0, EXACT + " (eighths below 3: products and sums of three)")
    # length and distance: a sum of exact squares, sqrt (OpenCL 3 ulp; its
    # own overflow-safe scaling adds a few more), normalize one division or
    # rsqrt more: 8 ulp relative, x4; atol for components near 0 (2^-24 of
    # the largest, 1).
    c.write(3, "geo_round", f32(rounded.ravel()), 2.0 ** -22, 4 * 8 * 2.0 ** -23,
            "a sqrt (and a division) of exact sums: 8 ulp relative, x4")
    c.write(4, "rel", f32(rel.ravel()), 0, 0, "flags: exact")
    c.save()


def _crem(a, b):
    """C's remainder: the sign of the dividend."""
    return a - b * int(a / b)


def _wrap32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def simd_prefix(case, desc, n, n_tg):
    k = "feat_simd_prefix"
    rng = rng_for(k, case)
    total = 64 * n_tg
    x = f32(rng.integers(-40, 41, size=total) / 4.0)
    p = f32(2.0 ** rng.integers(-2, 3, size=total))
    keep = u32(rng.random(total) < 0.7)
    keep[:32] = 1                       # a SIMD group with every lane active
    keep[32:64] = 0
    keep[40] = keep[45] = 1             # one with two
    out = np.full((total, 4), -99.0)
    iout = np.full((total, 2), -99, dtype=np.int64)
    for g in range(0, total, 32):
        ids = [j for j in range(g, g + 32) if j < n and keep[j]]
        s = ps = 0.0
        pr = 1.0
        isum, iprod = 0, 1
        for j in ids:
            xi = int(x[j] * 4)
            out[j] = [s + x[j], s, pr * p[j], pr]
            iout[j] = [isum + xi, _wrap32(iprod)]
            s += float(x[j])
            pr *= float(p[j])
            isum += xi
            iprod = _wrap32(iprod * (xi | 1))
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.read(1, "p", p)
    c.read(2, "keep", keep)
    # Threads past n return before writing: the outputs keep their initial value.
    init = np.full(total * 4, 7.0, dtype=np.float32)
    exp = out.ravel().copy()
    exp[4 * n:] = 7.0
    c.read_write(3, "out", init, f32(exp), 0, 0,
                 EXACT + " (quarters below 2^10 summed, powers of two multiplied)")
    iinit = np.full(total * 2, 7, dtype=np.int32)
    iexp = iout.ravel().copy()
    iexp[2 * n:] = 7
    c.read_write(4, "iout", iinit, iexp.astype(np.int32), 0, 0, "integers: exact (products wrap)")
    c.read(5, "n", u32([n]))
    c.save()


def quad_functions(case, desc, n_tg):
    k = "feat_quad_functions"
    rng = rng_for(k, case)
    total = 64 * n_tg
    x = rng.integers(-3, 9, size=total).astype(np.int32)
    keep = u32(rng.random(total) < 0.6)
    keep[:4] = 1
    keep[4:8] = [0, 1, 0, 0]
    keepq = u32(np.repeat(rng.random(total // 4) < 0.6, 4))
    q = np.full((total, 16), -99, dtype=np.int64)
    s = np.full((total, 4), -99, dtype=np.int64)
    for base in range(0, total, 4):
        lanes = range(base, base + 4)
        act = [j for j in lanes if keep[j]]
        vals = [int(x[j]) for j in act]
        if act:
            prod = 1
            for v in vals:
                prod *= _crem(v, 3) + 1
            a, o, xr = -1, 0, 0
            for v in vals:
                a &= v
                o |= v
                xr ^= v
            run = 0
            for j in act:
                v = int(x[j])
                q[j, :11] = [sum(vals), prod, max(vals), min(vals), a, o, xr, run + v, run,
                             int(all(w > 0 for w in vals)), int(any(w > 5 for w in vals))]
                run += v
        if keepq[base]:
            for j in lanes:
                l = j - base
                v = [int(x[m]) for m in lanes]
                q[j, 11:] = [v[2], v[3 - l], v[l + 1] if l + 1 < 4 else v[l], v[l - 1] if l >= 1 else v[l],
                             v[l ^ 2]]
    for g in range(0, total, 32):
        act = [j for j in range(g, g + 32) if keep[j]]
        prod = 1
        for j in act:
            prod *= _crem(int(x[j]), 3) + 1
        for j in act:
            s[j, 0] = int(j == act[0])
            s[j, 1] = _wrap32(prod)
        for j in range(g, g + 32):
            l = j - g
            s[j, 2] = int(x[g + (l + 5) % 32])
            s[j, 3] = int(x[g + (l + 29) % 32])
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.read(1, "keep", keep)
    c.read(2, "keepq", keepq)
    c.write(3, "q", q.ravel().astype(np.int32), 0, 0, "integers: exact")
    c.write(4, "s", s.ravel().astype(np.int32), 0, 0, "integers: exact (the product wraps)")
    c.save()


def quad_prefix_rotate(case, desc, n_tg):
    k = "feat_quad_prefix_rotate"
    rng = rng_for(k, case)
    total = 64 * n_tg
    x = rng.integers(-3, 9, size=total).astype(np.int32)
    keep = u32(rng.random(total) < 0.6)
    keep[:4] = [0, 1, 1, 0]  # the first active lane of a quad is not lane 0
    keep[4:8] = 0            # a quad with no active lane
    keep[8:12] = 1
    o = np.full((total, 8), -99, dtype=np.int64)
    p = np.full(total, -99.0)
    for base in range(0, total, 4):
        lanes = list(range(base, base + 4))
        act = [j for j in lanes if keep[j]]
        run, runf = 1, 1.0
        for j in act:
            v = int(x[j])
            o[j, 0:4] = [run * v, run, int(x[act[0]]), int(j == act[0])]
            p[j] = runf
            run *= v
            runf *= 0.5 * v
        for j in lanes:
            l = j - base
            o[j, 4:7] = [int(x[base + (l + 1) % 4]), int(x[base + (l + 1) % 4]), int(x[base + (l + 2) % 4])]
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.read(1, "keep", keep)
    c.write(2, "o", o.ravel().astype(np.int32), 0, 0, "integers: exact (|products| <= 8^4)")
    # Halves of integers in [-3, 8]: at most 3 factors of at most 4, every
    # product a multiple of 1/8 below 2^6, exact in float32.
    c.write(3, "p", f32(p), 0, 0, EXACT)
    c.save()


def simd_exchange(case, desc, n_tg):
    k = "feat_simd_exchange"
    rng = rng_for(k, case)
    total = 64 * n_tg
    x = rng.integers(-20, 21, size=total).astype(np.int32)
    keep = u32(rng.random(total) < 0.6)
    keep[:32] = 1
    keep[32:64] = 0
    keep[50] = 1
    r = np.full((total, 8), -99, dtype=np.int64)
    for g in range(0, total, 32):
        act = [j for j in range(g, g + 32) if keep[j]]
        if act:
            vals = [int(x[j]) for j in act]
            a, o, xr = -1, 0, 0
            for v in vals:
                a &= v
                o |= v
                xr ^= v
            ballot = sum(1 << (j - g) for j in act if x[j] > 3)
            for j in act:
                r[j, :7] = [min(vals), a, o, xr, vals[0], _wrap32(ballot & 0xFFFFFFFF), _wrap32(ballot >> 32)]
        for j in range(g, g + 32):
            l = j - g
            up = int(x[j - 3]) if l >= 3 else int(x[j])
            r[j, 7] = int(x[g + (7 * l) % 32]) + 1000 * up
    w = np.zeros(total, dtype=np.int64)
    for t in range(total):
        tg, tid = (t // 64) * 64, t % 64
        s = sum(int(x[tg + (tid + d) % 64]) for d in (1, 2, 3))
        sg = tg + (tid // 32) * 32
        s += int(x[sg + (tid % 32 + 5) % 32])
        w[t] = s
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.read(1, "keep", keep)
    c.write(2, "r", r.ravel().astype(np.int32), 0, 0, "integers: exact")
    c.write(3, "w", w.astype(np.int32), 0, 0, "integers: exact")
    c.save()


def simdgroup_matrix_half(case, desc, n_tg, S):
    k = "feat_simdgroup_matrix_half"
    rng = rng_for(k, case)
    A = (rng.integers(-12, 13, size=(n_tg, 16, S)) / 8.0).astype(np.float16)
    B = (rng.integers(-12, 13, size=(n_tg, 8, S)) / 8.0).astype(np.float16)
    E = (rng.integers(-12, 13, size=(n_tg, 8, 12)) / 8.0)
    Eb, Ev = bf16_round(f32(E))
    Ev = Ev.reshape(E.shape)
    out_c = np.full((n_tg, 8, 10), -7.0)
    out_d = np.zeros((n_tg, 8, 8))
    out_f = np.zeros((n_tg, 8, 8))
    for g_ in range(n_tg):
        a = A[g_, 8:16, 4:12].astype(np.float64)
        b = B[g_, 0:8, 0:8].astype(np.float64).T
        c = a @ b + 0.5
        d = a @ b
        e = Ev[g_, :, 2:10]
        out_c[g_, :, 1:9] = c
        out_d[g_] = d.T
        out_f[g_] = e @ e + c
    assert np.array_equal(out_d.astype(np.float16).astype(np.float64), out_d)   # exact in half
    c_ = Case(k, case, desc)
    c_.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c_.read(0, "A", A.view(np.uint16).ravel())
    c_.read(1, "B", B.view(np.uint16).ravel())
    c_.read(2, "E", Eb.ravel())
    c_.read_write(3, "out_c", np.full(n_tg * 80, -7.0, dtype=np.float32), f32(out_c.ravel()), 0, 0,
                  EXACT + " (eighths up to 1.5: 8 products and a sum exact; columns 0 and 9 untouched)")
    c_.write(4, "out_d", out_d.astype(np.float16).view(np.uint16).ravel(), 0, 0,
             "half bit patterns: the products' sums are exact in half (11 significant bits)")
    c_.write(5, "out_f", f32(out_f.ravel()), 0, 0, EXACT + " (bfloat eighths up to 1.5 are exact in bfloat)")
    c_.read(6, "S", u32([S]))
    c_.save()


def _h(x):
    """Round to half (nearest even) from float64: Metal's rounding of one half operation."""
    return np.float64(np.float16(x))


def _half_results(a, b, c, op_round, narrow):
    """The kernel's four half results with op_round applied after every
    operation; `narrow` computes one operation of two halves (float64, or
    float32 as the ports do before rounding)."""
    m = lambda x, y: op_round(narrow(x) * narrow(y))
    add = lambda x, y: op_round(narrow(x) + narrow(y))
    sub = lambda x, y: op_round(narrow(x) - narrow(y))
    div = lambda x, y: op_round(narrow(x) / narrow(y))
    r0 = add(m(a, b), c)
    r1 = div(sub(a, c), b)
    acc = b
    for _ in range(8):
        acc = add(m(acc, a), c)
    p = [m(a, c), m(b, a), m(c, b), m(1.0, 2.0)]
    r3 = m(sub(p[0], p[1]), p[2])
    return [r0, r1, acc, r3]


def half_arithmetic(case, desc, n):
    k = "feat_half_arithmetic"
    rng = rng_for(k, case)
    a = np.zeros(n, dtype=np.float16)
    b = np.zeros(n, dtype=np.float16)
    c = np.zeros(n, dtype=np.float16)
    out = np.zeros((n, 4))
    widened_differs = 0
    for i in range(n):
        while True:
            a[i] = np.float16(rng.uniform(0.5, 1.5) * rng.choice([-1, 1]))
            b[i] = np.float16(rng.uniform(1.0, 3.0))
            c[i] = np.float16(rng.uniform(-2.0, 2.0))
            ai, bi, ci = float(a[i]), float(b[i]), float(c[i])
            want = _half_results(ai, bi, ci, _h, np.float64)
            # The ports compute each operation in float and round it to half:
            # a second rounding that float64 does not have. Inputs where it
            # changes a result (possible for a division) are drawn again.
            ported = _half_results(ai, bi, ci, _h, np.float32)
            if all(np.float64(x) == np.float64(y) for x, y in zip(want, ported)) and abs(want[2]) < 60000:
                break
        out[i] = want
        # Rounded once at the end (float arithmetic then one conversion): the
        # silent widening this kernel must not show.
        wide = _half_results(ai, bi, ci, lambda x: x, np.float64)
        widened_differs += sum(_h(w) != v for w, v in zip(wide, want))
    assert widened_differs > n // 4, widened_differs   # the case tells the two apart
    approx = np.stack([np.sqrt(_h(_h(a.astype(np.float64) ** 2) + _h(c.astype(np.float64) ** 2))),
                       np.exp(a.astype(np.float64))], axis=1)
    cs = Case(k, case, desc)
    cs.threads([n, 1, 1], [32, 1, 1])
    cs.read(0, "a", a.view(np.uint16))
    cs.read(1, "b", b.view(np.uint16))
    cs.read(2, "c", c.view(np.uint16))
    cs.write(3, "out", out.astype(np.float16).view(np.uint16).ravel(), 0, 0,
             "half bit patterns: each operation rounded to half (nearest even), compared exactly; computing in "
             "float and rounding once differs in %d of the %d results" % (widened_differs, 4 * n))
    # sqrt and exp of half: the function in float rounded to half (Metal's
    # half functions are held to a few half ulps): 2 half ulps = 2^-9 relative.
    cs.write(4, "approx", f32(approx.ravel()), 0, 2.0 ** -9, "half sqrt and exp: within 2 ulp of half (2^-9 relative)")
    cs.save()


def conversions(case, desc, n):
    k = "feat_conversions"
    rng = rng_for(k, case)
    v = f32(rng.integers(-320, 321, size=(n, 4)) / 8.0 + rng.integers(0, 2, size=(n, 4)) * 0.0625)
    v[0] = [0.0, -0.0625, 2.5, -2.5]
    d = v.astype(np.float64)
    ints = np.trunc(d).astype(np.int32)
    halves = v.astype(np.float16)                     # nearest even
    bits = halves.view(np.uint16).astype(np.uint32).reshape(n, 2, 2)
    bits = (bits[:, :, 0] | (bits[:, :, 1] << 16)).astype(np.uint32)
    small = (np.trunc(d * 8).astype(np.int64) & 0xFF).astype(np.uint8).view(np.int8)
    pair = v[:, 0].copy().view(np.uint16).reshape(n, 2)
    mix = np.zeros((n, 4), dtype=np.int64)
    for i in range(n):
        a, b, c, w = d[i]
        mix[i, 0] = int(np.trunc(c + (1.0 if a != 0 else 0.0))) + int(np.trunc(b)) + 7
        mix[i, 1] = int(np.trunc(abs(w) * 1000)) & 0xFFFF
        mix[i, 2] = int(np.trunc(abs(b) * 6)) & 0xFF
        s = int(np.trunc(-c * 100)) & 0xFFFF
        mix[i, 3] = s - 0x10000 if s >= 0x8000 else s
    cs = Case(k, case, desc)
    cs.threads([n, 1, 1], [32, 1, 1])
    cs.read(0, "x", v.ravel())
    cs.write(1, "ints", ints.ravel(), 0, 0, "exact: truncation toward zero")
    cs.write(2, "bits", bits.ravel(), 0, 0, "exact bit patterns: float to half rounds to nearest even")
    cs.write(3, "small", small.ravel(), 0, 0, "exact: int to char keeps the low 8 bits")
    cs.write(4, "pair", pair.ravel(), 0, 0, "exact: the float's bits")
    cs.write(5, "mix", mix.ravel().astype(np.int32), 0, 0,
             "exact: conversions of values in range of their types")
    cs.save()


def matrix_shapes(case, desc, n):
    k = "feat_matrix_shapes"
    rng = rng_for(k, case)
    a_in = eighths(rng, (n, 2, 4), -32, 33)    # a_in[i, c] = column c of a (float4)
    b_in = eighths(rng, (n, 4, 2), -32, 33)    # b_in[i, c] = column c of b (float2)
    h_in = (rng.integers(-8, 9, size=(n, 3, 2)) / 4.0).astype(np.float16)
    v_in = eighths(rng, (n, 2), -32, 33)
    u_in = eighths(rng, (n, 4), -32, 33)
    out = np.zeros((n, 36))
    hout = np.zeros((n, 8))
    for i in range(n):
        A = a_in[i].astype(np.float64).T          # 4 rows x 2 columns
        B = b_in[i].astype(np.float64).T          # 2 x 4
        H = h_in[i].astype(np.float64).T          # 2 x 3
        out[i, 0:16] = (A @ B).T.ravel()          # column after column
        out[i, 16:20] = (B @ A).T.ravel()
        out[i, 20:24] = A @ v_in[i].astype(np.float64)
        out[i, 24:26] = u_in[i].astype(np.float64) @ A
        out[i, 26:34] = (2.0 * A.T + B).T.ravel()
        out[i, 34] = A[2, 1]
        out[i, 35] = B[0, 3]
        hout[i, 0:4] = (H @ H.T).T.ravel()
        hout[i, 4:6] = H @ np.array([1.0, -1.0, 0.5])
        hout[i, 6] = H.T[2, 1]
        hout[i, 7] = H[1, 0]
    c = Case(k, case, desc)
    c.threadgroups([n // 32, 1, 1], [32, 1, 1])
    c.read(0, "a_in", f32(a_in.reshape(n * 2, 4)))
    c.read(1, "b_in", f32(b_in.reshape(n * 4, 2)))
    c.read(2, "h_in", h_in.reshape(n * 3, 2))
    c.read(3, "v_in", f32(v_in))
    c.read(4, "u_in", f32(u_in))
    # Float: eighths below 4 in magnitude, at most 4 products: multiples of
    # 1/64 below 2^6, exact in float32 in any order.
    c.write(5, "out", f32(out.ravel()), 0, 0, EXACT)
    # Half: quarters of at most 2, at most 3 products: multiples of 1/16
    # below 12 (8 significant bits), exact in half after every operation.
    c.write(6, "hout", hout.ravel().astype(np.float16), 0, 0,
            "quarters of at most 2, at most 3 products: multiples of 1/16 below 12, exact in half at every step")
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
    atomic_histogram("small", "4 threadgroups of 64", 4)
    atomic_histogram("many_groups", "200 threadgroups of 64 updating one histogram", 200)
    atomic_counter("small", "2 threadgroups of 64, 3 increments each", 2, 3)
    atomic_counter("contended", "512 threadgroups of 64 on one counter, 64 increments each", 512, 64)
    math_functions("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100)
    sincos_ilogb("small", "dispatchThreads 100 in 32-thread groups (last partial), |x| from 2^-20 to 2^10 and 1e-30", 100)
    integer_functions("small", "dispatchThreads 70 in 32-thread groups (last partial), the edges first", 70)
    geometric_relational("small", "dispatchThreads 50 in 32-thread groups (last partial), special values", 50)
    simd_prefix("small", "3 threadgroups of 64, n = 150 (threads past n return), lanes kept at random", 150, 3)
    quad_functions("small", "4 threadgroups of 64, lanes and quads kept at random", 4)
    quad_prefix_rotate("small", "4 threadgroups of 64, lanes kept at random, a quad with none", 4)
    simd_exchange("small", "3 threadgroups of 64, lanes kept at random, one SIMD group with all, one with one", 3)
    simdgroup_matrix_half("small", "3 threadgroups of 32 (one SIMD group each), stride 20", 3, 20)
    half_arithmetic("small", "dispatchThreads 96 in 32-thread groups", 96)
    conversions("small", "dispatchThreads 64 in 32-thread groups, signed zeros and halfway cases", 64)
    matrix_shapes("small", "2 threadgroups of 32, one thread per matrix", 64)
    simd_loop_exit("no_break", "2 threadgroups of 64, 7 lanes take the branch, no break (stop 9)", 2, 7, 9)
