#!/usr/bin/python3
"""Sanity check of the tolerances (not part of the contract): re-executes every
corpus-kernel golden case with a plain float32 NumPy emulation that follows
the kernel's own accumulation order (strided per-thread partial sums, tree
reductions, sequential loops), and reports how much of each tolerance a
faithful float32 execution uses.  A ratio near or above 1 means the tolerance
is too tight.  Run: /usr/bin/python3 golden/gen/selfcheck_f32.py"""
import glob
import json
import math
import os
import sys

import numpy as np

F = np.float32
GOLDEN = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def strided(x, tg, op=np.add, init=0.0):
    x = np.asarray(x, dtype=F)
    acc = np.full(tg, F(init), dtype=F)
    for k in range(0, x.size, tg):
        chunk = x[k:k + tg]
        acc[:chunk.size] = op(acc[:chunk.size], chunk)
    return acc


def tree(p, op=np.add):
    p = p.copy()
    s = p.size // 2
    while s > 0:
        p[:s] = op(p[:s], p[s:2 * s])
        s //= 2
    return p[0]


def simd_sum(v):
    v = v.copy()
    s = 16
    while s > 0:
        v = (v + np.roll(v, -s)).astype(F)
        s //= 2
    return v[0]


def rsqrt(x):
    return F(1.0) / np.sqrt(F(x), dtype=F)


def run(case, a):
    k = case["kernel"]
    tg = case["dispatch"]["threads_per_threadgroup"][0]
    out = {}
    if k == "silu_mul_stacked_f32":
        g, u = a["gate"], a["up"]
        out["out"] = (g / (F(1) + np.exp(-g))) * u
    elif k in ("weighted_sum_stacked_f32", "weighted_sum_residual_stacked_f32",
               "weighted_sum_residual_norm_stacked_f32"):
        s, w = a["slots"], a["weights"]
        acc = np.zeros(s.shape[1], F)
        for i in range(s.shape[0]):
            acc = acc + w[i] * s[i]
        if k == "weighted_sum_stacked_f32":
            out["out"] = acc
        else:
            r = a["residual"] + acc
            out["residual"] = r
            if k.endswith("norm_stacked_f32"):
                p = a["p"][0]
                part = strided(r * r, 256)
                sg = [simd_sum(part[j * 32:(j + 1) * 32]) for j in range(8)]
                tot = F(0)
                for v in sg:
                    tot = F(tot + v)
                scale = F(1) / np.sqrt(F(tot / F(p["hidden"]) + F(p["eps"])), dtype=F)
                out["normed_out"] = r * scale * a["next_norm_w"]
    elif k in ("fused_norm_add_f32", "fused_moe_wsum_norm_add_f32", "fused_moe_wsum_dnorm_add_f32",
               "fused_residual_norm_f32", "fused_residual_norm_scalar_f32", "fused_norm_add_scalar_f32"):
        if "params" in a:
            p = a["params"][0]
            dim, rows, eps = int(p["dim"]), int(p["rows"]), F(p["eps"])
        else:
            dim, rows, eps = int(a["dim"][0]), int(a["rows"][0]), F(a["eps"][0])
        res = a["residual"].reshape(rows, dim)
        res_out = {}
        for r in range(rows):
            if k in ("fused_moe_wsum_norm_add_f32", "fused_moe_wsum_dnorm_add_f32"):
                eo, w = a["expert_outputs"][r], a["weights"][r]
                v = np.zeros(dim, F)
                for j in range(eo.shape[0]):
                    v = v + eo[j] * w[j]
                rho_w = rsqrt(F(tree(strided(v * v, tg)) / F(dim)) + eps)
                if k == "fused_moe_wsum_norm_add_f32":
                    o = res[r] + v * rho_w * a["norm_weight"]
                    res_out.setdefault("output", []).append(o)
                else:
                    rho_r = rsqrt(F(tree(strided(res[r] * res[r], tg)) / F(dim)) + eps)
                    o = res[r] * rho_r * a["res_norm_weight"] + v * rho_w * a["moe_norm_weight"]
                    res_out.setdefault("output", []).append(o)
            else:
                x = a["input"].reshape(rows, dim)[r]
                s = res[r] + x if k.startswith("fused_residual") else x
                rho = rsqrt(F(tree(strided(s * s, tg)) / F(dim)) + eps)
                if k == "fused_norm_add_f32":
                    res_out.setdefault("output", []).append(res[r] + x * rho * a["weight"])
                elif k == "fused_residual_norm_f32":
                    res_out.setdefault("normed_output", []).append(s * rho * a["weight"])
                    res_out.setdefault("sum_output", []).append(s)
                else:
                    vec = int(p["scalar_is_vector"]) != 0
                    sc = a["scalar"][:dim] if vec else a["scalar"][0]
                    if k == "fused_residual_norm_scalar_f32":
                        o = s * rho * a["weight"] * sc
                    else:
                        o = (res[r] + x * rho * a["weight"]) * sc
                    res_out.setdefault("output", []).append(o)
        for name, v in res_out.items():
            out[name] = np.stack(v)
        if k == "fused_residual_norm_f32" and int(p["write_sum"]) == 0:
            out["sum_output"] = a["sum_output"]
    elif k in ("fused_moe_routing_f32", "fused_moe_routing_batch_f32"):
        p = a["params"][0]
        E, K = int(p["num_experts"]), int(p["top_k"])
        L = a["logits_all" if "logits_all" in a else "logits"].reshape(-1, E)
        ids, ws = [], []
        for l in L:
            m = tree(strided(l, tg, np.maximum, -np.inf), np.maximum)
            e = np.exp(l - m).astype(F)
            sm = tree(strided(e, tg))
            prob = (e / sm).astype(F)
            idl, wl = [], []
            for _ in range(K):
                b = int(np.argmax(prob))
                idl.append(b)
                wl.append(prob[b])
                prob[b] = F(-1)
            tot = F(0)
            for v in wl:
                tot = F(tot + v)
            ids.append(idl)
            ws.append([F(F(v / tot) * a["per_expert_scale"][i]) for v, i in zip(wl, idl)])
        sfx = "_all" if "logits_all" in a else ""
        out["expert_ids" + sfx] = np.array(ids, np.uint32)
        out["routing_weights" + sfx] = np.array(ws, F)
    elif k == "moe_gate":
        D, E, K = int(a["hidden_dim"][0]), int(a["n_experts"][0]), int(a["top_k"][0])
        eps = F(a["rms_eps"][0])
        hs = (a["hidden_state"].astype(np.uint32) << 16).view(F).reshape(-1, D)
        W = a["router_weights"].reshape(E, D)
        ids, ws = [], []
        for h in hs:
            rho = rsqrt(F(tree(strided(h * h, tg)) / F(D)) + eps)
            hn = h * rho * a["norm_weight"]
            dot = np.zeros(E, F)
            for d in range(D):
                dot = dot + hn[d] * W[:, d]
            order = []
            sel = np.zeros(E, bool)
            for _ in range(K):
                cand = np.where(sel, -np.inf, dot)
                b = int(np.argmax(cand))
                sel[b] = True
                order.append(b)
            sl = dot[order]
            e = np.exp(sl - sl.max()).astype(F)
            se = F(0)
            for v in e:
                se = F(se + v)
            sw = (e * (F(1) / se)).astype(F) * a["per_expert_scale"][order]
            ss = F(0)
            for v in sw:
                ss = F(ss + v)
            ids.append(order)
            ws.append(sw * (F(1) / ss))
        out["expert_ids"] = np.array(ids, np.uint32)
        out["expert_weights"] = np.array(ws, F)
    else:
        return None
    return out


