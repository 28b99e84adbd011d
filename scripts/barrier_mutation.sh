#!/usr/bin/env bash
# Removes each threadgroup_barrier of metal_src/ in turn and checks whether
# `mslport check --sanitize race,bounds,init,divergence` notices (a sanitizer finding or
# a golden mismatch). Prints one line per barrier and a summary.
#   bash scripts/barrier_mutation.sh [build/tool/mslport]
set -u
cd "$(dirname "$0")/.."
mslport=${1:-build/tool/mslport}
work=$(mktemp -d)
total=0; by_sanitizer=0; by_golden=0; missed=0
for f in $(find metal_src -name '*.metal' | sort); do
  lines=$(grep -n 'threadgroup_barrier(' "$f" | grep -v '^[0-9]*:[[:space:]]*//' | cut -d: -f1)
  for n in $lines; do
    total=$((total + 1))
    d="$work/m$total"; mkdir -p "$d"
    sed "${n}s/threadgroup_barrier([^)]*)[[:space:]]*;/\/* barrier removed *\//" "$f" > "$d/$(basename "$f")"
    out=$("$mslport" check --allow-other-cases --target openmp --sanitize race,bounds,init,divergence --src "$d/$(basename "$f")" \
          --work-dir "$work/w" 2>&1)
    findings=$(printf '%s\n' "$out" | grep -c 'warning: ')
    failed=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' | tail -1)
    if [ "$findings" -gt 0 ]; then
      by_sanitizer=$((by_sanitizer + 1)); verdict="detected by the sanitizer ($findings findings, ${failed:-?} golden failures)"
    elif [ "${failed:-0}" -gt 0 ]; then
      by_golden=$((by_golden + 1)); verdict="detected by golden mismatch only (${failed} failures)"
    else
      missed=$((missed + 1)); verdict="NOT detected"
    fi
    echo "$f:$n: $verdict"
  done
done
echo "barriers removed: $total; detected by the sanitizer: $by_sanitizer; by golden mismatch only: $by_golden; not detected: $missed"
rm -rf "$work"
