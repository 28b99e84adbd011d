"""Golden cases for feature kernels of idioms that Metal kernel libraries
(MLX's above all) write: vector constructor forms, compile-time type logic,
and vector fragments read as one array through a member function
(metal_src/features/). References are NumPy from each kernel's documented
math; inputs are small dyadic numbers, so every float32 and half operation
of the kernels is exact and the tolerances are 0."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir

KERNELS = ["feat_vector_constructor_forms", "feat_type_traits", "feat_member_fragments"]
EXACT = "dyadic inputs with few significant bits: every float32 operation is exact, so the result is exact"


def eighths(rng, shape, lo=-80, hi=81):
    return f32(rng.integers(lo, hi, size=shape) / 8.0)


def vector_constructor_forms(case, desc, n):
    rng = rng_for("feat_vector_constructor_forms", case)
    x = eighths(rng, n)
    h = (rng.integers(-80, 81, size=(n, 4)) / 8.0).astype(np.float16)  # k/8, |k| <= 80: exact in half
    xv, hv = x.astype(np.float64), h.astype(np.float64)
    out = np.empty((n, 4))
    out[:, 0] = xv + 2 * xv + hv[:, 0] - 2
    out[:, 1] = 2 + 2 * xv + hv[:, 1] - xv
    out[:, 2] = 0.5 + 2 * xv + hv[:, 2] - 1
    out[:, 3] = -1 + 2 * xv + hv[:, 3] - 2
    i = np.arange(n)
    idx = np.stack([i % 4, i // 4], axis=1).astype(np.int16)
    c = Case("feat_vector_constructor_forms", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.read(1, "h", h.view(np.uint16).reshape(-1))
    c.write(2, "out", f32(out).reshape(-1), 0, 0, EXACT)
    c.write(3, "idx", idx.reshape(-1), 0, 0, "integers: exact")
    c.save()


def type_traits(case, desc, n, scale):
    rng = rng_for("feat_type_traits", case)
    x = eighths(rng, n)
    s = rng.integers(-50, 51, size=n).astype(np.int16)
    fout = 2 * x.astype(np.float64) * scale + 0.25
    sout = ((s.astype(np.int64) + 1) * scale).astype(np.int16)
    c = Case("feat_type_traits", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.read(1, "s", s)
    c.write(2, "fout", f32(fout), 0, 0, EXACT)
    c.write(3, "sout", sout, 0, 0, "integers: exact")
    c.read(4, "n", np.array([scale], dtype=np.int32))
    c.save()


def member_fragments(case, desc, n):
    rng = rng_for("feat_member_fragments", case)
    x = eighths(rng, n)
    b = x.astype(np.float64)
    out = sum((b + 2 * f) * (b + 2 * f + 1) for f in range(4))
    c = Case("feat_member_fragments", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    vector_constructor_forms("small", "70 threads in 32-thread groups (last partial)", 70)
    type_traits("small", "70 threads in 32-thread groups (last partial), n = 3", 70, 3)
    type_traits("negative", "33 threads, n = -2", 33, -2)
    member_fragments("small", "70 threads in 32-thread groups (last partial)", 70)


if __name__ == "__main__":
    generate()
