#!/usr/bin/env bash
# Device run: the prefix-guard change (n1) vs before (o1) on the H100 host's 16 cores.
# Folder (.devrun/, carried): mslport-run (stripped), include/, clang16-omp + omp/libomp.so{,.5} (as
# h100-run.sh), golden/ (the five kernels below), o1/ and n1/: `mslport translate --target openmp`
# of fused_norm_ops, moe_gate and moe_quant_shaders before (eab0ec7+7408bba) and after 172a679.
set -u
cd "$(dirname "$0")"; R=$PWD
export MSLPORT_INCLUDE_DIR=$R/include MSLPORT_CXX=$R/clang16-omp
O=$OUT/r; mkdir -p $O
{ nproc; clang++-16 --version | head -1; lscpu | grep -E "Model name|^CPU\(s\)"; } > $O/env.txt 2>&1
timeout 120 $R/mslport-run --targets $R/n1 --target openmp --golden $R/golden --work-dir /tmp/wc > $O/golden_n1.txt 2>&1
echo "golden rc=$? at $SECONDS s" >> $O/summary.txt
K="bf16_matvec fused_norm_add_f32 fused_residual_norm_f32 fused_moe_wsum_norm_add_f32 moe_gate"
for th in 16 2; do for r in 1 2 3; do for t in o1 n1; do
  OMP_NUM_THREADS=$th timeout 60 $R/mslport-run bench --targets $R/$t --kernel $K --target openmp --format json --work-dir /tmp/wb-$t > $O/bench_${th}_${t}_$r.json 2> $O/bench_${th}_${t}_$r.err
  echo "bench $th $t $r rc=$? at $SECONDS s" >> $O/summary.txt
done; done; done
tar czf $OUT/results.tgz -C $OUT r
cat $O/summary.txt
