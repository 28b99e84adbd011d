# Golden cases for kernels.metal (isolation tests): out = x for every
# kernel that finishes.
#   /usr/bin/python3 tests/lit/inputs/isolation/gen.py
import json, os
import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
x = np.arange(64, dtype=np.float32)


def case(kernel, name, threadgroup_memory=None):
    d = os.path.join(root, kernel, name)
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "out.expected.npy"), x)
    c = {"kernel": kernel, "case": name, "description": "out = x",
         "dispatch": {"threadgroups": [2, 1, 1], "threads_per_threadgroup": [32, 1, 1]},
         "buffers": [{"index": 0, "name": "x", "access": "read", "data": "x.npy"},
                     {"index": 1, "name": "out", "access": "write", "expected": "out.expected.npy",
                      "atol": 0.0, "rtol": 0.0, "tolerance_note": "a copy: exact"}]}
    if threadgroup_memory is not None:
        c["threadgroup_memory"] = threadgroup_memory
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(c, f, indent=2)
        f.write("\n")


case("iso_copy", "a")
case("iso_crash", "a")
case("iso_spin", "a")
case("iso_tg_copy", "given", [{"index": 0, "bytes": 128}])
case("iso_tg_copy", "zero", [{"index": 0, "bytes": 0}])
case("iso_tg_copy", "missing")
