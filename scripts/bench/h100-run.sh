#!/usr/bin/env bash
# The recipe for runs on the lent H100 machine (16 cores, NVIDIA's OpenCL, no libclang): the kernels are
# translated on the build machine and run there with mslport-run. One mode per argument:
#   check      golden cases on NVIDIA's OpenCL and on 16-core OpenMP (the corpus through the non-temporal copies)
#   bench N [R] the bench on every backend, R rounds (5), each backend in a process of its own (run N),
#              with the host, its steal time and cpuprobe (h100-cpuprobe.c, built as .devrun/cpuprobe) beside
#   ompalways  the bench on 16-core OpenMP with every non-temporal copy taken (MSLPORT_STREAM_STORES=always)
#   stream     the kernels with non-temporal copies, never vs always, alternating
#   scale      OpenMP alone on 2 and on 16 threads, alternating
#   ab, aball  OpenMP on 16 cores, an earlier emitted corpus (.devrun/ct-old) vs corpus-targets, alternating
#   abrt       the same with each side's own runtime headers (ct-old with include-old, ct-new with include),
#              old first; then the memory-bound kernels new first (the slot inside a round matters there)
#   probe      the mat-vecs as emitted, with -cl-nv-maxrregcount=32, and at 4x the rows (mslport-run-big, a build
#              whose mat-vec cases took 4x out_dim from MSLPORT_EXP_ROWS_X)
#   evprobe    h100-evprobe.c (built as .devrun/evprobe): where a short launch's time goes
#   nib        h100-matvec-variants.py's variants of the 4-bit mat-vec under .devrun/var/
#   pf         prefetch distance and float hints (.devrun/include-old = the runtime header before the change,
#              .devrun/ct-f32 = a corpus with float hints)
#   poclaff    PoCL alone on the LM-head mat-vecs, fresh processes of three rounds each, plain vs
#              POCL_AFFINITY=1 (each pthread worker pinned to the CPU of its index), alternating; the
#              CPU each thread last ran on sampled every half second, steal time before and after
#   sass       ptxas + cuobjdump there (.devrun/cldump, built from h100-cldump.c, builds a .cl and writes its PTX)
# Runs from a folder (here: .devrun/ at the repository root, carried to the device) holding:
#   mslport-run (build/tool, stripped), include/ (lib/runtime/include), clang16-omp
#   (scripts/bench/h100-clang16-omp.sh) with omp/libomp.so{,.5} (LLVM 19's libomp copied,
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
  # One full run (the second argument labels it: `bench 1`, `bench 2`; the third gives the
  # rounds, five by default), each backend in a process of its own in each round
  # (docs/performance.md, "How to measure"). Five took 350-420 s; seven once ran past the
  # limit. Beside it, what could move its times without the bench: the host's identity and
  # load, the steal time of /proc/stat, and cpuprobe (h100-cpuprobe.c, the cores' speed
  # apart from memory) before and after.
  n=${2:-1}
  { echo "hostname: $(hostname)"; echo "boot_id: $(cat /proc/sys/kernel/random/boot_id)"
    grep -m1 'model name' /proc/cpuinfo; echo "nproc: $(nproc)"
    nvidia-smi --query-gpu=name,uuid --format=csv,noheader; echo "loadavg: $(cat /proc/loadavg)"
    echo "uptime_s: $(cut -d' ' -f1 /proc/uptime)"; } > $O/host_$n.txt 2>&1
  ticks() { awk -v w="$1" '/^cpu /{print w, "user", $2, "system", $4, "idle", $5, "steal", $9}' /proc/stat; }
  { ticks before; $R/cpuprobe before; } >> $O/host_$n.txt 2>&1
  timeout 560 $MR bench --targets $R/corpus-targets --target all --rounds ${3:-5} --format json \
    --work-dir /tmp/wb > $O/bench_h100_$n.json 2> $O/bench_h100_$n.err
  echo "bench16 $n rc=$? at $SECONDS s" >> $O/summary.txt
  { ticks after; $R/cpuprobe after; echo "loadavg after: $(cat /proc/loadavg)"; } >> $O/host_$n.txt 2>&1
  cat $O/host_$n.txt ;;
