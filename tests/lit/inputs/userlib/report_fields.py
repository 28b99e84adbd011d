"""Prints what check_reports.test checks of a `check --format json` report
(read from stdin), one fact a line."""
import json
import sys

d = json.load(sys.stdin)
print("tool", d["tool"]["name"], "version" if d["tool"]["version"] else "no-version")
print("compiler", "clang" in d["compiler"]["command"], "-fopenmp" in d["compiler"]["flags"])
print("devices", sorted(x["target"] for x in d["devices"]))
print("timings", sorted(k for k, v in d["timings_s"].items() if isinstance(v, float)))
print("summary", json.dumps(d["summary"], sort_keys=True))
for r in d["results"]:
    print("result", r["kernel"], r["case"], r["target"], r["status"], r["max_abs_err"] is None)
    for f in r["failures"]:
        print("failure", f["buffer"], f["index"], f["kind"], f["count"], f["elements"], f["compare"], f["atol"],
              f["rtol"], f["first"]["index"], f["first"]["got"] == sorted(f["first"]["got"]),
              f["first"]["expected"][0] - f["first"]["got"][0])
