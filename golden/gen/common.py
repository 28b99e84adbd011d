"""Shared helpers for the golden-case generators.

Everything here is plain NumPy; run with Debian's /usr/bin/python3.
References are computed in float64 from each kernel's documented math.
"""
import math
import os
import sys

import numpy as np

GOLDEN = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# The generic helpers live in the module mslport ships for users
# (python/mslport_golden); this repository's cases go to golden/.
sys.path.insert(0, os.path.join(os.path.dirname(GOLDEN), "python"))
import mslport_golden  # noqa: E402
from mslport_golden import SAFETY, U, bf16_round, dumps, f32, rng_for, round_up_2sig, tol_from_bound, u32  # noqa: E402,F401


def next_pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


def norm_tg(dim):
    """Threadgroup width documented for the fused norm kernels."""
    return min(256, next_pow2(dim))


# Error model of rsqrt(sum_i x_i^2 / n + eps) computed in float32.
#  * the sum of n non-negative squares: relative error <= depth*U for the
#    kernel's own order (strided partial sums then a tree); we add 2*sqrt(n)*U
#    so a port that reassociates (vectorised partial sums) still fits;
#  * errors already present in x (abs error ex_i) add 2*sum|x_i|ex_i / sum x^2;
#  * the division by n (fast-math division <= 2.5 ulp = 5U), "+ eps" (U) and
#    rsqrt (<= 2 ulp = 4U; 1/sqrt: sqrt 3 ulp + division 2.5 ulp = 11U):
#    12U in all.  The square root halves the sum's relative error.
def rms_inv_rel_err(x, depth, ex=None):
    x = np.asarray(x, dtype=np.float64).ravel()
    ss = float(np.sum(x * x))
    n = x.size
    rel_ss = (depth + 2.0 * math.sqrt(n) + 1.0) * U
    if ex is not None and ss > 0:
        rel_ss += 2.0 * float(np.sum(np.abs(x) * np.asarray(ex).ravel())) / ss
    return 0.5 * rel_ss + 12.0 * U


def tree_depth(n, tg):
    """Additions on the longest path of: strided per-thread partials over n
    elements with tg threads, then a log2(tg) tree."""
    return int(math.ceil(n / tg)) + int(math.log2(tg))


def fast_exp_rel_err(x_abs_max):
    """Metal fast-math exp: <= 3 + floor(|2x|) ulp (MSL spec accuracy table);
    one ulp <= 2U relative."""
    return (3.0 + math.floor(2.0 * x_abs_max)) * 2.0 * U


class Case(mslport_golden.Case):
    """A case of this repository: written under golden/."""

    def __init__(self, kernel, case, description):
        super().__init__(kernel, case, description, root=GOLDEN)


def reset_kernel_dir(kernel):
    """Remove a kernel's generated cases so stale cases do not survive."""
    mslport_golden.reset_kernel_dir(kernel, GOLDEN)
