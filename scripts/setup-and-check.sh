#!/usr/bin/env bash
# The main job: install dependencies, build, translate every kernel and check
# it against its golden cases on both targets (C++/OpenMP and OpenCL/PoCL).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
CORPUS=../shared/corpus
status=0
echo "== mslport check: the user's corpus (all 70 kernels) =="
# golden/ holds the cases of metal_src/ too: those of kernels the corpus lacks are skipped.
./build/tool/mslport check --no-project --target all --src "$CORPUS" --golden golden --Werror \
  --allow-other-cases || status=1
echo "== mslport check: metal_src/ =="
# mslport.toml names metal_src/, its include directory and define, and --Werror;
# the corpus's cases of kernels metal_src/ lacks are skipped.
./build/tool/mslport check --target all --allow-other-cases || status=1
exit $status
