#!/usr/bin/python3
"""Bar chart of `mslport bench` results: per kernel, the achieved GB/s of each
backend (bar; whisker: the rounds' range, or p10..p90 of the launches) against
that backend's measured memory roof (a dashed line of the same colour),
annotated with the fraction of the roof and the speed relative to PoCL.

Usage: plot_bench.py BENCH_PLOT.json OUT.png
(BENCH_PLOT.json is what `mslport bench --plot` writes into its work dir; the
plain `--format json` output works too, without whiskers.)
Needs Debian's python3-matplotlib.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1]) as f:
        data = json.load(f)
    roofs = data.get("roof_gbps", {})
    devices = data.get("devices", {})
    results = data.get("results", [])

    backends = []
    for r in results:
        b = r["target"] + "/" + r["platform"]
        if b not in backends:
            backends.append(b)
    for b in roofs:
        if b not in backends:
            backends.append(b)
    # OpenMP first, PoCL next, the rest after: a stable legend order.
    backends.sort(key=lambda b: (0 if b.startswith("openmp") else 1 if b == "opencl/pocl" else 2, b))
    colour = {b: COLOURS[i % len(COLOURS)] for i, b in enumerate(backends)}

    kernels = []
    for r in results:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    by = {(r["kernel"], r["target"] + "/" + r["platform"]): r for r in results}

    nb = max(len(backends), 1)
    bar_h = 0.8 / nb
    height = max(3.5, 0.55 * len(kernels) * max(nb, 2) / 2 + 2.2 + 0.2 * nb)
    fig, ax = plt.subplots(figsize=(11, height))
    xmax = max([v for v in roofs.values()] + [max(r["gbps"], r.get("gbps_high", 0)) for r in results] + [1.0])

    for ki, k in enumerate(kernels):
        for bi, b in enumerate(backends):
            r = by.get((k, b))
            if r is None:
                continue
            y = ki + (bi - (nb - 1) / 2) * bar_h
            g = r["gbps"]
            lo = r.get("gbps_low", g)
            hi = r.get("gbps_high", g)
            ax.barh(y, g, height=bar_h * 0.9, color=colour[b], alpha=0.9)
            if "gbps_low" in r:
                ax.errorbar(g, y, xerr=[[max(g - lo, 0)], [max(hi - g, 0)]], fmt="none", ecolor="black",
                            elinewidth=0.8, capsize=2)
            label = ("%.1f GB/s" % g) if g >= 1 else ("%.2g GB/s" % g)
            if r.get("roof_fraction") is not None:
                label += "  %.0f%% of roof" % (100 * r["roof_fraction"])
            if r.get("vs_pocl") is not None and b != "opencl/pocl":
                label += "  %.2fx PoCL" % r["vs_pocl"]
            ax.text(max(hi, g) + xmax * 0.01, y, label, va="center", fontsize=8)

    for b in backends:
        if b in roofs:
            ax.axvline(roofs[b], color=colour[b], linestyle="--", linewidth=1.5)

    ax.set_yticks(range(len(kernels)))
    ax.set_yticklabels(kernels, fontsize=9)
    ax.set_ylim(len(kernels) - 0.5, -0.5)  # first kernel on top
    ax.set_xlim(0, xmax * 1.5)
    golden = data.get("bytes_model") == "buffers"
    rounds = data.get("rounds", 1)
    if golden:
        moved = "every buffer of the golden case read once and every output written once"
    else:
        moved = "the least each launch must read and write"
    if data.get("whiskers") == "rounds":
        how = "each backend in a process of its own" if data.get("isolation") == "process" else \
            "the backends taking turns in one process"
        whiskers = "whiskers: slowest to fastest of %d rounds, %s" % (rounds, how)
    else:
        whiskers = "whiskers: the slowest and fastest tenth of the launches"
    ax.set_xlabel("GB moved per second (%s, over the median time)\n%s" % (moved, whiskers), fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    handles, labels = [], []
    for b in backends:
        handles.append(plt.Rectangle((0, 0), 1, 1, color=colour[b]))
        text = b
        if b in roofs:
            text += ": roof %.1f GB/s (dashed)" % roofs[b]
        if b in devices:
            text += " on " + devices[b]
        labels.append(text)
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.1 * 12 / height), fontsize=8,
              frameon=False, ncol=1)
    cases = "on its largest golden case" if golden else "on its bench case"
    ax.set_title("How fast each kernel moves memory %s, per backend\n(dashed: the fastest this machine moved memory "
                 "in the same run, with simple copy loops)" % cases, fontsize=10)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
