"""Golden cases for the feature kernels of the Metal standard library
functions added after gen_stdlib_features.py's (metal_src/features/):
reflect, refract, faceforward, isordered, isunordered and `not`; sincos and
ilogb of half and of vectors; the shuffle-and-fill, ballot and active-mask
functions of SIMD groups and quad-groups.

References are float64 NumPy or plain Python loops written from the math of
the Metal Shading Language specification (MSL 6.6, 6.8, 6.9.2, 6.9.3), as
each kernel's header comment restates it, never from the translator's
output. Tolerances are justified where each case is written."""
import numpy as np

from common import U, Case, f32, rng_for, reset_kernel_dir, tol_from_bound, u32

KERNELS = ["feat_geometric_reflect", "feat_sincos_ilogb_vectors", "feat_simd_shuffle_fill", "feat_simd_votes",
           "feat_modf_frexp_vectors"]


def eighths(rng, shape, lo, hi):
    return f32(rng.integers(lo, hi, size=shape) / 8.0)


def geometric_reflect(case, desc, n):
    k = "feat_geometric_reflect"
    rng = rng_for(k, case)
    inc = eighths(rng, (n, 3), -8, 9)
    # Normals: axis vectors, unit vectors rounded to float32, and a few
    # longer ones (reflect normalises N itself, MSL 6.8).
    normals = [[1, 0, 0], [0, -1, 0], [0, 0, 1], [0.6, 0.8, 0], [0, -0.28, 0.96], [2 / 3, 2 / 3, -1 / 3],
               [0, 1.25, 0], [0.75, 0, 1]]
    nrm = f32([normals[j % len(normals)] for j in range(n)])
    ref = eighths(rng, (n, 3), -8, 9)
    etas = [0.5, 0.75, 1.0, 1.25, 1.5, 2.0]
    eta = f32([etas[j % len(etas)] for j in range(n)])
    # Edge rows: total internal reflection (dot(N, I) = 0, eta 2: k = -3),
    # k exactly 0 (eta 1, dot 0: the result is I), dot(R, I) exactly 0
    # (faceforward gives -N).
    inc[0], nrm[0], eta[0] = [1, 0, 0], [0, 1, 0], 2.0
    inc[1], nrm[1], eta[1] = [0.5, 0, 0.5], [0, 1, 0], 1.0
    inc[2], ref[2] = [1, 0, 0], [0, 1, 0]
    I, N, R = (a.astype(np.float64) for a in (inc, nrm, ref))
    e = eta.astype(np.float64)
    # refract's k near 0 flips between the zero vector and a real
    # direction under float32 rounding: rows with 0 < |k| < 1/16 are moved
    # to eta 0.5 (k >= 0.25 for unit-ish normals, here k > 0 always), and
    # so are those with k = 0 but row 1's (its float32 steps are exact).
    d = np.sum(N * I, axis=1)
    kk = 1.0 - e * e * (1.0 - d * d)
    near = np.abs(kk) < 1.0 / 16
    near[1] = False
    eta[near] = 0.5
    e = eta.astype(np.float64)
    kk = 1.0 - e * e * (1.0 - d * d)
    assert np.all((kk == 0) | (np.abs(kk) >= 1.0 / 16))
    nn = N / np.sqrt(np.sum(N * N, axis=1))[:, None]
    reflect = I - 2.0 * np.sum(nn * I, axis=1)[:, None] * nn
    refract = np.where((kk < 0)[:, None], 0.0,
                       e[:, None] * I - (e * d + np.sqrt(np.maximum(kk, 0.0)))[:, None] * N)
    face = np.where((np.sum(R * I, axis=1) < 0)[:, None], N, -N)
    geo = np.concatenate([reflect, refract, face], axis=1)
    # First-order float32 error bounds per component (U = 2^-24, a rounding;
    # OpenCL's sqrt and rsqrt 3 and 2 ulp, 2U each; a dot of 3 lanes 4U of
    # the sum of |products|).
    #   reflect: nn = n rsqrt(n.n) within 8U relative; d' = nn.I within
    #     4U sum|nn I| + 8U sum|nn||I|; a lane I - 2 d' nn within
    #     2 err(d')|nn| + 16U|d' nn| + 4U(|I| + 2|d' nn|).
    #   refract: err(d) = 4U sum|N I|; err(k) = e^2 (2|d| err(d) + 4U d^2)
    #     + 4U (1 + e^2); err(sqrt k) = err(k) / (2 sqrt k) + 6U sqrt k;
    #     err(s) = e err(d) + err(sqrt k) + 2U (e|d| + sqrt k); a lane
    #     e I - s N within err(s)|N| + 4U (e|I| + |s N|). Zero where k < 0
    #     (|k| >= 1/16 keeps the branch itself exact).
    #   faceforward: exact (dot(R, I) of eighths is exact, so is its sign).
    dn = np.sum(nn * I, axis=1)[:, None]
    edn = 4 * U * np.sum(np.abs(nn * I), axis=1)[:, None] + 8 * U * np.sum(np.abs(nn) * np.abs(I), axis=1)[:, None]
    b_reflect = 2 * edn * np.abs(nn) + 16 * U * np.abs(dn * nn) + 4 * U * (np.abs(I) + 2 * np.abs(dn * nn))
    ed = 4 * U * np.sum(np.abs(N * I), axis=1)
    ek = e * e * (2 * np.abs(d) * ed + 4 * U * d * d) + 4 * U * (1 + e * e)
    sk = np.sqrt(np.maximum(kk, 0.0))
    # k = 0 only in row 1, where every float32 step is exact (dot(N, I) of
    # (0, 1, 0) and (0.5, 0, 0.5) is 0, eta 1): sqrt(0) = 0 with no error.
    esk = np.where(kk > 0, ek / (2 * np.where(kk > 0, sk, 1.0)) + 6 * U * sk, 0.0)
    assert np.count_nonzero(kk == 0) == 1 and kk[1] == 0
    sv = e * d + sk
    es = e * ed + esk + 2 * U * (e * np.abs(d) + sk)
    b_refract = es[:, None] * np.abs(N) + 4 * U * (e[:, None] * np.abs(I) + np.abs(sv[:, None] * N))
    b_refract[kk < 0] = 0.0
    bound = np.concatenate([b_reflect, b_refract, np.zeros_like(face)], axis=1)
    atol, rtol = tol_from_bound(geo, bound, 0.0)

    # half4: I in quarters of at most 1, N with components +-0.5 or one
    # +-1: dot(N, I) is a multiple of 1/8 below 2, N has length 1 exactly,
    # so I - 2 dot N is a multiple of 1/16 below 5: exact in half.
    hinc = (rng.integers(-4, 5, size=(n, 4)) / 4.0).astype(np.float16)
    hn = np.where(rng.random((n, 4)) < 0.5, -0.5, 0.5)
    axis = np.arange(n) % 3 == 0
    hn[axis] = 0.0
    hn[axis, 2] = 1.0
    hnrm = hn.astype(np.float16)
    HI, HN = hinc.astype(np.float64), hnrm.astype(np.float64)
    hgeo = HI - 2.0 * np.sum(HN * HI, axis=1)[:, None] * HN

    specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0, 2.0 ** -130]
    pq = f32([[specials[j % len(specials)], specials[(j // len(specials)) % len(specials)]] for j in range(n)])
    p, q = pq[:, 0].astype(np.float64), pq[:, 1].astype(np.float64)
    ordered = ~np.isnan(p) & ~np.isnan(q)
    rel = np.stack([ordered, ~ordered, ~ordered], axis=1).astype(np.int32)

    c = Case(k, case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "inc", f32(inc.ravel()))
    c.read(1, "nrm", f32(nrm.ravel()))
    c.read(2, "ref", f32(ref.ravel()))
    c.read(3, "eta", eta)
    c.read(4, "hinc", hinc.ravel())
    c.read(5, "hnrm", hnrm.ravel())
    c.read(6, "pq", f32(pq.ravel()))
    # The bounds above, x4 (tol_from_bound).
    c.write(7, "geo", f32(geo.ravel()), atol, rtol,
            "first-order float32 bounds of normalisation, dot, k and sqrt (|k| >= 1/16, or 0 exactly), x4; "
            "faceforward exact")
    c.write(8, "hgeo", hgeo.astype(np.float16).ravel(), 0, 0,
            "quarters and unit normals of +-0.5 or one +-1: multiples of 1/16 below 5, exact in half")
    c.write(9, "rel", rel.ravel(), 0, 0, "integers: exact")
    c.save()


def ilogb_of(t):
    """ilogb from the definition: the e of t = m 2^e with 1 <= |m| < 2
    (frexp's mantissa is in [0.5, 1): its exponent less one)."""
    return (np.frexp(t)[1] - 1).astype(np.int32)


def sincos_ilogb_vectors(case, desc, n):
    k = "feat_sincos_ilogb_vectors"
    rng = rng_for(k, case)

    def signed(mag):
        return np.where(rng.random(mag.shape) < 0.5, -mag, mag)

    x4 = f32(signed(np.exp2(rng.uniform(-20.0, 10.0, size=(n, 4)))))
    x4[0] = [1.0, -0.5, 3.0, 2.0 ** -20]
    x4[1] = [1023.5, -np.pi / 2, 1e-30, 100.0]
    # half: from 2^-22 (subnormal: half's normals start at 2^-14) to 2^8.
    hx = signed(np.exp2(rng.uniform(-22.0, 8.0, size=n))).astype(np.float16)
    hx[:4] = [1.0, -2.0 ** -20, 3.0 * 2.0 ** -23, 255.9]
    hx2 = signed(np.exp2(rng.uniform(-16.0, 8.0, size=(n, 2)))).astype(np.float16)
    hx2[0] = [2.0 ** -24, -65504.0]
    t4, th, th2 = x4.astype(np.float64), hx.astype(np.float64), hx2.astype(np.float64)
    assert np.all(t4 != 0) and np.all(th != 0) and np.all(th2 != 0)
    c = Case(k, case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x4", x4.ravel())
    c.read(1, "hx", hx)
    c.read(2, "hx2", hx2.ravel())
    # float: OpenCL C's full profile holds sin and cos to 4 ulp (C++: libm,
    # 1 ulp); |result| <= 1, one ulp at most 2^-24: 4 ulp and the
    # reference's rounding below 8 * 2^-24.
    note = "sin/cos: 4 ulp (OpenCL's bound) of results at most 1, plus the float32 rounding: 8 * 2^-24"
    c.write(3, "s4", f32(np.sin(t4)).ravel(), 8 * 2.0 ** -24, 0, note)
    c.write(4, "c4", f32(np.cos(t4)).ravel(), 8 * 2.0 ** -24, 0, note)
    c.write(5, "e4", ilogb_of(t4).ravel(), 0, 0, "integers: exact")
    # half: computed in float (a few float ulps) and rounded to half; the
    # reference rounds the exact value to half: the two differ by at most
    # one half ulp, 2^-11 for results in [0.5, 1] (less below).
    hnote = "sin/cos rounded to half: at most one half ulp of results at most 1, 2^-11"
    c.write(6, "hs", np.sin(th).astype(np.float16), 2.0 ** -11, 0, hnote)
    c.write(7, "hc", np.cos(th).astype(np.float16), 2.0 ** -11, 0, hnote)
    c.write(8, "he", ilogb_of(th), 0, 0, "integers: exact (subnormal halves: their own exponent)")
    c.write(9, "hs2", np.sin(th2).astype(np.float16).ravel(), 2.0 ** -11, 0, hnote)
    c.write(10, "hc2", np.cos(th2).astype(np.float16).ravel(), 2.0 ** -11, 0, hnote)
    c.write(11, "he2", ilogb_of(th2).ravel(), 0, 0, "integers: exact (subnormal halves: their own exponent)")
    c.save()


def modf_frexp_vectors(case, desc, n):
    """C's modf and frexp (math.modf, math.frexp: exact on float64, which
    holds every float and half) lane by lane."""
    import math
    k = "feat_modf_frexp_vectors"
    rng = rng_for(k, case)

    def signed(mag):
        return np.where(rng.random(mag.shape) < 0.5, -mag, mag)

    x4 = f32(signed(np.exp2(rng.uniform(-20.0, 30.0, size=(n, 4)))))
    x4[0] = [0.0, -0.0, 2.5, -2.5]
    x4[1] = [1.0, -0.75, 2.0 ** 30 + 64, 1e-30]
    h2 = signed(np.exp2(rng.uniform(-16.0, 15.0, size=(n, 2)))).astype(np.float16)
    h2[0] = [0.0, -65504.0]
    h2[1] = [2.0 ** -24, -1.5]

    def parts(x):
        t = x.astype(np.float64).ravel()
        frac = np.array([math.modf(v)[0] for v in t]).reshape(x.shape)
        whole = np.array([math.modf(v)[1] for v in t]).reshape(x.shape)
        man = np.array([math.frexp(v)[0] for v in t]).reshape(x.shape)
        ex = np.array([math.frexp(v)[1] for v in t], dtype=np.int32).reshape(x.shape)
        return frac, whole, man, ex

    f, w, m, e = parts(x4)
    hf, hw, hm, he = parts(h2)
    c = Case(k, case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x4", x4.ravel())
    c.read(1, "h2", h2.ravel())
    note = "modf and frexp are exact"
    c.write(2, "f4", f32(f).ravel(), 0, 0, note)
    c.write(3, "w4", f32(w).ravel(), 0, 0, note)
    c.write(4, "m4", f32(m).ravel(), 0, 0, note)
    c.write(5, "e4", e.ravel(), 0, 0, "integers: exact")
    c.write(6, "fh", hf.astype(np.float16).ravel(), 0, 0, note + " (each part is a half)")
    c.write(7, "wh", hw.astype(np.float16).ravel(), 0, 0, note + " (each part is a half)")
    c.write(8, "mh", hm.astype(np.float16).ravel(), 0, 0, note + " (each part is a half)")
    c.write(9, "eh", he.ravel(), 0, 0, "integers: exact")
    c.save()


def fill_shuffle(vals, fills, width, delta, m, down):
    """MSL 6.9.2 / 6.9.3 shuffle-and-fill over consecutive groups of `width`
    lanes, in runs of m lanes: lane i of a run takes data from lane
    i + delta (down) or i - delta (up) of its run, filling from the lane
    wrapped by m where that leaves the run."""
    out = np.empty_like(vals)
    for lane in range(len(vals)):
        run = lane - lane % m
        i = lane % m
        j = i + delta if down else i - delta
        if 0 <= j < m:
            out[lane] = vals[run + j]
        else:
            out[lane] = fills[run + j - m if down else run + j + m]
    return out


def simd_shuffle_fill(case, desc, n_tg, delta, qdelta):
    k = "feat_simd_shuffle_fill"
    rng = rng_for(k, case)
    n = 64 * n_tg
    data = f32(rng.integers(1, 1000, size=n))
    fill = f32(-rng.integers(1, 1000, size=n))
    # keep: whole runs of 8 lanes, at least one run of each kind.
    runs = rng.integers(0, 2, size=n // 8)
    runs[0], runs[1] = 1, 0
    keep = np.repeat(runs, 8).astype(np.uint32)
    # on: any lanes; a quad with every lane, one with none, and a SIMD
    # group with one lane only (lanes 64 .. 95 of the second threadgroup).
    on = rng.integers(0, 2, size=n).astype(np.uint32)
    on[0:4], on[4:8] = 1, 0
    on[64:96] = 0
    on[64 + 17] = 1
    vote = rng.integers(0, 2, size=n).astype(np.uint32)
    d, f = data.astype(np.float64), fill.astype(np.float64)

    out = np.zeros((n, 6))
    dout0 = f32(np.full((n, 4), -0.5))   # what lanes left out keep
    dout = dout0.astype(np.float64).copy()
    sentinel = 0xDEADBEEF
    masks = np.full((n, 4), sentinel, dtype=np.uint64)
    for base in range(0, n, 32):
        s = slice(base, base + 32)
        out[s, 0] = fill_shuffle(d[s], f[s], 32, delta, 32, True)
        out[s, 1] = fill_shuffle(d[s], f[s], 32, delta, 32, False)
        out[s, 2] = fill_shuffle(d[s], f[s], 32, delta, 16, True)
        out[s, 3] = fill_shuffle(d[s], f[s], 32, delta, 16, False)
        kept = keep[s] != 0
        d8 = fill_shuffle(d[s], f[s], 32, 3, 8, True)
        u8 = fill_shuffle(d[s], f[s], 32, 3, 8, False)
        dout[base:base + 32, 0] = np.where(kept, d8, dout[s, 0])
        dout[base:base + 32, 1] = np.where(kept, u8, dout[s, 1])
        act = on[s] != 0
        active_bits = sum(1 << l for l in range(32) if act[l])
        vote_bits = sum(1 << l for l in range(32) if act[l] and vote[base + l])
        for l in range(32):
            if act[l]:
                masks[base + l, 0] = active_bits
                masks[base + l, 1] = vote_bits
    for base in range(0, n, 4):
        s = slice(base, base + 4)
        out[s, 4] = fill_shuffle(d[s], f[s], 4, qdelta, 4, True)
        out[s, 5] = fill_shuffle(d[s], f[s], 4, qdelta, 4, False)
        kept = keep[s] != 0
        dout[s, 2] = np.where(kept, fill_shuffle(d[s], f[s], 4, 1, 2, True), dout[s, 2])
        dout[s, 3] = np.where(kept, fill_shuffle(d[s], f[s], 4, qdelta, 4, False), dout[s, 3])
        act = on[s] != 0
        active_bits = sum(1 << l for l in range(4) if act[l])
        vote_bits = sum(1 << l for l in range(4) if act[l] and vote[base + l])
        for l in range(4):
            if act[l]:
                masks[base + l, 2] = active_bits
                masks[base + l, 3] = vote_bits
    masks0 = np.full((n, 4), sentinel, dtype=np.uint32)
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "data", data)
    c.read(1, "fill", fill)
    c.read(2, "keep", keep)
    c.read(3, "on", on)
    c.read(4, "vote", vote)
    c.read(5, "delta", np.array([delta], dtype=np.uint16))
    c.read(6, "qdelta", np.array([qdelta], dtype=np.uint16))
    c.write(7, "out", f32(out.ravel()), 0, 0, "values moved between lanes: exact")
    c.read_write(8, "dout", dout0.ravel(), f32(dout.ravel()), 0, 0,
                 "values moved between lanes: exact; lanes left out keep -0.5")
    c.read_write(9, "masks", masks0.ravel(), masks.astype(np.uint32).ravel(), 0, 0,
                 "bit masks: exact; lanes left out keep 0xDEADBEEF")
    c.save()


def simd_votes(case, desc, n_tg):
    k = "feat_simd_votes"
    rng = rng_for(k, case)
    n = 64 * n_tg
    on = np.ones(n, dtype=np.uint32)
    vote = np.ones(n, dtype=np.uint32)
    sg = [slice(32 * s, 32 * s + 32) for s in range(n // 32)]
    vote[sg[1].start + 5] = 0                          # one lane votes no
    on[sg[2].start + 9] = 0                            # one lane inactive, the others yes
    vote[sg[3]] = 0                                    # every lane no
    on[sg[4]] = 0                                      # one quad active only: yes, no, yes, yes
    on[sg[4].start:sg[4].start + 4] = 1
    vote[sg[4].start:sg[4].start + 4] = [1, 0, 1, 1]
    on[sg[5]] = rng.integers(0, 2, size=32)            # random lanes and votes
    vote[sg[5]] = rng.integers(0, 2, size=32)
    vote[sg[6]] = rng.integers(0, 2, size=32)          # random votes, quads 0 and 1 all yes
    vote[sg[6].start:sg[6].start + 8] = 1
    vote[sg[7]] = 0                                    # the low half votes yes
    vote[sg[7].start:sg[7].start + 16] = 1

    sentinel = 0xDEADBEEF
    r = np.full((n, 8), sentinel, dtype=np.uint64)
    for base in range(0, n, 32):
        act = [on[base + l] != 0 for l in range(32)]
        ballot = sum(1 << l for l in range(32) if act[l] and vote[base + l])
        active = sum(1 << l for l in range(32) if act[l])
        every_active_yes = all(vote[base + l] != 0 for l in range(32) if act[l])
        for l in range(32):
            if not act[l]:
                continue
            q = l // 4 * 4                             # the quad's first lane
            qballot = sum(1 << j for j in range(4) if act[q + j] and vote[base + q + j])
            g = base + l
            r[g, 0] = 1 if ballot == 0xFFFFFFFF else 0  # all(): every lane's bit, active or not
            r[g, 1] = 1 if ballot != 0 else 0
            r[g, 2] = 1 if every_active_yes else 0
            r[g, 3] = 1 if qballot == 0xF else 0
            r[g, 4] = 1 if qballot != 0 else 0
            r[g, 5] = ballot
            r[g, 6] = qballot
            r[g, 7] = 1 + 0 + (0x1F & 0xF) * 4 + 0 + (128 if active == 0xFFFFFFFF else 0)
    r0 = np.full((n, 8), sentinel, dtype=np.uint32)
    c = Case(k, case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "on", on)
    c.read(1, "vote", vote)
    c.read_write(2, "r", r0.ravel(), r.astype(np.uint32).ravel(), 0, 0,
                 "booleans and bit masks: exact; lanes left out keep 0xDEADBEEF")
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    geometric_reflect("small", "dispatchThreads 70 in 32-thread groups (last partial): total internal reflection, "
                      "k = 0, dot(Nref, I) = 0, NaN and infinite operands", 70)
    modf_frexp_vectors("small", "dispatchThreads 96 in 32-thread groups: float |x| from 2^-20 to 2^30 and "
                       "zeros of both signs, half |x| from 2^-16 to 2^15 with 0, 65504 and a subnormal", 96)
    sincos_ilogb_vectors("small", "dispatchThreads 96 in 32-thread groups: float |x| from 2^-20 to 2^10 and 1e-30, "
                         "half from 2^-24 (subnormal) to 65504", 96)
    simd_shuffle_fill("small", "3 threadgroups of 64, delta 5, quad delta 3; runs of 8 lanes and single lanes left "
                      "out, a SIMD group with one active lane", 3, 5, 3)
    simd_shuffle_fill("delta_1", "2 threadgroups of 64, delta 1, quad delta 1", 2, 1, 1)
    simd_votes("small", "4 threadgroups of 64 (8 SIMD groups): every lane voting yes, one no, one lane inactive, "
               "every lane no, one quad active, random lanes, random votes, the low half yes", 4)
