#!/usr/bin/env bash
# Device run 5 (final main): golden checks on NVIDIA's OpenCL and on the 16
# cores (C++ built with the host's clang++-16 + carried libomp), then the
# bench on every backend with 16 threads and the OpenMP bench with 2.
set -u
cd "$(dirname "$0")/.."
R=$PWD/.devrun
mkdir -p /etc/OpenCL/vendors $OUT/r
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$R/lib:${LD_LIBRARY_PATH:-}
export MSLPORT_INCLUDE_DIR=$R/include MSLPORT_CXX=$R/clang16-omp
MR=$R/mslport-run
O=$OUT/r
{ nvidia-smi -L; nproc; clang++-16 --version | head -1; clinfo -l; } > $O/env.txt 2>&1
chk() { local n=$1; shift
  timeout 240 $MR "$@" --golden $R/golden --format json --work-dir /tmp/w-$n > $O/$n.json 2> $O/$n.err
  echo "$n rc=$?" >> $O/summary.txt; }
chk nv_corpus --targets $R/corpus-targets --target opencl --platform nvidia &
chk nv_metal_src --targets $R/targets --target opencl --platform nvidia &
chk omp16_corpus --targets $R/corpus-targets --target openmp &
wait
chk omp16_metal_src --targets $R/targets --target openmp
timeout 300 $MR bench --targets $R/corpus-targets --target all --nvidia-shfl both --format json \
  --work-dir /tmp/wb > $O/bench_h100.json 2> $O/bench_h100.err
echo "bench16 rc=$? at $SECONDS s" >> $O/summary.txt
OMP_NUM_THREADS=2 timeout 200 $MR bench --targets $R/corpus-targets --target openmp --format json \
  --work-dir /tmp/wb3 > $O/bench_omp2.json 2> $O/bench_omp2.err
echo "bench omp2 rc=$? at $SECONDS s" >> $O/summary.txt
cat $O/summary.txt
tar czf $OUT/results.tgz -C $OUT r && rm -rf $O
