#!/usr/bin/env bash
# Device run (session 6; `ab` and `aball` added in session 8, `stream` in session 9; `ab` and `aball` expect .devrun/ct-old, an earlier emitted corpus): `check` = golden cases on NVIDIA's OpenCL and on 16-core OpenMP (the corpus through the non-temporal copies);
# `bench` = the bench on every backend (OpenMP roof: the best of four triad forms since session 6).
# Replaces h100-s8-run.sh and session 5's h100-s5-full-run.sh (git history keeps both; the latter also ran --nvidia-shfl both).
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
  { nvidia-smi -L; nproc; lscpu | grep -E "Model name|^CPU\(s\)|cache"; grep . /sys/devices/system/cpu/cpu0/cache/index*/size; clang++-16 --version | head -1; clinfo -l; } > $O/env.txt 2>&1
  chk() { local n=$1 t=$2; shift 2
    timeout $t $MR "$@" --golden $R/golden --format json --work-dir /tmp/w-$n > $O/$n.json 2> $O/$n.err
    echo "$n rc=$? at $SECONDS s" >> $O/summary.txt; }
  chk nv_corpus 300 --targets $R/corpus-targets --target opencl --platform nvidia &
  chk nv_metal_src 300 --targets $R/targets --target opencl --platform nvidia &
  MSLPORT_STREAM_STORES=always chk omp_corpus 300 --targets $R/corpus-targets --target openmp &
  chk omp_metal_src 300 --targets $R/targets --target openmp &
  wait ;;
bench)
  timeout 560 $MR bench --targets $R/corpus-targets --target all --format json \
    --work-dir /tmp/wb > $O/bench_h100.json 2> $O/bench_h100.err
  echo "bench16 rc=$? at $SECONDS s" >> $O/summary.txt ;;
aball)
  # Every OpenMP bench kernel on 16 cores: session 7's emitted corpus (ct-old) and this
  # session's, alternating, two rounds.
  for round in 1 2; do for t in ct-old corpus-targets; do
    timeout 200 $MR bench --targets $R/$t --target openmp --format json --work-dir /tmp/wall-$t \
      > $O/aball_${t}_$round.json 2> $O/aball_${t}_$round.err
    echo "aball $t $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done ;;
ab)
  # OpenMP on 16 cores: the corpus's mat-vecs emitted before (ct-old) and after session 8's
  # prepared divisors and SIMD-group-major loops, alternating, two rounds.
  for round in 1 2; do for t in ct-old corpus-targets; do
    timeout 120 $MR bench --targets $R/$t --target openmp --format json --work-dir /tmp/wab-$t \
      --kernel dequant_matvec_4bit_v3 dequant_matvec_8bit_v3 dequant_matvec_4bit_v4 dequant_matvec_4bit_v5 dequant_matvec_2bit \
      > $O/ab_${t}_$round.json 2> $O/ab_${t}_$round.err
    echo "ab $t $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done ;;
ompalways)
  # The whole bench on 16-core OpenMP with every non-temporal copy taken (auto takes none of
  # the bench's outputs on this host: its L3 is 300 MB).
  MSLPORT_STREAM_STORES=always timeout 300 $MR bench --targets $R/corpus-targets --target openmp --format json \
    --work-dir /tmp/wa > $O/bench_omp_always.json 2> $O/bench_omp_always.err
  echo "ompalways rc=$? at $SECONDS s" >> $O/summary.txt ;;
stream)
  # OpenMP on 16 cores, the kernels with non-temporal copies: never vs always, alternating, two rounds
  # (auto's choice on this host is in the .err files).
  K="residual_add swiglu_fused rms_norm_apply fused_norm_add_f32 silu_mul_stacked_f32 weighted_sum_stacked_f32 moe_combine_residual fused_residual_norm_f32 fused_moe_wsum_norm_add_f32"
  for round in 1 2; do for m in never always; do
    MSLPORT_STREAM_STORES=$m timeout 140 $MR bench --targets $R/corpus-targets --target openmp --format json \
      --work-dir /tmp/ws --kernel $K > $O/stream_${m}_$round.json 2> $O/stream_${m}_$round.err
    echo "stream $m $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done
  timeout 60 $MR bench --targets $R/corpus-targets --target openmp --kernel residual_add --repeats 5 \
    --work-dir /tmp/ws > /dev/null 2> $O/stream_auto.err ;;
esac
pack
cat $O/summary.txt
