"""Copies golden cases (SRC/KERNEL/CASE/case.json and their .npy files) to DST
as cases that give inputs only: no expected values; write-only outputs
declared by dtype and shape (for check --differential).
    inputs_only.py SRC DST"""
import json
import os
import shutil
import sys

import numpy as np

src, dst = sys.argv[1], sys.argv[2]
for kernel in sorted(os.listdir(src)):
    for case in sorted(os.listdir(os.path.join(src, kernel))):
        d = os.path.join(src, kernel, case)
        if not os.path.isfile(os.path.join(d, "case.json")):
            continue
        out = os.path.join(dst, kernel, case)
        shutil.copytree(d, out)
        doc = json.load(open(os.path.join(d, "case.json")))
        for b in doc["buffers"]:
            if "expected" in b:
                exp = np.load(os.path.join(d, b.pop("expected")))
                if b["access"] == "write":
                    b["dtype"], b["shape"] = exp.dtype.str, list(exp.shape)
        json.dump(doc, open(os.path.join(out, "case.json"), "w"), indent=2)
