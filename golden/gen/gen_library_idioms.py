"""Golden cases for feature kernels of idioms that Metal kernel libraries
(MLX's above all) write: vector constructor forms, compile-time type logic,
and vector fragments read as one array through a member function
(metal_src/features/). References are NumPy from each kernel's documented
math; inputs are small dyadic numbers, so every float32 and half operation
of the kernels is exact and the tolerances are 0."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir

KERNELS = ["feat_vector_constructor_forms", "feat_type_traits", "feat_member_fragments",
           "feat_conversion_operators", "feat_class_conditionals", "feat_constructed_arrays",
           "feat_threadgroup_methods", "feat_bool_vector_union",
           "feat_reduction_ops"]
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


def conversion_operators(case, desc, n):
    rng = rng_for("feat_conversion_operators", case)
    z = eighths(rng, (n, 2))
    z[:4, 0] = [2.875, -2.875, 0.5, -0.5]  # truncation toward zero, both signs
    re = z[:, 0].astype(np.float64)
    c = Case("feat_conversion_operators", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "z", z.reshape(-1))
    c.write(1, "as_int", np.trunc(re).astype(np.int32), 0, 0, "integers: exact")
    c.write(2, "as_float", f32(re + np.trunc(re)), 0, 0, EXACT)
    c.save()


def class_conditionals(case, desc, n):
    rng = rng_for("feat_class_conditionals", case)
    z = eighths(rng, (n, 2))
    zv = z.astype(np.float64)
    i = np.arange(n)
    a = np.where((i < 4)[:, None], zv, np.array([1.0, 2.0]))
    b = np.where((i % 2 == 1)[:, None], a, 0.0)
    c = Case("feat_class_conditionals", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "z", z.reshape(-1))
    c.write(1, "out", f32(a[:, 0] + 2 * b[:, 1]), 0, 0, EXACT)
    c.save()


def constructed_arrays(case, desc, n):
    rng = rng_for("feat_constructed_arrays", case)
    x = eighths(rng, n)
    c = Case("feat_constructed_arrays", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(0.5 - x.astype(np.float64)), 0, 0, EXACT)
    c.save()


def threadgroup_methods(case, desc, groups):
    rng = rng_for("feat_threadgroup_methods", case)
    n = 32 * groups
    cells = eighths(rng, (n, 2))
    gid = np.arange(n)
    j = (gid % 32 + 1) % 32
    src = (gid // 32) * 32 + j
    out = cells[src, 0].astype(np.float64) + cells[src, 1] + (j + 1)
    c = Case("feat_threadgroup_methods", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "in", cells.reshape(-1))
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def bool_vector_union(case, desc, n):
    i = np.arange(n)
    out = (0x01010101 - (1 << (8 * (i % 4)))).astype(np.uint32)
    c = Case("feat_bool_vector_union", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.write(0, "out", out, 0, 0, "integers: exact")
    c.save()


def reduction_ops(case, desc, n):
    rng = rng_for("feat_reduction_ops", case)
    x = eighths(rng, (n, 4))
    v = x.astype(np.float64)
    c = Case("feat_reduction_ops", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "x", x.reshape(-1))
    c.write(1, "out", f32(v.sum(axis=1) + np.maximum(v.max(axis=1), -100.0)), 0, 0, EXACT)
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    vector_constructor_forms("small", "70 threads in 32-thread groups (last partial)", 70)
    type_traits("small", "70 threads in 32-thread groups (last partial), n = 3", 70, 3)
    type_traits("negative", "33 threads, n = -2", 33, -2)
    member_fragments("small", "70 threads in 32-thread groups (last partial)", 70)
    conversion_operators("small", "70 threads in 32-thread groups (last partial); the first four truncate "
                         "2.875, -2.875, 0.5, -0.5", 70)
    class_conditionals("small", "70 threads in 32-thread groups (last partial)", 70)
    constructed_arrays("small", "70 threads in 32-thread groups (last partial)", 70)
    threadgroup_methods("small", "3 threadgroups of 32", 3)
    bool_vector_union("small", "70 threads in 32-thread groups (last partial)", 70)
    reduction_ops("small", "70 threads in 32-thread groups (last partial)", 70)


if __name__ == "__main__":
    generate()
