#!/bin/sh
# `cpack -G DEB` builds the Debian package; its control fields and contents
# are what a user needs, and unpacked anywhere (not installed), its mslport
# finds its headers and Metal shims under the unpacked usr/ and translates.
# usage: deb_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cpack -G DEB -B "$work" --config "$build/CPackConfig.cmake" > "$work/cpack.log" 2>&1 || {
  cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/mslport_*.deb)
dpkg-deb -f "$deb" Package Version Depends > "$work/control"
cat "$work/control"
grep -q '^Package: mslport$' "$work/control" || { echo "FAIL: package name"; exit 1; }
grep -q '^Depends: .*libclang' "$work/control" || { echo "FAIL: no libclang in Depends"; exit 1; }
grep -q '^Depends: .*\(clang-19\|g++\)' "$work/control" || { echo "FAIL: no compiler in Depends"; exit 1; }
dpkg-deb -c "$deb" > "$work/contents"
for f in ./usr/bin/mslport ./usr/bin/mslport-run ./usr/include/mslport/host.h ./usr/include/mslport/openmp_rt.h \
         ./usr/share/mslport/metal_include/metal_stdlib ./usr/share/mslport/python/mslport_golden/__init__.py \
         ./usr/share/man/man1/mslport.1 \
         ./usr/lib/cmake/mslport/mslportConfig.cmake ./usr/lib/cmake/mslport/mslportTranslate.cmake; do
  grep -q " $f\$" "$work/contents" || { echo "FAIL: $f is not in the package"; exit 1; }
done
dpkg-deb -x "$deb" "$work/root"
root="$work/root/usr"
[ "$("$root/bin/mslport" --include-dir)" = "$root/include" ] || { echo "FAIL: --include-dir"; exit 1; }
mkdir -p "$work/out"
"$root/bin/mslport" translate "$src/examples/host/kernels/vector_ops.metal" --target openmp -o "$work/out/vector_ops.cpp" --Werror
grep -q 'mslport_entry_row_softmax' "$work/out/vector_ops.h" || { echo "FAIL: translation"; exit 1; }
echo "PASS: $(basename "$deb")"
