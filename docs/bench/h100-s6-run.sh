#!/usr/bin/env bash
# Device run (session 6): `check` = golden cases on NVIDIA's OpenCL and on 16-core OpenMP;
# `bench` = the bench on every backend (OpenMP roof: the best of four triad forms since session 6).
# Replaces session 5's h100-s5-full-run.sh (git history keeps it; it also ran --nvidia-shfl both).
# Runs from a folder (here: .devrun/ at the repository root, carried to the device) holding:
#   mslport-run (build/tool, stripped), include/ (lib/runtime/include), clang16-omp
#   (docs/bench/h100-clang16-omp.sh) with omp/libomp.so{,.5} (LLVM 19's libomp copied,
#   no symlinks), golden/ (the golden cases under 700 KB), targets/ (the committed
#   targets/), corpus-targets/ (`mslport regen ../shared/corpus --targets ...`).
set -u
cd "$(dirname "$0")"
R=$PWD
mkdir -p /etc/OpenCL/vendors $OUT/r
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export MSLPORT_INCLUDE_DIR=$R/include MSLPORT_CXX=$R/clang16-omp
MR=$R/mslport-run
O=$OUT/r
pack() { tar czf $OUT/results.tgz -C $OUT r; }
case "${1:-check}" in
check)
  { nvidia-smi -L; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; clang++-16 --version | head -1; clinfo -l; } > $O/env.txt 2>&1
  chk() { local n=$1 t=$2; shift 2
    timeout $t $MR "$@" --golden $R/golden --format json --work-dir /tmp/w-$n > $O/$n.json 2> $O/$n.err
    echo "$n rc=$? at $SECONDS s" >> $O/summary.txt; }
  chk nv_corpus 300 --targets $R/corpus-targets --target opencl --platform nvidia &
  chk nv_metal_src 300 --targets $R/targets --target opencl --platform nvidia &
  chk omp_corpus 300 --targets $R/corpus-targets --target openmp &
  chk omp_metal_src 300 --targets $R/targets --target openmp &
  wait ;;
bench)
  timeout 560 $MR bench --targets $R/corpus-targets --target all --format json \
    --work-dir /tmp/wb > $O/bench_h100.json 2> $O/bench_h100.err
  echo "bench16 rc=$? at $SECONDS s" >> $O/summary.txt ;;
esac
pack
cat $O/summary.txt
