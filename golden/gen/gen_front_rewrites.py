"""Golden cases for the feature kernels of Metal constructs the front end
mends in the text it gives clang, or builds beyond what clang's tree says
(metal_src/features/): explicit casts between half and bfloat, brace lists
passed as vector arguments, temporaries bound to references, values of
aggregate types, local references written through, constants from the lanes
of constant vectors, hints and logging left out, conditionals of struct
and matrix values (plain Python
loops over the grid, from the kernel's comment).

References are NumPy written from the MSL specification, independent of the
translator: a half or bfloat is converted to the other through its exact
float64 value, rounded once to nearest even (NumPy's float64 -> float16
conversion rounds correctly; bf16_round rounds float32 bits, and every half
is a float32 exactly). Outputs are compared as bit patterns."""
import numpy as np

from common import Case, bf16_round, rng_for, reset_kernel_dir

KERNELS = ["feat_half_bfloat_casts", "feat_vector_arguments", "feat_temporary_objects",
           "feat_aggregate_values", "feat_reference_locals",
           "feat_constant_vector_lanes", "feat_hints_and_logging",
           "feat_conditional_values"]


def half_inputs(rng, n):
    """Every kind of half: random bit patterns (normals, subnormals, zeros of
    both signs, infinities), NaNs left out; then values whose bfloat rounding
    is a tie (11 significant bits, the last 3 of them 100) and the largest."""
    bits = rng.integers(0, 1 << 16, size=(n, 4)).astype(np.uint16)
    nan = ((bits & 0x7C00) == 0x7C00) & ((bits & 0x03FF) != 0)
    bits[nan] &= 0xFC00  # the NaN becomes an infinity
    special = np.array([0x0000, 0x8000, 0x7C00, 0xFC00, 0x7BFF, 0xFBFF, 0x0001, 0x8001,
                        0x03FF, 0x0400, 0x3C04, 0x3C0C, 0x3C14, 0xBC1C, 0x4E4C, 0x3BFF], dtype=np.uint16)
    bits.ravel()[:special.size] = special
    return bits


def bfloat_inputs(rng, n):
    """bfloats from 2^-30 to 2^20 of both signs (half's subnormals, normals
    and overflow), then half's edges: 65504, the tie 65520 between 65504 and
    infinity, 2^-24 and 2^-25 (the tie with zero), 3 * 2^-26, infinities."""
    mag = np.exp2(rng.uniform(-30, 20, size=(n, 4))) * rng.choice([-1.0, 1.0], size=(n, 4))
    bits, _ = bf16_round(mag.astype(np.float32))
    special = np.array([65504.0, 65520.0, -65520.0, 2.0 ** -24, 2.0 ** -25, -(2.0 ** -25), 3 * 2.0 ** -26,
                        1e10, np.inf, -np.inf, 0.0, -0.0, 1.0 + 2.0 ** -7, 2.0 ** -14, 2.0 ** -15 * 1.5,
                        3.0 * 2.0 ** -24], dtype=np.float32)
    sb, _ = bf16_round(special)
    bits.ravel()[:sb.size] = sb
    return bits


