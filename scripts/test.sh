#!/usr/bin/env bash
# The test suite: unit tests, diagnostics tests, the golden-diff of targets/
# and the golden checks, all through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j2 "$@"
