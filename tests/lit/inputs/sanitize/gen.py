# Golden cases for sanitize.test's kernels (defects.metal / fixed.metal):
# float64 NumPy references of what the corrected kernels compute.
#   /usr/bin/python3 tests/lit/inputs/sanitize/gen.py
import json, os
import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
x = np.arange(128, dtype=np.float64)

def case(kernel, out, note):
    d = os.path.join(root, kernel, "lit")
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "x.npy"), x.astype(np.float32))
    np.save(os.path.join(d, "out.expected.npy"), np.asarray(out, dtype=np.float64).astype(np.float32))
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump({"kernel": kernel, "case": "lit", "description": note,
                   "dispatch": {"threadgroups": [2, 1, 1], "threads_per_threadgroup": [64, 1, 1]},
                   "buffers": [{"index": 0, "name": "x", "access": "read", "data": "x.npy"},
                               {"index": 1, "name": "out", "access": "write", "expected": "out.expected.npy",
                                "atol": 0.0, "rtol": 0.0,
                                "tolerance_note": "small integers in float32: exact"}]}, f, indent=2)
        f.write("\n")

g = x.reshape(2, 64)
case("san_tree_sum", g.sum(axis=1), "sum of each threadgroup's 64 elements")
case("san_scale", 2 * x, "out = 2 x, one element per thread")
case("san_early_exit", np.concatenate([np.where(np.arange(64) < 48, r[47 - np.arange(64) % 48], 0) for r in g]),
     "the first 48 elements of each threadgroup reversed, then zeros")
case("san_tile_swap", np.concatenate([r[::-1] for r in g]), "each threadgroup's 64 elements reversed through tiles")
case("san_shift", x, "out = x through threadgroup memory shifted by one")
