#!/usr/bin/env bash
# Device run (session 4, last): golden checks on NVIDIA's OpenCL, then the bench on every backend.
# Runs from a folder (here: .devrun/ at the repository root, carried to the device) holding:
#   mslport-run (build/tool, stripped), include/ (lib/runtime/include), clang16-omp
#   (docs/bench/h100-clang16-omp.sh) with omp/libomp.so{,.5} (LLVM 19's libomp copied,
#   no symlinks), golden/ (the golden cases under 700 KB), targets/ (the committed
#   targets/), corpus-targets/ (`mslport regen ../shared/corpus --targets ...`).
# The 2-thread OpenMP bench and the 16-core OpenMP golden checks were run the same way
# (`OMP_NUM_THREADS=2 mslport-run bench --target openmp`, `mslport-run --target openmp`).
set -u
cd "$(dirname "$0")"
R=$PWD
mkdir -p /etc/OpenCL/vendors $OUT/r
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export MSLPORT_INCLUDE_DIR=$R/include MSLPORT_CXX=$R/clang16-omp
MR=$R/mslport-run
O=$OUT/r
pack() { tar czf $OUT/results.tgz -C $OUT r; }
{ nvidia-smi -L; nproc; clang++-16 --version | head -1; clinfo -l; } > $O/env.txt 2>&1
chk() { local n=$1 t=$2; shift 2
  timeout $t $MR "$@" --golden $R/golden --format json --work-dir /tmp/w-$n > $O/$n.json 2> $O/$n.err
  echo "$n rc=$? at $SECONDS s" >> $O/summary.txt; }
chk nv_corpus 150 --targets $R/corpus-targets --target opencl --platform nvidia &
chk nv_metal_src 150 --targets $R/targets --target opencl --platform nvidia &
wait; pack
timeout 300 $MR bench --targets $R/corpus-targets --target all --nvidia-shfl both --format json \
  --work-dir /tmp/wb > $O/bench_h100.json 2> $O/bench_h100.err
echo "bench16 rc=$? at $SECONDS s" >> $O/summary.txt; pack
cat $O/summary.txt
