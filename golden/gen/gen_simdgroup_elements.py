"""Golden cases for simdgroup_matrix's lane-level forms (metal_src/features/):
thread_elements() (each lane's two elements of an 8x8 tile) and the
diagonal constructor simdgroup_matrix<T, C, R>(T dval).

References are plain NumPy in float64 written from each kernel's documented
math and from Metal's definitions: MSL 6.7.1 for the constructor ("creates a
diagonal matrix with the given value"), and for thread_elements() the lane
layout that code written for Apple GPUs relies on (MLX's steel BaseMMAFrag:
lane l owns (r, c) and (r, c + 1) with q = l // 4, r = (q & 4) + (l // 2) % 4,
c = (q & 2) * 2 + (l % 2) * 2). Never from the translator's output. Inputs
are small dyadic numbers, so every float32, half and bfloat operation of the
kernels is exact whatever the order: tolerances are 0."""
import numpy as np

from common import Case, bf16_round, f32, rng_for, reset_kernel_dir

KERNELS = ["feat_simdgroup_thread_elements", "feat_simdgroup_diagonal"]


def lane_elements(l):
    """The (row, first column) lane l of a SIMD group owns in an 8x8 tile."""
    q = l // 4
    return (q & 4) + (l // 2) % 4, (q & 2) * 2 + (l % 2) * 2


def eighths(rng, shape):
    return rng.integers(-12, 13, size=shape) / 8.0


def thread_elements(case, desc, n_tg, s):
    k = "feat_simdgroup_thread_elements"
    rng = rng_for(k, case)
    G = 2 * n_tg  # two SIMD groups per threadgroup of 64
    A = eighths(rng, (G, 2, 8, 8))
    H = eighths(rng, (G, 8, 8)).astype(np.float16)
    Eb, Ev = bf16_round(f32(eighths(rng, (G, 8, 8))))
    Ev = Ev.reshape(G, 8, 8).astype(np.float64)
    # Every lane owns a different pair: the map is a bijection onto the tile.
    owned = sorted((r, c + i) for l in range(32) for r, c in [lane_elements(l)] for i in range(2))
    assert owned == [(r, c) for r in range(8) for c in range(8)]
    pairs = np.zeros((G, 32, 2))
    out_c = np.zeros((G, 8, 8))
    out_d = np.zeros((G, 8, 8))
    out_h = np.zeros((G, 8, 8))
    out_e = np.zeros((G, 8, 8))
    for g in range(G):
        a, b = A[g, 0], A[g, 1]
        c = a @ b
        h = H[g].astype(np.float64)
        h2 = h.copy()
        for l in range(32):
            r, c0 = lane_elements(l)
            pairs[g, l] = c[r, c0:c0 + 2]
            for i in range(2):
                h2[r, c0 + i] = h[r, c0 + i] * 0.5 + l * 0.125
        c2 = c * s
        for l in range(32):
            r, c0 = lane_elements(l)
            c2[r, c0 + 1] += l * 0.25
        out_c[g] = c2
        out_d[g] = c2 @ a
        out_h[g] = h2
        e2 = Ev[g] * 2.0 - 0.125  # every lane's pair, so every element
        out_e[g] = e2 @ e2
    assert np.array_equal(out_h.astype(np.float16).astype(np.float64), out_h)
    c_ = Case(k, case, desc)
    c_.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c_.read(0, "A", f32(A.ravel()))
    c_.read(1, "H", H.view(np.uint16).ravel())
    c_.read(2, "E", Eb.ravel())
    c_.write(3, "pairs", f32(pairs.ravel()), 0, 0,
             "exact: sums of 8 products of eighths up to 1.5 (multiples of 1/64 below 18)")
    c_.write(4, "out_c", f32(out_c.ravel()), 0, 0,
             "exact: the products' sums times 1.5 plus quarters (multiples of 1/128 below 36)")
    c_.write(5, "out_d", f32(out_d.ravel()), 0, 0,
             "exact: sums of 8 products of those and eighths (multiples of 1/1024 below 2^9, 19 bits)")
    c_.write(6, "out_h", out_h.astype(np.float16).view(np.uint16).ravel(), 0, 0,
             "half bit patterns: eighths halved plus eighths are multiples of 1/16 below 5, exact in half")
    c_.write(7, "out_e", f32(out_e.ravel()), 0, 0,
             "exact: 2x - 1/8 of bfloat eighths is exact in bfloat; 8 products of eighths below 3.2 sum exactly")
    c_.read(8, "s", f32([s]))
    c_.save()


def diagonal(case, desc, n_tg, s):
    k = "feat_simdgroup_diagonal"
    rng = rng_for(k, case)
    A = eighths(rng, (n_tg, 8, 8))
    H = eighths(rng, (n_tg, 8, 8)).astype(np.float16)
    eye = np.eye(8)
    out_a = np.stack([A[g] @ eye for g in range(n_tg)])
    out_s = np.stack([A[g] @ (s * eye) + 0.0 for g in range(n_tg)])
    out_d = np.stack([2.5 * eye for _ in range(n_tg)])
    out_h = np.stack([(1.5 * eye) @ H[g].astype(np.float64) for g in range(n_tg)])
    out_b = np.stack([(-2.0 * eye) @ (-2.0 * eye) for _ in range(n_tg)])
    assert np.array_equal(out_h.astype(np.float16).astype(np.float64), out_h)
    c_ = Case(k, case, desc)
    c_.threadgroups([n_tg, 1, 1], [32, 1, 1])
    c_.read(0, "A", f32(A.ravel()))
    c_.read(1, "H", H.view(np.uint16).ravel())
    c_.write(2, "out_a", f32(out_a.ravel()), 0, 0, "exact: one product by 1 and seven by 0 per element")
    c_.write(3, "out_s", f32(out_s.ravel()), 0, 0, "exact: eighths times 1.5 (multiples of 1/16)")
    c_.write(4, "out_d", f32(out_d.ravel()), 0, 0, "exact: the constructor's value and zeros")
    c_.write(5, "out_h", out_h.astype(np.float16).view(np.uint16).ravel(), 0, 0,
             "half bit patterns: eighths times 1.5 are multiples of 1/16 below 2.25, exact in half")
    c_.write(6, "out_b", f32(out_b.ravel()), 0, 0, "exact: 4 on the diagonal, 0 elsewhere")
    c_.read(7, "s", f32([s]))
    c_.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    thread_elements("small", "3 threadgroups of 64 (two SIMD groups each), s = 1.5", 3, 1.5)
    diagonal("small", "3 threadgroups of 32 (one SIMD group each), s = 1.5", 3, 1.5)
