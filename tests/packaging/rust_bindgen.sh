#!/bin/sh
# Every emitted C++/OpenMP header (targets/openmp/*.h) binds from Rust: bindgen
# reads it as C with mslport/host.h, the bindings name each C entry point the
# header declares and the mslport_args / mslport_dispatch types, and rustc
# accepts them. (Swift's importer reads C headers with clang the same way;
# emitted_headers.sh checks they are valid C99.)
# usage: rust_bindgen.sh BINDGEN RUSTC INCLUDE_DIR TARGETS_DIR WORK_DIR
set -eu
bindgen=$1 rustc=$2 inc=$3 targets=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
n=0 entries=0
for h in "$targets"/openmp/*.h; do
  base=$(basename "$h" .h)
  rs="$work/$base.rs"
  "$bindgen" --no-layout-tests --allowlist-function "mslport_.*" --allowlist-type "mslport_.*" "$h" -o "$rs" \
    -- -x c -std=c99 -I "$inc" > "$work/$base.log" 2>&1 ||
    { cat "$work/$base.log"; echo "FAIL: bindgen $h"; exit 1; }
  for e in $(sed -n 's/^int \(mslport_entry_[A-Za-z0-9_]*\)(.*/\1/p' "$h"); do
    grep -q "pub fn $e(" "$rs" || { echo "FAIL: $rs has no binding for $e"; exit 1; }
    entries=$((entries + 1))
  done
  for t in mslport_args mslport_dispatch; do
    grep -q "pub struct $t " "$rs" || { echo "FAIL: $rs has no struct $t"; exit 1; }
  done
  # The bindings as a crate of their own: rustc type-checks them.
  "$rustc" --edition 2018 --crate-type lib --crate-name "b_$n" --emit=metadata -A warnings -o "$work/$base.rmeta" "$rs" ||
    { echo "FAIL: rustc rejects the bindings of $h"; exit 1; }
  n=$((n + 1))
done
[ "$n" -gt 0 ] && [ "$entries" -gt 0 ] || { echo "FAIL: no header or entry point under $targets/openmp"; exit 1; }
echo "PASS: $n headers, $entries C entry points bound by bindgen and accepted by rustc"
