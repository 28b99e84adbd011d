"""Shared helpers for the golden-case generators.

Everything here is plain NumPy; run with Debian's /usr/bin/python3.
References are computed in float64 from each kernel's documented math.
"""
import json
import math
import os
import re
import shutil
import zlib

import numpy as np

GOLDEN = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Unit roundoff of IEEE binary32 (half an ulp at 1.0).
U = 2.0 ** -24
# Safety factor applied on top of every first-order error bound.
SAFETY = 4.0


def rng_for(kernel, case):
    """A generator seeded from the (kernel, case) name, so adding or editing
    one case never changes the data of another."""
    return np.random.default_rng(zlib.crc32(("mslport:" + kernel + "/" + case).encode()))


def f32(a):
    return np.ascontiguousarray(np.asarray(a, dtype=np.float32))


def u32(a):
    return np.ascontiguousarray(np.asarray(a, dtype=np.uint32))


def next_pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


def norm_tg(dim):
    """Threadgroup width documented for the fused norm kernels."""
    return min(256, next_pow2(dim))


def bf16_round(x):
    """Round float32 values to bfloat16 (nearest-even). Returns (bits uint16,
    exact float64 values)."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    b16 = rounded.astype(np.uint16)
    val = (b16.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return np.ascontiguousarray(b16), val


def round_up_2sig(x):
    """Round a positive tolerance up to two significant digits (for readability)."""
    if x <= 0:
        return 0.0
    e = math.floor(math.log10(x)) - 1
    m = math.ceil(x / 10.0 ** e - 1e-9)
    return float("%de%d" % (m, e))


def tol_from_bound(expected, bound, rel):
    """Pick (atol, rtol) such that atol + rtol*|exp_i| >= SAFETY * bound_i for
    every element i.  `bound` is a per-element first-order absolute error bound;
    `rel` is its purely multiplicative part (relative to the result).  The
    rest (cancellation against the operands' magnitudes) goes into atol.  atol
    never drops below SAFETY*U*median|expected| so an exactly-zero result does
    not demand bit-exactness."""
    e = np.abs(np.asarray(expected, dtype=np.float64)).ravel()
    b = np.asarray(bound, dtype=np.float64).ravel()
    rtol = SAFETY * rel
    rest = np.maximum(b - rel * e, 0.0)
    floor_ = SAFETY * U * float(np.median(e)) if e.size else 0.0
    atol = max(SAFETY * float(rest.max()) if rest.size else 0.0, floor_)
    return round_up_2sig(atol), round_up_2sig(rtol)


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


class Case:
    """Builds one golden/<kernel>/<case>/ directory."""

    def __init__(self, kernel, case, description):
        self.kernel = kernel
        self.case = case
        self.description = description
        self.dispatch = None
        self.buffers = []
        self.tgmem = []
        self.files = {}

    def threadgroups(self, tgs, tptg):
        self.dispatch = {"threadgroups": [int(v) for v in tgs],
                         "threads_per_threadgroup": [int(v) for v in tptg]}

    def threads(self, threads, tptg):
        self.dispatch = {"threads": [int(v) for v in threads],
                         "threads_per_threadgroup": [int(v) for v in tptg]}

    def tg_memory(self, index, nbytes):
        # Metal's setThreadgroupMemoryLength:atIndex: wants a multiple of 16 bytes.
        nbytes = (int(nbytes) + 15) // 16 * 16
        assert nbytes <= 32768, "threadgroup memory over Metal's 32 KB"
        self.tgmem.append({"index": int(index), "bytes": nbytes})

    def _file(self, fname, arr):
        assert fname not in self.files, fname
        self.files[fname] = np.ascontiguousarray(arr)
        return fname

    def read(self, index, name, data):
        self.buffers.append({"index": int(index), "name": name, "access": "read",
                             "data": self._file(name + ".npy", data)})

    def write(self, index, name, expected, atol=0.0, rtol=0.0, note=""):
        self.buffers.append({"index": int(index), "name": name, "access": "write",
                             "expected": self._file(name + ".expected.npy", expected),
                             "atol": float(atol), "rtol": float(rtol), "tolerance_note": note})

    def read_write(self, index, name, data, expected, atol=0.0, rtol=0.0, note=""):
        assert np.asarray(data).dtype == np.asarray(expected).dtype
        assert np.asarray(data).nbytes == np.asarray(expected).nbytes
        self.buffers.append({"index": int(index), "name": name, "access": "read_write",
                             "data": self._file(name + ".npy", data),
                             "expected": self._file(name + ".expected.npy", expected),
                             "atol": float(atol), "rtol": float(rtol), "tolerance_note": note})

    def save(self):
        assert self.dispatch is not None
        d = os.path.join(GOLDEN, self.kernel, self.case)
        os.makedirs(d, exist_ok=True)
        for fname, arr in sorted(self.files.items()):
            np.save(os.path.join(d, fname), arr, allow_pickle=False)
        doc = {"kernel": self.kernel, "case": self.case, "description": self.description,
               "dispatch": self.dispatch,
               "buffers": sorted(self.buffers, key=lambda b: b["index"])}
        if self.tgmem:
            doc["threadgroup_memory"] = self.tgmem
        with open(os.path.join(d, "case.json"), "w") as f:
            f.write(dumps(doc))
        total = sum(a.nbytes for a in self.files.values())
        assert total < 2_200_000, "%s/%s is %d bytes" % (self.kernel, self.case, total)
        return d


def dumps(doc):
    """json.dumps(indent=2) with short lists of numbers kept on one line."""
    text = json.dumps(doc, indent=2)
    text = re.sub(r"\[\s*([-0-9.e,\s]+?)\s*\]",
                  lambda m: "[" + ", ".join(p.strip() for p in m.group(1).split(",")) + "]", text)
    return text + "\n"


def reset_kernel_dir(kernel):
    """Remove a kernel's generated cases so stale cases do not survive."""
    d = os.path.join(GOLDEN, kernel)
    if os.path.isdir(d):
        shutil.rmtree(d)
