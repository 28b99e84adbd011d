"""Golden cases for feat_integer_limits (metal_src/features/): the extreme
values of int and long, from Python's exact integers."""
import numpy as np

from common import Case, rng_for, reset_kernel_dir

KERNELS = ["feat_integer_limits"]


def integer_limits(case, desc, n):
    rng = rng_for("feat_integer_limits", case)
    v = rng.integers(0, 1001, size=n).astype(np.int32)
    v[0] = 0  # the extremes themselves
    out = np.empty(4 * n, dtype=np.int64)
    for i, x in enumerate(int(a) for a in v):
        out[4 * i:4 * i + 4] = [-2**31 + x, -2**63 + x, 2**31 - 1 - x, 2**63 - 1 - x]
    c = Case("feat_integer_limits", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "v", v)
    c.write(1, "out", out, 0, 0, "integers: exact")
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    integer_limits("small", "70 threads in 32-thread groups (last partial); the first adds 0", 70)


if __name__ == "__main__":
    generate()
