#!/usr/bin/python3
"""Do two full bench runs agree? Per kernel and backend, the ratio to PoCL in
each run (`vs_pocl` of `mslport bench --format json` or `mslport-run bench
--format json`), their difference relative to the first run, and the spread
of each run's rounds. Exits 1 when a ratio differs by more than the limit
(default 15 %), or when a row of one run is missing from the other.

Usage: compare_ratios.py RUN1.json RUN2.json [LIMIT_PERCENT]
"""
import json
import sys


def rows(path):
    with open(path) as f:
        j = json.load(f)
    return {(r["kernel"], r["target"] + "/" + r["platform"]): r for r in j["results"] if r.get("vs_pocl") is not None
            and not (r["target"] == "opencl" and r["platform"] == "pocl")}, j.get("rounds", 1)


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    limit = float(argv[3]) / 100 if len(argv) == 4 else 0.15
    a, rounds_a = rows(argv[1])
    b, rounds_b = rows(argv[2])
    bad = 0
    print("%-36s %-16s %9s %9s %7s  %s" % ("kernel", "backend", "run 1", "run 2", "diff", "rounds' spread 1 / 2"))
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print("%-36s %-16s only in run %d" % (key[0], key[1], 1 if key in a else 2))
            bad += 1
            continue
        ra, rb = a[key]["vs_pocl"], b[key]["vs_pocl"]
        diff = (rb - ra) / ra
        flag = "" if abs(diff) <= limit else "  <- more than %.0f %%" % (100 * limit)
        bad += bool(flag)
        print("%-36s %-16s %8.2fx %8.2fx %+6.0f%%  %3.0f%% / %3.0f%%%s" % (
            key[0], key[1], ra, rb, 100 * diff, 100 * a[key].get("spread", 0), 100 * b[key].get("spread", 0), flag))
    print("%d of %d rows differ by more than %.0f %% (rounds: %d and %d)" % (
        bad, len(set(a) | set(b)), 100 * limit, rounds_a, rounds_b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
