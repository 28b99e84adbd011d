#!/bin/sh
# clang++-16 of the H100 host with the LLVM OpenMP runtime carried from the
# build machine (the host has no libomp).
D=$(cd "$(dirname "$0")" && pwd)/omp
exec clang++-16 "$@" -L"$D" -Wl,-rpath,"$D"
