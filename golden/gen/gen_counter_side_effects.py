"""Golden cases for feat_counter_side_effects (metal_src/features/): counters
changed inside larger expressions. References are NumPy from the kernel's
documented math (the comment at the top of its .metal file), not from any
translation."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir

KERNELS = ["feat_counter_side_effects"]
# x holds multiples of 1/8 in [0, 1): 10, 100 and 1000 times them are exact,
# and the sum (below 1111 + the thread index, in steps of 1/8) needs at most
# 17 significant bits (float32 has 24), so every operation is exact.
EXACT = "multiples of 1/8 below 1 scaled by powers of ten: every sum is exact in float32"


def counter_side_effects(case, desc, n, tg):
    rng = rng_for("feat_counter_side_effects", case)
    x = f32(rng.integers(0, 8, size=(n, 4)) / 8.0)
    a = x.astype(np.float64)
    l = np.arange(n) % tg
    out = a[:, 0] + 10 * a[:, 1] + 100 * a[:, 2] + 1000 * a[:, 3] + l
    c = np.where(l % 2 == 0, 2, 1)
    scaled = (1000 * a[:, 0]).astype(np.int64) // c  # non-negative: // truncates as C does
    counts = 10 * scaled + c
    cs = Case("feat_counter_side_effects", case, desc)
    cs.threads([n, 1, 1], [tg, 1, 1])
    cs.tg_memory(0, tg * 4)
    cs.read(0, "x", x.reshape(-1))
    cs.write(1, "out", f32(out), 0, 0, EXACT)
    cs.write(2, "counts", np.ascontiguousarray(counts.astype(np.int32)), 0, 0, "integers: exact")
    cs.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    counter_side_effects("small", "70 threads in 32-thread groups (last partial)", 70, 32)
    counter_side_effects("odd_groups", "45 threads in 9-thread groups", 45, 9)


if __name__ == "__main__":
    generate()