def main():
    worst = {}
    bad = 0
    for cj in sorted(glob.glob(os.path.join(GOLDEN, "*", "*", "case.json"))):
        case = json.load(open(cj))
        d = os.path.dirname(cj)
        a = {b["name"]: np.load(os.path.join(d, b["data"])) for b in case["buffers"] if "data" in b}
        with np.errstate(over="ignore"):
            got = run(case, a)
        if got is None:
            continue
        for b in case["buffers"]:
            if "expected" not in b:
                continue
            exp = np.load(os.path.join(d, b["expected"]))
            g = np.asarray(got[b["name"]]).reshape(exp.shape)
            if exp.dtype.kind in "ui":
                ok = np.array_equal(g, exp)
                ratio = 0.0 if ok else math.inf
            else:
                lim = b["atol"] + b["rtol"] * np.abs(exp.astype(np.float64))
                err = np.abs(g.astype(np.float64) - exp.astype(np.float64))
                ratio = float(np.max(np.where(lim > 0, err / np.where(lim > 0, lim, 1), np.where(err > 0, np.inf, 0))))
            key = "%s/%s:%s" % (case["kernel"], case["case"], b["name"])
            worst[key] = ratio
            if ratio > 1:
                bad += 1
    for key, r in sorted(worst.items()):
        print("%-70s %.3f" % (key, r))
    print("%d outputs checked, %d over tolerance, max ratio %.3f" % (len(worst), bad, max(worst.values())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
