"""Golden cases for the feature kernels of kernel parameter forms
(metal_src/features/): parameters declared as arrays, which C++ adjusts to
pointers to their element.

References are plain NumPy indexing written from each kernel's documented
math (the comment at the top of its .metal file). Inputs are dyadic numbers,
so the products are exact and the tolerances 0."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir

EXACT = "dyadic inputs with few significant bits: every float32 operation is exact, so the result is exact"

KERNELS = ["feat_array_params", "feat_helper_array_params"]


def array_params(case, desc, rows, cols):
    rng = rng_for("feat_array_params", case)
    n = rows * cols
    # x holds a column-major rows x cols matrix with padded columns; the
    # kernel walks it row by row through the strides.
    ld = rows + 3
    x = f32(rng.integers(-64, 65, size=ld * cols) / 8.0)
    strides = np.array([1, ld, cols], dtype=np.int64)
    scale = f32(np.array([0.5, -2.0, 1.0, 0.25]))
    i = np.arange(n)
    out = x[strides[0] * (i // cols) + strides[1] * (i % cols)].astype(np.float64) * scale[i % 4]
    c = Case("feat_array_params", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.read(1, "strides", strides)
    c.read(2, "scale", scale)
    c.write(3, "out", f32(out), 0, 0, EXACT)
    c.save()


def helper_array_params(case, desc, w, h, t):
    rng = rng_for("feat_helper_array_params", case)
    # x is read at gid.x * h + gid.y (strides[0] = 1, strides[1] = h).
    x = f32(rng.integers(-64, 65, size=w * h) / 8.0)
    strides = np.array([1, h] + list(t), dtype=np.int64)
    gy, gx = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    gx, gy = gx.ravel(), gy.ravel()  # thread i = gy * w + gx
    out = np.empty(2 * w * h)
    out[0::2] = x[gx * h + gy].astype(np.float64) + 1
    out[1::2] = gx * t[0] + gy * t[1] + t[2] - 1
    c = Case("feat_helper_array_params", case, desc)
    c.threads([w, h, 1], [4, 2, 1])
    c.read(0, "x", x)
    c.read(1, "strides", strides)
    c.write(2, "out", f32(out), 0, 0, EXACT)
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    array_params("small", "a 7 x 10 matrix stored column-major with 3 rows of padding, read row by row; "
                 "dispatchThreads 70 in 32-thread groups (last partial)", 7, 10)
    helper_array_params("small", "an 8 x 6 grid in 4 x 2 groups; x read transposed through the strides, an affine "
                        "function of the position (3, -5, 7) from the strides after them", 8, 6, (3, -5, 7))
    helper_array_params("ragged", "a 9 x 5 grid in 4 x 2 groups (partial groups on both axes), affine (-2, 11, -40)",
                        9, 5, (-2, 11, -40))


if __name__ == "__main__":
    generate()
