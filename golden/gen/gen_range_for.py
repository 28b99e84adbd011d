"""Golden cases for feat_range_for (metal_src/features/): range-based for
loops. References are NumPy from the kernel's documented math (the comment
at the top of its .metal file), not from any translation."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir, u32

KERNELS = ["feat_range_for"]
# Inputs and weights are multiples of 1/8 below 10 in magnitude: every
# product is a multiple of 1/64 below 100, and every sum the kernel forms
# stays below 2^10 in magnitude, so it needs at most 16 significant bits
# (float32 has 24). Every float32 operation is exact in any order, with or
# without FMA contraction: the tolerance is 0.
EXACT = "multiples of 1/8 below 10: every product and sum is exact in float32, so the result is exact"


def eighths(rng, shape):
    return f32(rng.integers(-80, 81, size=shape) / 8.0)


def counted(row):
    """Values of a row before its first one above 5 that are not negative."""
    c = 0
    for g in row:
        if g < 0:
            continue
        if g > 5:
            break
        c += 1
    return c


def range_for(case, desc, n, tg):
    rng = rng_for("feat_range_for", case)
    x = eighths(rng, (n, 4))
    w = eighths(rng, 4)
    a = x.astype(np.float64)
    wv = w.astype(np.float64)
    k1 = np.arange(1, 5, dtype=np.float64)
    stats = wv[None, :] * a
    dot = stats.sum(axis=1)
    tsum = float(np.sum(k1 * wv))
    sq = np.sum(a * a, axis=1)
    half = a.sum(axis=1) / 2
    pairs = a[:, 0] * (a[:, 0] + a[:, 1]) + a[:, 2] * (a[:, 2] + a[:, 3])
    row = np.where(np.arange(n) % 2 == 0, a.sum(axis=1), -a.sum(axis=1))
    out = dot + tsum + sq + half + pairs + row
    counts = [counted(a[i]) + counted(-a[i]) for i in range(n)]
    c = Case("feat_range_for", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "x", x.reshape(-1))
    c.read(1, "p", w)
    c.write(2, "stats", f32(stats).reshape(-1), 0, 0, EXACT)
    c.write(3, "out", f32(out), 0, 0, EXACT)
    c.write(4, "counts", u32(counts), 0, 0, "integers: exact")
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    range_for("small", "70 threads in 32-thread groups (last partial)", 70, 32)
    range_for("narrow_groups", "33 threads in 5-thread groups: seven groups each fill their threadgroup array", 33, 5)


if __name__ == "__main__":
    generate()
