"""Packs golden cases into golden_case_fuzzer inputs (one file per case).

Usage: make_golden_seeds.py GOLDEN_DIR OUT_DIR [MAX_BYTES]

A case's buffers are renamed to the fuzzer's fixed file names: the first
input is x.npy, the second y.npy, the first output out.expected.npy
(cases with more .npy files, or larger than MAX_BYTES, are skipped).
"""
import json
import os
import sys

golden, out = sys.argv[1], sys.argv[2]
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 64 * 1024
os.makedirs(out, exist_ok=True)


def fdp_string(b):
    # FuzzedDataProvider::ConsumeRandomLengthString: "\\\\" is a backslash,
    # "\\" and any other byte end the string.
    return b.replace(b"\\", b"\\\\") + b"\\x"


written = 0
for root, _, files in sorted(os.walk(golden)):
    if "case.json" not in files:
        continue
    with open(os.path.join(root, "case.json"), "rb") as f:
        case = json.load(f)
    inputs, outputs = [], []
    for b in case.get("buffers", []):
        if "data" in b:
            inputs.append(b)
        if "expected" in b:
            outputs.append(b)
    if len(inputs) > 2 or len(outputs) > 1:
        continue
    blobs = {}
    for b, name in zip(inputs, ["x.npy", "y.npy"]):
        blobs[name] = open(os.path.join(root, b["data"]), "rb").read()
        b["data"] = name
    for b in outputs:
        blobs["out.expected.npy"] = open(os.path.join(root, b["expected"]), "rb").read()
        b["expected"] = "out.expected.npy"
    packed = (fdp_string(json.dumps(case).encode()) + fdp_string(blobs.get("x.npy", b"")) +
              fdp_string(blobs.get("y.npy", b"")) + blobs.get("out.expected.npy", b""))
    if len(packed) > limit:
        continue
    name = os.path.relpath(root, golden).replace(os.sep, "_")
    with open(os.path.join(out, name), "wb") as f:
        f.write(packed)
    written += 1
print("%d seeds in %s" % (written, out))
