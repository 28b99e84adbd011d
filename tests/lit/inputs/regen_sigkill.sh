#!/usr/bin/env bash
# Usage: regen_sigkill.sh MSLPORT WORKDIR (WORKDIR/src, WORKDIR/ref exist).
set -u
mslport=$1; t=$2
for delay in 0.01 0.03 0.06 0.1 0.15 0.2 0.3; do
  rm -rf "$t/targets"
  # "Old" targets: every file present with stale content.
  (cd "$t/ref" && find . -type f ! -name '.regen-stamps' -print0) | while IFS= read -r -d '' f; do
    mkdir -p "$t/targets/$(dirname "$f")"; echo "old $f" > "$t/targets/$f"; done
  timeout -s KILL "$delay" "$mslport" regen "$t/src" -I "$t/src/include" -D MSLPORT_FEATURE_BIAS=0.25f --targets "$t/targets" 2>/dev/null
  while IFS= read -r -d '' f; do
    cur="$t/targets/$f"
    if ! cmp -s "$cur" "$t/ref/$f" && [ "$(cat "$cur")" != "old $f" ]; then
      echo "after SIGKILL at ${delay}s: $f is neither old nor fully regenerated"; exit 1
    fi
  done < <(cd "$t/ref" && find . -type f ! -name '.regen-stamps' -print0)
done
echo "all files old or new after each SIGKILL"