poclaff)
  # Does PoCL's time of the compute-bound mat-vecs move with its threads' placement?
  { echo "boot_id: $(cat /proc/sys/kernel/random/boot_id) uptime_s: $(cut -d' ' -f1 /proc/uptime)"
    clinfo | grep -i -E "platform version|device version|driver version|max compute units"
    cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; lscpu; } > $O/env.txt 2>&1
  steal() { awk '/^cpu /{print "steal", $9, "user", $2}' /proc/stat; }
  for rep in 1 2 3; do for v in plain aff; do
    if [ $v = aff ]; then export POCL_AFFINITY=1; else unset POCL_AFFINITY; fi
    echo "$v $rep start $(steal) at $SECONDS s" >> $O/summary.txt
    timeout 90 $MR bench --targets $R/corpus-targets --target opencl --platform pocl --rounds 3 --repeats 12 \
      --kernel dequant_matvec_4bit_v3 dequant_matvec_8bit_v3 --format json --work-dir /tmp/wpa \
      > $O/poclaff_${v}_$rep.json 2> $O/poclaff_${v}_$rep.err &
    pid=$!
    while kill -0 $pid 2>/dev/null; do
      # threads per CPU (count@cpu) of the bench under timeout
      echo "$SECONDS $(ps -L -o psr= --ppid $pid 2>/dev/null | sort -n | uniq -c | awk '{printf "%s@%s ", $1, $2}')"
      sleep 0.5
    done > $O/poclaff_${v}_$rep.psr
    wait $pid
    echo "$v $rep rc=$? end $(steal) at $SECONDS s" >> $O/summary.txt
  done; done
  unset POCL_AFFINITY ;;
scale)
  # OpenMP alone on 2 threads and on all 16, alternating, two rounds (the scaling).
  for round in 1 2; do for t in 2 16; do
    OMP_NUM_THREADS=$t timeout 140 $MR bench --targets $R/corpus-targets --target openmp --format json \
      --work-dir /tmp/wsc > $O/scale_${t}_$round.json 2> $O/scale_${t}_$round.err
    echo "scale $t $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done ;;
aball)
  # Every OpenMP bench kernel on 16 cores: an earlier emitted corpus (ct-old) and the
  # current one, alternating, two rounds.
  for round in 1 2; do for t in ct-old corpus-targets; do
    timeout 200 $MR bench --targets $R/$t --target openmp --format json --work-dir /tmp/wall-$t \
      > $O/aball_${t}_$round.json 2> $O/aball_${t}_$round.err
    echo "aball $t $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done ;;
abrt)
  export MSLPORT_CXX=$R/clang16-omp
  K="moe_combine_residual residual_add rms_norm_apply silu_mul_stacked_f32 swiglu_fused weighted_sum_residual_stacked_f32 weighted_sum_stacked_f32 fused_norm_add_f32"
  for order in "old new" "new old"; do for round in 1 2; do for v in $order; do
    if [ $v = old ]; then inc=$R/include-old; t=$R/ct-old; else inc=$R/include; t=$R/ct-new; fi
    tag=ab22; sel=""
    if [ "$order" = "new old" ]; then tag=ab22r; sel="--kernel $K"; fi
    MSLPORT_INCLUDE_DIR=$inc timeout 140 $MR bench --targets $t --target openmp --rounds 1 --format json $sel \
      --work-dir /tmp/w22-$v > $O/${tag}_${v}_$round.json 2> $O/${tag}_${v}_$round.err
    echo "$tag $v $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done; done ;;
