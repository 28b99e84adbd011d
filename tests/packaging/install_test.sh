#!/bin/sh
# `cmake --install` into a temporary prefix (its name has a space), then a
# separate project (examples/host) finds the installed mslport with
# find_package, translates its kernels with mslport_translate() at build
# time, builds its C, C++ and OpenCL hosts and runs them. Nothing installed
# may name the build tree or the sources: the programs find their files
# relative to themselves.
# usage: install_test.sh BUILD_DIR SOURCE_DIR CXX WORK_DIR
set -eu
build=$1 src=$2 cxx=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
prefix="$work/pre fix"
cmake --install "$build" --prefix "$prefix" --strip > "$work/install.log"

for f in bin/mslport bin/mslport-run include/mslport/host.h include/mslport/kernel_abi.h include/mslport/openmp_rt.h \
         share/mslport/metal_include/metal_stdlib share/mslport/python/mslport_golden/__init__.py \
         share/mslport/plot_bench.py share/man/man1/mslport.1 lib/cmake/mslport/mslportConfig.cmake \
         lib/cmake/mslport/mslportConfigVersion.cmake lib/cmake/mslport/mslportTranslate.cmake; do
  [ -f "$prefix/$f" ] || { echo "FAIL: $f was not installed"; exit 1; }
done
if grep -rlF -e "$src" -e "$build" "$prefix"; then
  echo "FAIL: the files above name the build tree or the sources ($build, $src)"
  exit 1
fi
[ "$("$prefix/bin/mslport" --include-dir)" = "$prefix/include" ] || {
  echo "FAIL: --include-dir is $("$prefix/bin/mslport" --include-dir), not $prefix/include"; exit 1; }
[ "$("$prefix/bin/mslport" --python-dir)" = "$prefix/share/mslport/python" ] || {
  echo "FAIL: --python-dir is $("$prefix/bin/mslport" --python-dir)"; exit 1; }

# The example project sees only the prefix.
ctest --build-and-test "$src/examples/host" "$work/example" --build-generator "Unix Makefiles" \
  --build-options "-DCMAKE_PREFIX_PATH=$prefix" "-DCMAKE_CXX_COMPILER=$cxx" \
  --test-command ctest --output-on-failure
grep -qF "mslport_DIR:PATH=$prefix/lib/cmake/mslport" "$work/example/CMakeCache.txt" || {
  echo "FAIL: the example did not use the installed package:"; grep mslport_DIR "$work/example/CMakeCache.txt"; exit 1; }
echo "PASS: installed into $prefix, example built with find_package(mslport) and run"
