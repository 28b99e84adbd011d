"""Writing golden cases for mslport (docs/golden-format.md) from Python.

A case says how to dispatch one kernel, what each buffer holds, and what each
output must hold afterwards. Compute the expected outputs independently of
mslport (float64 NumPy, or loops written from the kernel's documented math),
then:

    import numpy as np
    from mslport_golden import Case, f32, rng_for

    rng = rng_for("saxpy", "small")
    x = f32(rng.normal(size=1000))
    y = f32(rng.normal(size=1000))
    c = Case("saxpy", "small", "n=1000, 4 threadgroups of 256", root="golden")
    c.threadgroups([4, 1, 1], [256, 1, 1])
    c.read(0, "x", x)
    c.read_write(1, "y", y, f32(3.0 * x.astype(np.float64) + y), atol=1e-6, rtol=1e-6,
                 note="one fma per element in float32")
    c.save()

mslport ships this module (`mslport --python-dir` prints where it is); this
repository's own generators (golden/gen/) use it too. Plain NumPy only.
"""
import json
import math
import os
import re
import shutil
import zlib

import numpy as np

__all__ = ["U", "SAFETY", "rng_for", "f32", "u32", "bf16_round", "f16_bits", "round_up_2sig", "tol_from_bound",
           "Case", "dumps", "reset_kernel_dir"]

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


def bf16_round(x):
    """Round float32 values to bfloat16 (nearest-even). Returns (bits uint16,
    exact float64 values): bfloat buffers are stored as their bit patterns."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    b16 = rounded.astype(np.uint16)
    val = (b16.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return np.ascontiguousarray(b16), val


def f16_bits(x):
    """half values (rounded to nearest even) as the uint16 bit patterns half
    buffers are stored as."""
    return np.ascontiguousarray(np.asarray(x, dtype=np.float32).astype(np.float16).view(np.uint16))


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


class Case:
    """Builds one <root>/<kernel>/<case>/ directory (root: the golden directory
    `mslport check --golden` reads, "golden" by default)."""

    def __init__(self, kernel, case, description, root="golden"):
        self.root = root
        self.kernel = kernel
        self.case = case
        self.description = description
        self.dispatch = None
        self.buffers = []
        self.tgmem = []
        self.constants = {}
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

    def function_constants(self, **values):
        """The function constants the kernel is specialised with for this
        case, by name (or by index: function_constants(**{"0": 2.5})):
        bool, int or float. `mslport check` translates the kernel with them."""
        for name, v in values.items():
            assert isinstance(v, (bool, int, float)), (name, v)
            self.constants[name] = v

    def _file(self, fname, arr):
        assert fname not in self.files, fname
        self.files[fname] = np.ascontiguousarray(arr)
        return fname

    @staticmethod
    def _where(index, argument_buffer_offset):
        """index alone: the buffer bound at [[buffer(index)]]. With
        argument_buffer_offset: a buffer whose address the host stores that
        many bytes into the argument buffer bound at `index` (a struct of
        pointers; Metal 3's host stores a buffer's gpuAddress there). Give
        the argument buffer itself too, as bytes, its pointers' 8 bytes
        each zero."""
        w = {"index": int(index)}
        if argument_buffer_offset is not None:
            assert int(argument_buffer_offset) % 8 == 0, argument_buffer_offset
            w["argument_buffer_offset"] = int(argument_buffer_offset)
        return w

    def read(self, index, name, data, argument_buffer_offset=None):
        self.buffers.append({**self._where(index, argument_buffer_offset), "name": name, "access": "read",
                             "data": self._file(name + ".npy", data)})

    def write(self, index, name, expected, atol=0.0, rtol=0.0, note="", argument_buffer_offset=None):
        """An output: poisoned before the run, compared with `expected`
        within atol + rtol*|expected| (say why in `note`)."""
        self.buffers.append({**self._where(index, argument_buffer_offset), "name": name, "access": "write",
                             "expected": self._file(name + ".expected.npy", expected),
                             "atol": float(atol), "rtol": float(rtol), "tolerance_note": note})

    def read_write(self, index, name, data, expected, atol=0.0, rtol=0.0, note="", argument_buffer_offset=None):
        """expected=None: a case that gives inputs only (see output())."""
        b = {**self._where(index, argument_buffer_offset), "name": name, "access": "read_write", "data": self._file(name + ".npy", data)}
        if expected is not None:
            assert np.asarray(data).dtype == np.asarray(expected).dtype
            assert np.asarray(data).nbytes == np.asarray(expected).nbytes
            b["expected"] = self._file(name + ".expected.npy", expected)
        b.update({"atol": float(atol), "rtol": float(rtol), "tolerance_note": note})
        self.buffers.append(b)

    def output(self, index, name, dtype, shape, atol=0.0, rtol=0.0, note="", argument_buffer_offset=None):
        """An output of a case that gives inputs only: its NumPy dtype and
        shape, no expected values. `mslport check --differential` runs such
        a case on both targets and compares their outputs with each other
        within atol + rtol*|value|. A case gives the expected values of
        every output or of none."""
        self.buffers.append({**self._where(index, argument_buffer_offset), "name": name, "access": "write",
                             "dtype": np.dtype(dtype).str, "shape": [int(v) for v in shape],
                             "atol": float(atol), "rtol": float(rtol), "tolerance_note": note})

    def save(self):
        assert self.dispatch is not None
        d = os.path.join(self.root, self.kernel, self.case)
        os.makedirs(d, exist_ok=True)
        for fname, arr in sorted(self.files.items()):
            np.save(os.path.join(d, fname), arr, allow_pickle=False)
        doc = {"kernel": self.kernel, "case": self.case, "description": self.description,
               "dispatch": self.dispatch,
               "buffers": sorted(self.buffers,
                                 key=lambda b: (b["index"], b.get("argument_buffer_offset", -1)))}
        if self.tgmem:
            doc["threadgroup_memory"] = self.tgmem
        if self.constants:
            doc["function_constants"] = dict(sorted(self.constants.items()))
        # Written whole or not at all: a case.json cut short is not a case.
        tmp = os.path.join(d, ".case.json.tmp")
        with open(tmp, "w") as f:
            f.write(dumps(doc))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, os.path.join(d, "case.json"))
        total = sum(a.nbytes for a in self.files.values())
        assert total < 2_200_000, "%s/%s is %d bytes" % (self.kernel, self.case, total)
        return d


def dumps(doc):
    """json.dumps(indent=2) with short lists of numbers kept on one line."""
    text = json.dumps(doc, indent=2)
    text = re.sub(r"\[\s*([-0-9.e,\s]+?)\s*\]",
                  lambda m: "[" + ", ".join(p.strip() for p in m.group(1).split(",")) + "]", text)
    return text + "\n"


def reset_kernel_dir(kernel, root="golden"):
    """Remove a kernel's generated cases so stale cases do not survive."""
    d = os.path.join(root, kernel)
    if os.path.isdir(d):
        shutil.rmtree(d)
