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
./build/tool/mslport check --target all --src "$CORPUS" --Werror || status=1
echo "== mslport check: metal_src/ =="
./build/tool/mslport check --target all --src metal_src -I metal_src/include -D MSLPORT_FEATURE_BIAS=0.25f \
  --Werror || status=1
exit $status
