"""Golden cases for feat_array_references (metal_src/features/): references to
arrays. References are NumPy from the kernel's documented math (the comment
at the top of its .metal file), not from any translation."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir

KERNELS = ["feat_array_references"]
# Inputs, weights and rows are multiples of 1/8 below 10 in magnitude: the
# grid's values are multiples of 1/16 below 40 (halving one is exact), every
# product of a weight and an input a multiple of 1/64 below 100, and every
# sum the kernel forms stays below 2^10 in magnitude, so it needs at most 16
# significant bits (float32 has 24). Every float32 operation is exact in any
# order, with or without FMA contraction: the tolerance is 0.
EXACT = "multiples of 1/8 below 10: every product and sum is exact in float32, so the result is exact"


def eighths(rng, shape):
    return f32(rng.integers(-80, 81, size=shape) / 8.0)


def array_references(case, desc, n, g):
    assert n % g == 0 and g <= 32, "full threadgroups of at most 32 threads"
    rng = rng_for("feat_array_references", case)
    x = eighths(rng, (n, 4))
    w = eighths(rng, 4)
    rows = eighths(rng, (2, 4))
    a = x.astype(np.float64)
    wv = w.astype(np.float64)
    rv = rows.astype(np.float64)

    out = np.zeros(n)
    stats = np.zeros((n, 4))
    for i in range(n):
        # The thread's 3 x 4 grid, changed through the row it binds.
        grid = np.array([(r + 1) * a[i] for r in range(3)])
        k0 = i % 3
        grid[k0][1] = 10.0
        grid[k0] = grid[k0] / 2 + 1
        k1 = (k0 + 1) % 3
        grid[k1][3] = -grid[k1][3]
        tsum = grid.sum() + 4
        # The next thread of the group (wrapping), whose tile row holds a + c.
        lid = i % g
        nb = i - lid + (lid + 1) % g
        gsum = np.sum(a[nb] + np.arange(4)) + a[i][0]
        dot = np.sum(wv * a[i])
        prow = rv[i % 2].sum()
        stats[i] = wv * a[i]
        stats[i][0] += 1
        out[i] = tsum + gsum + dot + prow + stats[i][0]

    c = Case("feat_array_references", case, desc)
    c.threads([n, 1, 1], [g, 1, 1])
    c.read(0, "x", x.reshape(-1))
    c.read(1, "p", np.concatenate([w, rows.reshape(-1)]))
    c.write(2, "stats", f32(stats).reshape(-1), 0, 0, EXACT)
    c.write(3, "out", f32(out), 0, 0, EXACT)
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    array_references("small", "64 threads in two 32-thread groups", 64, 32)
    array_references("narrow_groups", "35 threads in seven 5-thread groups", 35, 5)


if __name__ == "__main__":
    generate()
