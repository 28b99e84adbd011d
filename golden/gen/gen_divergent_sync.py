"""Golden cases for the feature kernels of synchronisation in control flow
that differs between SIMD groups or threads (metal_src/features/): barriers
in loops and branches whose path differs between SIMD groups, and loops with
barriers whose break and continue differ between threads.

References are plain Python loops over each threadgroup's lanes written from
each kernel's documented math (the comment at the top of its .metal file),
all lanes of a SIMD group stepping together as Metal's lanes do. Inputs are
small dyadic numbers, so every float32 operation is exact and the tolerances
are 0."""
import numpy as np

from common import Case, f32, rng_for, reset_kernel_dir

EXACT = "dyadic inputs with few significant bits: every float32 operation is exact, so the result is exact"

KERNELS = ["feat_simdgroup_barrier_divergent", "feat_simdgroup_loop_exit", "feat_simdgroup_loop_exit_memory"]


def simdgroup_barrier_divergent(case, desc, n_tg):
    rng = rng_for("feat_simdgroup_barrier_divergent", case)
    x = f32(rng.integers(-64, 65, size=n_tg * 64) / 8.0)
    out = np.zeros(n_tg * 64)
    for g in range(n_tg * 2):
        v = x[32 * g:32 * g + 32].astype(np.float64)
        s = g % 2
        for _ in range(2 + 3 * s):
            v = v + 0.5 * v[np.arange(32) ^ 1]
        if s == 1:
            v = v[(np.arange(32) + 1) % 32]
        out[32 * g:32 * g + 32] = v
    c = Case("feat_simdgroup_barrier_divergent", case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x)
    c.write(1, "out", f32(out), 0, 0, EXACT + " (at most 5 rounds of halving: 8 more bits)")
    c.save()


def simdgroup_loop_exit(case, desc, n_tg, n):
    rng = rng_for("feat_simdgroup_loop_exit", case)
    x = f32(rng.integers(-64, 65, size=(n_tg, n)) / 8.0)
    # Blocks whose values are all negative, so that some are skipped.
    for t in range(n_tg):
        for b in range(n // 32):
            if (t + b) % 3 == 0:
                x[t, 32 * b:32 * b + 32] = -np.abs(x[t, 32 * b:32 * b + 32]) - 0.125
    out = np.zeros((n_tg, 64))
    for t in range(n_tg):
        for s in range(2):
            for b in range(s * 32, n, 64):
                blk = x[t, b:b + 32].astype(np.float64)
                if blk.max() < 0:
                    continue
                out[t, 32 * s:32 * s + 32] += blk[np.arange(32) ^ 1]
    c = Case("feat_simdgroup_loop_exit", case, desc)
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x.reshape(-1))
    c.read(1, "n", np.array([n], dtype=np.uint32))
    c.write(2, "out", f32(out.reshape(-1)), 0, 0, EXACT)
    c.save()

    # The same rows with a per-SIMD-group limit on the blocks, read from memory.
    limits = np.array([(t * 2 + s) % 5 for t in range(n_tg) for s in range(2)], dtype=np.uint32)
    out = np.zeros((n_tg, 64))
    for t in range(n_tg):
        for s in range(2):
            for i in range(int(limits[2 * t + s])):
                b = 64 * i + 32 * s
                if b >= n:
                    break
                blk = x[t, b:b + 32].astype(np.float64)
                if blk.max() < 0:
                    continue
                out[t, 32 * s:32 * s + 32] += blk[np.arange(32) ^ 1] + blk.sum()
    c = Case("feat_simdgroup_loop_exit_memory", case, desc + "; SIMD group limits (2t + s) % 5 blocks, from memory")
    c.threadgroups([n_tg, 1, 1], [64, 1, 1])
    c.read(0, "x", x.reshape(-1))
    c.read(1, "n", np.array([n], dtype=np.uint32))
    c.read(2, "limits", limits)
    c.write(3, "out", f32(out.reshape(-1)), 0, 0, EXACT)
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    simdgroup_barrier_divergent("small", "3 threadgroups of 64: SIMD group 0 runs 2 rounds, group 1 runs 5", 3)
    simdgroup_loop_exit("odd_blocks", "4 rows of 224 values (7 blocks: SIMD group 0 takes 4, group 1 takes 3 and "
                        "breaks a round early), a third of the blocks all negative (skipped)", 4, 224)


if __name__ == "__main__":
    generate()