ab)
  # OpenMP on 16 cores: the corpus's mat-vecs emitted before a change (ct-old) and after it,
  # alternating, two rounds.
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
probe)
  $R/cldump $R/corpus-targets/opencl/moe_quant_shaders.cl "-cl-std=CL1.2 -DMSLPORT_NV_SHFL -cl-nv-verbose" $O/mq.ptx > $O/mq-log.txt 2>&1
  $R/cldump $R/corpus-targets/opencl/moe_quant_shaders.cl "-cl-std=CL1.2 -DMSLPORT_NV_SHFL -cl-nv-verbose -cl-nv-maxrregcount=32" $O/mq32.ptx > $O/mq32-log.txt 2>&1
  K="dequant_matvec_4bit_v3 dequant_matvec_8bit_v3"
  for round in 1 2; do
    for v in def r32 big4; do
      case $v in def) E="";; r32) E="-cl-nv-maxrregcount=32";; esac
      if [ $v = big4 ]; then
        MSLPORT_EXP_ROWS_X=4 timeout 100 $R/mslport-run-big bench --targets $R/corpus-targets --target opencl --platform nvidia --format json --work-dir /tmp/wp-$v --kernel $K > $O/probe_${v}_$round.json 2> $O/probe_${v}_$round.err
      else
        MSLPORT_CL_OPTIONS="$E" timeout 100 $MR bench --targets $R/corpus-targets --target opencl --platform nvidia --format json --work-dir /tmp/wp-$v --kernel $K > $O/probe_${v}_$round.json 2> $O/probe_${v}_$round.err
      fi
      echo "probe $v $round rc=$? at $SECONDS s" >> $O/summary.txt
    done
  done ;;
esac
pack
cat $O/summary.txt
if [ "${1:-}" = evprobe ]; then $R/evprobe $R/corpus-targets/opencl/moe_quant_shaders.cl > $OUT/evprobe.txt 2>&1; cat $OUT/evprobe.txt; fi
if [ "${1:-}" = nib ]; then
  O=$OUT/r; mkdir -p $O
  for v in bytes uchar4 reassoc; do
    timeout 60 $MR --golden $R/golden --targets $R/var/ct-$v --target opencl --platform nvidia --kernel dequant_matvec_4bit_v3 --work-dir /tmp/wg-$v > $O/golden_$v.txt 2>&1
    echo "golden $v rc=$?" >> $O/summary.txt
  done
  for round in 1 2; do for v in corpus-targets var/ct-bytes var/ct-uchar4 var/ct-reassoc; do
    n=$(basename $v)
    timeout 100 $MR bench --targets $R/$v --target opencl --platform nvidia --format json --work-dir /tmp/wn-$n \
      --kernel dequant_matvec_4bit_v3 dequant_matvec_8bit_v3 > $O/nib_${n}_$round.json 2> $O/nib_${n}_$round.err
    echo "nib $n $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done
  if command -v cuobjdump >/dev/null; then echo has cuobjdump >> $O/summary.txt; fi
  ls /usr/local/cuda*/bin 2>/dev/null | head -30 >> $O/summary.txt
  pack; cat $O/summary.txt
fi
if [ "${1:-}" = pf ]; then
  O=$OUT/r; mkdir -p $O
  K="bf16_matvec fused_norm_add_f32 fused_residual_norm_f32 fused_moe_wsum_norm_add_f32 moe_gate"
  for round in 1 2; do for v in old new f32; do
    inc=$R/include; t=$R/corpus-targets
    [ $v = old ] && inc=$R/include-old
    [ $v = f32 ] && t=$R/ct-f32
    MSLPORT_INCLUDE_DIR=$inc timeout 150 $MR bench --targets $t --target openmp --format json --work-dir /tmp/wpf-$v \
      --kernel $K > $O/pf_${v}_$round.json 2> $O/pf_${v}_$round.err
    echo "pf $v $round rc=$? at $SECONDS s" >> $O/summary.txt
  done; done
  pack; cat $O/summary.txt
fi
if [ "${1:-}" = sass ]; then
  O=$OUT/r; mkdir -p $O
  $R/cldump $R/corpus-targets/opencl/moe_quant_shaders.cl "-cl-std=CL1.2 -DMSLPORT_NV_SHFL" $O/mq.ptx > $O/mq-log.txt 2>&1
  tr -d '\000' < $O/mq.ptx > $O/mq0.ptx
  P=$(ls -d /usr/local/cuda*/bin | head -1)
  $P/ptxas -arch=sm_90 -v $O/mq0.ptx -o $O/mq.cubin > $O/ptxas.txt 2>&1
  for k in dequant_matvec_4bit_v3 dequant_matvec_8bit_v3; do $P/cuobjdump -sass -fun $k $O/mq.cubin > $O/$k.sass 2>&1; done
  rm -f $O/mq.ptx $O/mq.cubin
  pack; ls -la $O
fi
