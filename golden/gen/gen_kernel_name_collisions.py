"""Golden cases for feat_kernel_name_collisions (metal_src/features/): types
named as kernels. References are NumPy from the kernels' documented math
(the comment at the top of the .metal file), not from any translation."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir, u32

KERNELS = ["feat_collision_bits", "feat_collision_pair"]
# feat_collision_bits: 2 + x / 2^22 with x below 2^23 is a float32 with a
# 23-bit mantissa, exact. feat_collision_pair: integers below 1000 plus
# halves of integers below 7: exact.
EXACT = "every value is a float32 exactly (see the generator)"


def collision_bits(case, desc, n, tg):
    rng = rng_for("feat_collision_bits", case)
    x = rng.integers(0, 1 << 23, size=n).astype(np.uint32)
    out = 2.0 + x.astype(np.float64) / float(1 << 22)
    c = Case("feat_collision_bits", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "x", u32(x))
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def collision_pair(case, desc, n, tg):
    rng = rng_for("feat_collision_pair", case)
    x = rng.integers(0, 1 << 31, size=n).astype(np.uint64)
    out = (x % 1000).astype(np.float64) + 0.5 * (x % 7).astype(np.float64)
    c = Case("feat_collision_pair", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "x", u32(x))
    c.write(1, "out", f32(out), 0, 0, EXACT)
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    collision_bits("small", "70 threads in 32-thread groups (last partial)", 70, 32)
    collision_pair("small", "70 threads in 32-thread groups (last partial)", 70, 32)


if __name__ == "__main__":
    generate()
