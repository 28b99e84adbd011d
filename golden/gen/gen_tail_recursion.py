"""Golden cases for feat_tail_recursion (metal_src/features/): helper
functions that call themselves last. References are plain Python from the
kernel's documented math (the comment at the top of its .metal file), not
from any translation: integers throughout, compared exactly."""
import math

import numpy as np

from common import Case, rng_for, reset_kernel_dir, u32

KERNELS = ["feat_tail_recursion"]


def odometer(a, n, radix):
    """Digits (most significant first) starting at a % r, after n is added to
    the last with carries; the carry out of the first digit is lost. Also how
    many digits the addition touched (0 when n is 0)."""
    digits = [a % r for r in radix]
    levels = 0
    carry = n
    for level in (2, 1, 0):
        if carry == 0:
            break
        levels += 1
        total = digits[level] + carry
        digits[level] = total % radix[level]
        carry = total // radix[level]
    return digits, levels


def tail_recursion(case, desc, n, tg, radix):
    rng = rng_for("feat_tail_recursion", case)
    x = rng.integers(0, 1_000_000, size=(n, 2)).astype(np.uint64)
    x[::7, 1] = 0  # gcd(a, 0) = a, and no odometer step
    out = []
    for a, b in x.tolist():
        digits, levels = odometer(a, b % 1000, radix)
        out += [sum(int(c) for c in str(a)), math.gcd(a, b), digits[0] * 100 + digits[1] * 10 + digits[2], levels]
    c = Case("feat_tail_recursion", case, desc)
    c.threads([n, 1, 1], [tg, 1, 1])
    c.read(0, "x", u32(x.reshape(-1)))
    c.read(1, "radix", u32(radix))
    c.write(2, "out", u32(out), 0, 0, "integers: exact")
    c.save()


def generate():
    for k in KERNELS:
        reset_kernel_dir(k)
    tail_recursion("small", "70 threads in 32-thread groups (last partial), radixes 7, 5, 3", 70, 32, [7, 5, 3])
    tail_recursion("decimal", "64 threads in 16-thread groups, radixes 10, 10, 10", 64, 16, [10, 10, 10])


if __name__ == "__main__":
    generate()
