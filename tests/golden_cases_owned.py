"""Every golden case is of a kernel of metal_src/ or of the corpus.

golden/ holds the cases of both; check_metal_src and check_corpus each skip
the cases of kernels only the other has (--allow-other-cases). This proves
that together they leave none out: a case of a kernel that neither defines
(a typo, a renamed or removed kernel) fails here.

    golden_cases_owned.py MSLPORT REPO CORPUS
"""
import glob
import json
import os
import subprocess
import sys
import tomllib

mslport, repo, corpus = sys.argv[1:4]
with open(os.path.join(repo, "mslport.toml"), "rb") as f:
    project = tomllib.load(f)
flags = []
for d in project.get("include_dirs", []):
    flags += ["-I", os.path.join(repo, d)]
for d in project.get("defines", []):
    flags += ["-D", d]

sources = sorted(glob.glob(os.path.join(repo, "metal_src", "**", "*.metal"), recursive=True))
sources += sorted(glob.glob(os.path.join(corpus, "*.metal")))
if not sources:
    sys.exit("no sources found")
kernels = set()
for src in sources:
    # `mslport ir` prints each kernel's IR, headed by "kernel NAME".
    out = subprocess.run([mslport, "--no-project", "ir", src] + flags, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s: mslport ir failed:\n%s" % (src, out.stderr))
    kernels.update(line.split()[1] for line in out.stdout.splitlines() if line.startswith("kernel "))

orphans = []
cases = sorted(glob.glob(os.path.join(repo, "golden", "*", "*", "case.json")))
for case in cases:
    with open(case) as f:
        kernel = json.load(f)["kernel"]
    if kernel not in kernels:
        orphans.append("%s: kernel '%s' is in neither metal_src/ nor the corpus" % (os.path.relpath(case, repo), kernel))
for line in orphans:
    print(line)
print("%d golden cases, %d kernels in %d sources, %d cases of no kernel" %
      (len(cases), len(kernels), len(sources), len(orphans)))
sys.exit(1 if orphans or not cases else 0)
