#!/bin/sh
# Every emitted C++/OpenMP header (targets/openmp/*.h) compiles in a host
# that has only mslport/host.h: as C99 (the C entry points) and as C++11
# (the typed API too), without OpenMP; and none pulls in the runtime's
# internals (mslport/openmp_rt.h).
# usage: emitted_headers.sh CC CXX INCLUDE_DIR TARGETS_DIR WORK_DIR
set -eu
cc=$1 cxx=$2 inc=$3 targets=$4 work=$5
mkdir -p "$work"
n=0
for h in "$targets"/openmp/*.h; do
  tu="$work/$(basename "$h" .h).c"
  printf '#include "%s"\n#ifdef MSLPORT_OPENMP_RT_H\n#error "%s pulls in openmp_rt.h"\n#endif\nint main(void) { return 0; }\n' \
    "$h" "$h" > "$tu"
  "$cc" -std=c99 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only -I "$inc" "$tu" ||
    { echo "FAIL: $h as C99"; exit 1; }
  "$cxx" -std=c++11 -Wall -Wextra -Werror -fsyntax-only -I "$inc" -x c++ "$tu" ||
    { echo "FAIL: $h as C++11"; exit 1; }
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "FAIL: no header under $targets/openmp"; exit 1; }
echo "PASS: $n headers compile as C99 and C++11 with mslport/host.h alone"
