#!/usr/bin/python3
"""Validates every golden/<kernel>/<case>/case.json against the format of
docs/golden-format.md: required fields, access kinds, files that
exist and load, dtypes and sizes that agree, tolerances with notes, and, for
the corpus kernels, buffer sizes consistent with the scalar/struct parameters
and the dispatch.  Run: /usr/bin/python3 golden/gen/check_cases.py [golden-root]
Exit status 0 when every case is valid."""
import glob
import json
import math
import os
import sys

import numpy as np

GOLDEN = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TOP = {"kernel", "case", "description", "dispatch", "buffers", "threadgroup_memory", "function_constants"}
BUF = {"index", "name", "access", "data", "expected", "atol", "rtol", "tolerance_note", "compare_as"}


class Bad(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Bad(msg)


def vec3(v, what):
    need(isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and x >= 1 for x in v),
         "%s must be 3 positive integers" % what)


def load_npy(d, fname, what):
    need(isinstance(fname, str) and fname.endswith(".npy") and "/" not in fname,
         "%s must name a .npy file beside case.json" % what)
    p = os.path.join(d, fname)
    need(os.path.isfile(p), "%s: %s does not exist" % (what, fname))
    try:
        a = np.load(p, allow_pickle=False)
    except Exception as e:  # noqa: BLE001
        raise Bad("%s: %s does not load: %s" % (what, fname, e))
    need(a.dtype.kind != "O", "%s: object arrays are not allowed" % what)
    need(a.size >= 1, "%s: empty array" % what)
    need(a.flags.c_contiguous or a.ndim <= 1, "%s: not C-contiguous" % what)
    need(a.dtype.fields is not None or a.dtype.byteorder in "<|=", "%s: not little-endian" % what)
    return a


def scalar(arrs, name, kind):
    a = arrs[name]
    need(a.size == 1 and a.dtype.kind == kind and a.dtype.itemsize == 4,
         "%s must be a 1-element 32-bit %s array" % (name, {"u": "uint", "f": "float", "i": "int"}[kind]))
    return a.ravel()[0].item()


def struct(arrs, name, fields):
    a = arrs[name]
    need(a.size == 1 and a.dtype.names == tuple(f for f, _ in fields),
         "%s must be a 1-element struct (%s)" % (name, ", ".join(f for f, _ in fields)))
    for f, t in fields:
        need(a.dtype.fields[f][0] == np.dtype(t), "%s.%s must be %s" % (name, f, t))
    need(a.dtype.itemsize == 4 * len(fields), "%s: padding in the struct" % name)
    return {f: a[0][f].item() for f, _ in fields}


def size_is(arrs, name, n):
    need(arrs[name].size == n, "%s has %d elements, expected %d" % (name, arrs[name].size, n))


def tgmem(c, idx=0):
    for m in c.get("threadgroup_memory", []):
        if m["index"] == idx:
            return m["bytes"]
    return 0


