#!/usr/bin/python3
"""`bench --golden` and the rounds of `bench --target all`, end to end on a tiny
kernel of metal_src/ (features/feat_function_constant.metal, whose golden cases
give function constants). Structure, exit codes and messages only: no timing
is asserted.

Usage: bench_golden_cli.py MSLPORT MSLPORT_RUN WORK_DIR  (from the repository root)
"""
import json
import os
import shutil
import subprocess
import sys

SRC = "metal_src/features/feat_function_constant.metal"
KERNEL = "feat_function_constant"
failures = []


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what, out=""):
    if not cond:
        failures.append(what + ("\n--- output ---\n" + out if out else ""))


def main(mslport, mslport_run, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    empty = os.path.join(work, "empty-golden")
    os.makedirs(empty)
    common = ["--repeats", "2", "--work-dir", os.path.join(work, "w")]

    # Both targets, each round of each in a process of its own, taking turns; the largest
    # case gives function constants, so the kernel is translated with them.
    rc, out, err = run([mslport, "bench", "--src", SRC, "--golden", "golden", "--rounds", "2", "--format", "json"] + common)
    expect(rc == 0, "mslport bench --golden: exit %d" % rc, err)
    if rc == 0:
        j = json.loads(out)
        expect(j["rounds"] == 2 and j["isolation"] == "process" and j["bytes_model"] == "buffers", "top level", out)
        rows = {(r["kernel"], r["target"]): r for r in j["results"]}
        expect(set(rows) == {(KERNEL, "openmp"), (KERNEL, "opencl")}, "rows %s" % sorted(rows), out)
        for r in rows.values():
            expect(r["case"] == "scaled_biased", "the largest case is timed", out)
            expect(len(r["round_ms"]) == 2 and r["ms"] > 0, "two rounds' medians", out)
        omp = rows.get((KERNEL, "openmp"))
        expect(omp is not None and omp["vs_pocl_rounds"] is not None and len(omp["vs_pocl_rounds"]) == 2,
               "the ratio to PoCL per round", out)
        expect({"openmp/cpu", "opencl/pocl"} <= set(j["roof_gbps"]), "a roof per backend", out)
        for tag in ("round 1/2: openmp and opencl, a worker process each, taking turns",
                    "round 2/2: openmp and opencl, a worker process each, taking turns"):
            expect(tag in err, "progress names " + tag, err)

    # One target in this process, a case named, the table.
    rc, out, err = run([mslport, "bench", "--src", SRC, "--golden", "golden", "--case", "defaults", "--target",
                        "openmp", "--rounds", "2"] + common)
    expect(rc == 0, "mslport bench --case: exit %d" % rc, err)
    expect(KERNEL + " (defaults)" in out and "median of 2 rounds' medians (the backends taking turns" in out,
           "the table names the case and the rounds", out)

    # mslport-run times committed targets/, made without function constants:
    # the largest case it can run is the plain one.
    rc, out, err = run([mslport_run, "bench", "--targets", "targets", "--golden", "golden", "--kernel", KERNEL,
                        "--target", "all", "--rounds", "2", "--format", "json"] + common)
    expect(rc == 0, "mslport-run bench --golden: exit %d" % rc, err)
    if rc == 0:
        j = json.loads(out)
        expect([(r["case"], r["target"]) for r in j["results"]] == [("defaults", "openmp"), ("defaults", "opencl")],
               "mslport-run times the plain case on both targets", out)

    # Two OpenCL platforms (PoCL listed twice by the ICD loader): each gets a
    # worker process of its own, the second named with its platform index.
    icds = [os.path.join("/etc/OpenCL/vendors", f) for f in sorted(os.listdir("/etc/OpenCL/vendors"))
            if "pocl" in f] if os.path.isdir("/etc/OpenCL/vendors") else []
    expect(icds, "PoCL's ICD file in /etc/OpenCL/vendors")
    if icds:
        vendors = os.path.join(work, "two-platforms")
        os.makedirs(vendors)
        for i in (1, 2):
            shutil.copy(icds[0], os.path.join(vendors, "pocl-%d.icd" % i))
        p = subprocess.run([mslport_run, "bench", "--targets", "targets", "--golden", "golden", "--kernel", KERNEL,
                            "--rounds", "1", "--format", "json"] + common, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=dict(os.environ, OCL_ICD_VENDORS=vendors))
        expect(p.returncode == 0, "two platforms: exit %d" % p.returncode, p.stderr)
        if p.returncode == 0:
            j = json.loads(p.stdout)
            expect([(r["target"], r["platform"]) for r in j["results"]] ==
                   [("openmp", "cpu"), ("opencl", "pocl"), ("opencl", "pocl1")], "a row per platform", p.stdout)
            expect("round 1/1: openmp and opencl/pocl and opencl/pocl1, a worker process each" in p.stderr,
                   "a worker per platform", p.stderr)

    # Nothing to time: an error at once, no roof measured, no worker started.
    cases = [
        ([mslport, "bench", "--src", SRC, "--golden", empty, "--kernel", KERNEL], KERNEL + ": no golden case in " + empty),
        ([mslport, "bench", "--src", SRC, "--golden", empty], "nothing to time: no kernel of the sources has a golden case"),
        ([mslport, "bench", "--src", SRC, "--golden", "golden", "--kernel", "no_such"], "no_such: not a kernel of the sources"),
        ([mslport, "bench", "--src", SRC, "--golden", "golden", "--case", "no_such_case", "--kernel", KERNEL],
         "no golden case named 'no_such_case' (its cases: by_index, defaults, scaled_biased)"),
        ([mslport, "bench", "--src", SRC, "--kernel", KERNEL], KERNEL + ": no bench case"),
        ([mslport, "bench", "--src", SRC], "nothing to time: no kernel of the sources has a bench case"),
        ([mslport_run, "bench", "--targets", "targets", "--golden", empty, "--kernel", KERNEL],
         KERNEL + ": no golden case in " + empty),
    ]
    for argv, message in cases:
        rc, out, err = run(argv + common)
        both = out + err
        expect(rc == 1, "exit 1 for %s (got %d)" % (argv[1:], rc), both)
        expect(message in both, "message %r for %s" % (message, argv[1:]), both)
        expect("roof" not in err and "worker" not in err, "nothing measured for %s" % argv[1:], both)
    rc, out, err = run([mslport, "bench", "--src", SRC, "--case", "x"] + common)
    expect(rc == 2 and "--case names a golden case: it needs --golden DIR" in err, "--case without --golden", err)

    for f in failures:
        print("FAIL: " + f)
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