def half_bfloat_casts(case, desc, n):
    rng = rng_for("feat_half_bfloat_casts", case)
    hb = half_inputs(rng, n)
    bb = bfloat_inputs(rng, n)
    h_val = hb.view(np.float16).astype(np.float64)
    b_val = (bb.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    to_bf, _ = bf16_round(h_val.astype(np.float32))         # exact: every half is a float32
    with np.errstate(over="ignore"):                         # beyond 65520: infinity, as Metal
        to_h = b_val.astype(np.float16).view(np.uint16)      # float64 -> half, nearest even
    c = Case("feat_half_bfloat_casts", case, desc)
    c.threads([n, 1, 1], [32, 1, 1])
    c.read(0, "h", hb)
    c.read(1, "b", bb)
    note = "bit patterns: exact value, one rounding to nearest even"
    c.write(2, "ob", to_bf.reshape(n, 4), 0, 0, note)
    c.write(3, "oh", np.ascontiguousarray(to_h.reshape(n, 4)), 0, 0, note)
    c.write(4, "obv", to_bf.reshape(n, 4), 0, 0, note)
    c.write(5, "ohv", np.ascontiguousarray(to_h.reshape(n, 4)), 0, 0, note)
    c.save()


def vector_arguments(case, desc, grid, tg, strides):
    rng = rng_for("feat_vector_arguments", case)
    X, Y, Z = grid
    n = X * Y * Z
    v = rng.integers(-80, 81, size=n) / 8.0   # eighths: every float32 operation below is exact
    loc = np.zeros(n, dtype=np.int64)
    out = np.zeros((n, 4))
    for z in range(Z):
        for y in range(Y):
            for x in range(X):
                i = x + X * (y + Y * z)
                loc[i] = 2 * x * strides[0] + y * strides[1] + z * strides[2]
                p = (2 * v[i], -2 * v[i], 1.0)
                q = (v[i], 3.0, 0.0)
                out[i] = (p[0] + q[0], p[1] + q[1], p[2] + q[2], v[i] / 2 + v[i] / 4)
    c = Case("feat_vector_arguments", case, desc)
    c.threads(grid, tg)
    c.read(0, "strides", np.array(strides, dtype=np.int32))
    c.read(1, "in", v.astype(np.float32))
    c.write(2, "loc", loc.astype(np.uint32), 0, 0, "integer index arithmetic: exact")
    c.write(3, "out", out.astype(np.float32), 0, 0, "eighths with few significant bits: exact")
    c.save()


def temporary_objects(case, desc, n, tg):
    rng = rng_for("feat_temporary_objects", case)
    x = rng.integers(-64, 65, size=n) / 16.0   # sixteenths: every float32 operation below is exact
    out = np.zeros(n)
    pairs = np.zeros((n, 2))
    for i in range(n):
        v = x[i]
        out[i] = v * v + (3.0 * v + 1.0) + 3.0 + 5.0 + (v + 1.0) ** 2
        pairs[i] = (v, -2.0 * v)
    c = Case("feat_temporary_objects", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "in", x.astype(np.float32))
    c.write(1, "out", out.astype(np.float32), 0, 0, "sixteenths up to 4 in magnitude: exact in float32")
    c.write(2, "pairs", pairs.astype(np.float32), 0, 0, "exact")
    c.save()


def aggregate_values(case, desc, n, tg):
    rng = rng_for("feat_aggregate_values", case)
    x = rng.integers(-64, 65, size=n) / 16.0   # sixteenths: every float32 operation below is exact
    table = [0.5, 1.5, 2.5]
    pairs = [(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]
    gain, bias, taps = 2.0, 0.0, [1, 2, 0, 0]
    out = np.zeros(n)
    for i in range(n):
        j = i % 3
        r = table[j] * x[i] + pairs[j][1] - pairs[j][0]
        r += gain * sum(taps) + bias
        r += [0.5 + 1.0, 2.0 + 2.0][i % 2]
        out[i] = r + x[i] + 2.0 * x[i]
    c = Case("feat_aggregate_values", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "in", x.astype(np.float32))
    c.write(1, "out", out.astype(np.float32), 0, 0, "sixteenths and small integers: exact in float32")
    c.save()


def reference_locals(case, desc, n, tg):
    rng = rng_for("feat_reference_locals", case)
    x = rng.integers(-64, 65, size=n) / 16.0   # sixteenths: every float32 operation below is exact
    cells = np.stack([x + 1.0, 2.0 * x], axis=1)
    counts = np.array([n, n - 1], dtype=np.uint32)
    out = x + (3.0 + x)
    c = Case("feat_reference_locals", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "in", x.astype(np.float32))
    c.write(1, "cells", cells.astype(np.float32), 0, 0, "exact")
    c.write(2, "raw", counts, 0, 0, "integers: exact")
    c.write(3, "out", out.astype(np.float32), 0, 0, "exact")
    c.save()


def constant_vector_lanes(case, desc, n, tg):
    rng = rng_for("feat_constant_vector_lanes", case)
    x = rng.integers(-64, 65, size=n) / 16.0   # sixteenths: x * 0.5 - 6 is exact in float32
    c = Case("feat_constant_vector_lanes", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "in", x.astype(np.float32))
    c.write(1, "out", (x * (8 / 16) - 6).astype(np.float32), 0, 0, "exact")
    c.write(2, "count", np.array([4 * 8 * 2], dtype=np.uint32), 0, 0, "integer: exact")
    c.save()


def hints_and_logging(case, desc, n, tg):
    rng = rng_for("feat_hints_and_logging", case)
    x = rng.integers(-64, 65, size=n) / 16.0
    c = Case("feat_hints_and_logging", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "in", x.astype(np.float32))
    c.write(1, "out", np.where(x < 0, -x, 2 * x).astype(np.float32), 0, 0, "exact")
    c.save()


def conditional_values(case, desc, n, tg):
    rng = rng_for("feat_conditional_values", case)
    x = rng.integers(-64, 65, size=n) / 16.0   # sixteenths: every float32 operation below is exact
    out = np.zeros(n)
    for i in range(n):
        r = (3 * x[i], 6.0) if x[i] > 0 else (x[i], 2.0)
        diag = x[i] * 0.5 if i % 2 == 0 else x[i]   # float4x4(x): x on the diagonal, 0 elsewhere
        out[i] = r[0] + r[1] + diag + diag + 0.0
    c = Case("feat_conditional_values", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "in", x.astype(np.float32))
    c.write(1, "out", out.astype(np.float32), 0, 0, "sixteenths: exact in float32")
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    half_bfloat_casts("small", "dispatchThreads 200 in 32-thread groups (last partial): random half bit patterns "
                      "(no NaN) and bfloats from 2^-30 to 2^20, with ties, overflow and underflow edges", 200)
    vector_arguments("small", "dispatchThreads 10 x 3 x 2 in 4 x 3 x 2 groups (last partial); strides 1, 20, 60",
                     [10, 3, 2], [4, 3, 2], [1, 20, 60])
    temporary_objects("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100, 32)
    aggregate_values("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100, 32)
    reference_locals("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100, 32)
    constant_vector_lanes("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100, 32)
    hints_and_logging("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100, 32)
    conditional_values("small", "dispatchThreads 100 in 32-thread groups (last partial)", 100, 32)


if __name__ == "__main__":
    generate()