def check_kernel(c, arrs):
    """Size relations of the corpus kernels (and our same-interface ports)."""
    k = c["kernel"]
    tgs = c["dispatch"].get("threadgroups")
    tg = c["dispatch"]["threads_per_threadgroup"][0]
    if k == "silu_mul_stacked_f32":
        p = struct(arrs, "p", [("ffn", "<i4"), ("n_slots", "<i4")])
        for n in ("gate", "up", "out"):
            size_is(arrs, n, p["ffn"] * p["n_slots"])
        need(tg == 256 and tgs[0] >= math.ceil(p["ffn"] / 256) and tgs[1] >= p["n_slots"],
             "dispatch must cover (ceil(ffn/256), n_slots) threadgroups of 256")
    elif k in ("weighted_sum_stacked_f32", "weighted_sum_residual_stacked_f32"):
        p = struct(arrs, "p", [("hidden", "<i4"), ("n_slots", "<i4")])
        size_is(arrs, "slots", p["hidden"] * p["n_slots"])
        size_is(arrs, "weights", p["n_slots"])
        size_is(arrs, "out" if k == "weighted_sum_stacked_f32" else "residual", p["hidden"])
        need(tg == 256 and tgs[0] >= math.ceil(p["hidden"] / 256), "dispatch must cover hidden")
    elif k == "weighted_sum_residual_norm_stacked_f32":
        p = struct(arrs, "p", [("hidden", "<i4"), ("n_slots", "<i4"), ("eps", "<f4")])
        size_is(arrs, "slots", p["hidden"] * p["n_slots"])
        size_is(arrs, "weights", p["n_slots"])
        for n in ("residual", "next_norm_w", "normed_out"):
            size_is(arrs, n, p["hidden"])
        need(tg == 256 and tgs == [1, 1, 1], "one threadgroup of exactly 256 threads")
    elif k in ("fused_moe_wsum_norm_add_f32", "fused_moe_wsum_dnorm_add_f32", "fused_norm_add_f32"):
        dim, rows = scalar(arrs, "dim", "u"), scalar(arrs, "rows", "u")
        scalar(arrs, "eps", "f")
        size_is(arrs, "residual", rows * dim)
        size_is(arrs, "output", rows * dim)
        extra = 0
        if k != "fused_norm_add_f32":
            topk = scalar(arrs, "top_k", "u")
            size_is(arrs, "expert_outputs", rows * topk * dim)
            size_is(arrs, "weights", rows * topk)
            extra = dim + (tg if k == "fused_moe_wsum_norm_add_f32" else 2 * tg)
        else:
            size_is(arrs, "input", rows * dim)
            extra = tg
        need(tgs[0] >= rows, "grid must cover rows")
        need(tgmem(c) >= 4 * extra, "threadgroup memory too small")
        need(tg & (tg - 1) == 0, "tree reduction needs a power-of-two threadgroup")
    elif k in ("fused_residual_norm_f32", "fused_residual_norm_scalar_f32", "fused_norm_add_scalar_f32"):
        last = "write_sum" if k == "fused_residual_norm_f32" else "scalar_is_vector"
        p = struct(arrs, "params", [("dim", "<u4"), ("rows", "<u4"), ("eps", "<f4"), (last, "<u4")])
        dim, rows = p["dim"], p["rows"]
        for n in ("residual", "input"):
            size_is(arrs, n, rows * dim)
        size_is(arrs, "weight", dim)
        size_is(arrs, "normed_output" if k == "fused_residual_norm_f32" else "output", rows * dim)
        if k == "fused_residual_norm_f32":
            size_is(arrs, "sum_output", rows * dim)
        else:
            need(arrs["scalar"].size >= (dim if p[last] else 1), "scalar buffer too small")
        if k == "fused_norm_add_scalar_f32":
            need(tgs[0] >= rows and tgmem(c) >= 4 * tg, "grid / threadgroup memory")
        else:
            need(tgs[0] == rows, "no row guard in this kernel: grid must be exactly rows")
            need(tgmem(c) >= 4 * max(dim, tg), "shared[i] is written for i < dim")
        need(tg & (tg - 1) == 0, "tree reduction needs a power-of-two threadgroup")
    elif k in ("fused_moe_routing_f32", "fused_moe_routing_batch_f32"):
        p = struct(arrs, "params", [("num_experts", "<u4"), ("top_k", "<u4")])
        sfx = "_all" if k.endswith("batch_f32") else ""
        ntok = tgs[0] if sfx else 1
        need(sfx or tgs == [1, 1, 1], "single threadgroup")
        size_is(arrs, "logits" + sfx, ntok * p["num_experts"])
        size_is(arrs, "expert_ids" + sfx, ntok * p["top_k"])
        size_is(arrs, "routing_weights" + sfx, ntok * p["top_k"])
        size_is(arrs, "per_expert_scale", p["num_experts"])
        need(tgmem(c) >= 4 * max(tg, 2 * p["num_experts"]), "threadgroup memory too small")
        need(tg & (tg - 1) == 0, "tree reduction needs a power-of-two threadgroup")
    elif k == "moe_gate":
        D, E, K = (scalar(arrs, "hidden_dim", "u"), scalar(arrs, "n_experts", "u"), scalar(arrs, "top_k", "u"))
        scalar(arrs, "rms_eps", "f")
        seq = tgs[0]
        need(arrs["hidden_state"].dtype == np.uint16, "hidden_state holds bfloat bit patterns (uint16)")
        size_is(arrs, "hidden_state", seq * D)
        size_is(arrs, "router_weights", E * D)
        size_is(arrs, "norm_weight", D)
        size_is(arrs, "per_expert_scale", E)
        size_is(arrs, "expert_ids", seq * K)
        size_is(arrs, "expert_weights", seq * K)
        need(E >= tg and E <= 128 and K <= 8, "preconditions n_experts >= tg_size, <= 128, top_k <= 8")
        need(tgmem(c) >= 4 * (D + E), "threadgroup memory too small")


def check_case(cj):
    d = os.path.dirname(cj)
    with open(cj) as f:
        c = json.load(f)
    need(isinstance(c, dict), "not a JSON object")
    unknown = set(c) - TOP
    need(not unknown, "unknown fields %s" % sorted(unknown))
    for f in ("kernel", "case", "description", "dispatch", "buffers"):
        need(f in c, "missing field %s" % f)
    need(c["kernel"] == os.path.basename(os.path.dirname(d)), "kernel does not match the directory")
    need(c["case"] == os.path.basename(d), "case does not match the directory")
    need(isinstance(c["description"], str) and c["description"], "empty description")
    disp = c["dispatch"]
    need(isinstance(disp, dict), "dispatch must be an object")
    need(set(disp) in ({"threadgroups", "threads_per_threadgroup"}, {"threads", "threads_per_threadgroup"}),
         "dispatch needs threadgroups|threads + threads_per_threadgroup")
    for key, v in disp.items():
        vec3(v, "dispatch." + key)
    need(np.prod(disp["threads_per_threadgroup"]) <= 1024, "more than 1024 threads per threadgroup")
    total_tg = 0
    for m in c.get("threadgroup_memory", []):
        need(set(m) == {"index", "bytes"}, "threadgroup_memory entries are {index, bytes}")
        need(isinstance(m["bytes"], int) and 0 < m["bytes"] and m["bytes"] % 16 == 0,
             "threadgroup_memory bytes must be a positive multiple of 16")
        total_tg += m["bytes"]
    need(total_tg <= 32768, "threadgroup memory over 32 KB")
    fc = c.get("function_constants")
    need(fc is None or (isinstance(fc, dict) and fc), "function_constants must be a non-empty object")
    for name, v in (fc or {}).items():
        need(isinstance(name, str) and name, "function_constants: names are non-empty strings")
        need(isinstance(v, (bool, int, float)), "function_constants.%s: true, false or a number" % name)
    idx = [b.get("index") for b in c["buffers"]]
    need(len(idx) == len(set(idx)), "duplicate buffer index")
    arrs = {}
    outputs = 0
    for b in c["buffers"]:
        where = "buffer %s" % b.get("name")
        need(set(b) <= BUF, "%s: unknown fields %s" % (where, sorted(set(b) - BUF)))
        need(isinstance(b.get("index"), int) and 0 <= b["index"] < 31, "%s: index 0..30" % where)
        need(isinstance(b.get("name"), str) and b["name"], "%s: name" % where)
        acc = b.get("access")
        need(acc in ("read", "write", "read_write"), "%s: access" % where)
        data = exp = None
        if acc in ("read", "read_write"):
            data = load_npy(d, b.get("data"), where + ".data")
        else:
            need("data" not in b, "%s: write buffers have no data" % where)
        if acc in ("write", "read_write"):
            outputs += 1
            exp = load_npy(d, b.get("expected"), where + ".expected")
            for t in ("atol", "rtol"):
                need(isinstance(b.get(t), (int, float)) and math.isfinite(b[t]) and b[t] >= 0,
                     "%s: %s must be a finite number >= 0" % (where, t))
            need(isinstance(b.get("tolerance_note"), str) and b["tolerance_note"], "%s: tolerance_note" % where)
            cmp = b.get("compare_as", "")
            need(cmp in ("", "exact", "bfloat16", "float16"), "%s: compare_as must be exact, bfloat16 or float16" % where)
            if cmp in ("bfloat16", "float16"):
                need(exp.dtype == np.uint16, "%s: compare_as %s needs uint16 bit patterns" % (where, cmp))
            elif exp.dtype.kind in "ui":
                need(b["atol"] == 0 and b["rtol"] == 0, "%s: integer outputs compare exactly" % where)
            need(exp.dtype.kind != "f" or not np.isnan(exp).any(), "%s: NaN in expected" % where)
        else:
            need("expected" not in b, "%s: read buffers have no expected" % where)
        if data is not None and exp is not None:
            need(data.dtype == exp.dtype and data.nbytes == exp.nbytes,
                 "%s: data and expected differ in dtype or size" % where)
        arrs[b["name"]] = data if data is not None else exp
    need(outputs >= 1, "no output buffer")
    check_kernel(c, arrs)


def main():
    global GOLDEN
    if len(sys.argv) > 1:
        GOLDEN = os.path.abspath(sys.argv[1])
    cases = sorted(glob.glob(os.path.join(GOLDEN, "*", "*", "case.json")))
    bad = 0
    per_kernel = {}
    for cj in cases:
        try:
            check_case(cj)
            k = os.path.basename(os.path.dirname(os.path.dirname(cj)))
            per_kernel[k] = per_kernel.get(k, 0) + 1
        except (Bad, KeyError, ValueError, TypeError) as e:
            bad += 1
            print("%s: %s" % (os.path.relpath(cj, GOLDEN), e))
    for d in sorted(glob.glob(os.path.join(GOLDEN, "*", "*"))):
        if os.path.isdir(d) and os.path.basename(os.path.dirname(d)) != "gen" and \
                not os.path.isfile(os.path.join(d, "case.json")):
            bad += 1
            print("%s: directory without case.json" % os.path.relpath(d, GOLDEN))
    for k, n in sorted(per_kernel.items()):
        print("%-42s %d cases" % (k, n))
    print("%d case.json checked, %d invalid" % (len(cases), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
