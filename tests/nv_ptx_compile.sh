#!/bin/sh
# The NVIDIA path of every committed OpenCL target compiles to PTX: clang's
# OpenCL front end and NVPTX back end stand in for NVIDIA's driver compiler
# (which only the GPU machine has). With -DMSLPORT_NV_SHFL, every file whose
# prelude has the warp-shuffle path must contain shfl.sync / vote.sync in its
# PTX; without it, none may. Likewise for the L2 prefetch hints.
# usage: nv_ptx_compile.sh CLANG TARGETS_DIR WORK_DIR
set -eu
clang=$1 targets=$2 work=$3
mkdir -p "$work"
n=0
npf=0
for cl in "$targets"/opencl/*.cl; do
  stem=$(basename "$cl" .cl)
  for mode in nv plain; do
    def=""
    [ $mode = nv ] && def="-DMSLPORT_NV_SHFL"
    "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -finclude-default-header -O2 $def \
      -S -o "$work/$stem.$mode.ptx" "$cl" || { echo "FAIL: $cl does not compile ($mode)"; exit 1; }
    shfl=$(grep -c -E 'shfl\.sync|vote\.sync' "$work/$stem.$mode.ptx" || true)
    # The L2 prefetch hints (raise/prefetch_strided_loads.cc): PTX prefetches on
    # the NVIDIA path, nothing without it.
    pf=$(grep -c 'prefetch\.global\.L2' "$work/$stem.$mode.ptx" || true)
    if grep -q 'mslport_prefetch_l2(&' "$cl" && [ $mode = nv ]; then
      [ "$pf" -gt 0 ] || { echo "FAIL: $stem has prefetch hints but its NVIDIA PTX has no prefetch"; exit 1; }
      npf=$((npf + 1))
    else
      [ "$pf" -eq 0 ] || { echo "FAIL: $stem ($mode) has PTX prefetches it should not"; exit 1; }
    fi
    if grep -q 'bool mslport_nv_warps' "$cl" && [ $mode = nv ]; then
      [ "$shfl" -gt 0 ] || { echo "FAIL: $stem has the NVIDIA path but its PTX has no warp shuffle"; exit 1; }
      n=$((n + 1))
    else
      [ "$shfl" -eq 0 ] || { echo "FAIL: $stem ($mode) has warp shuffles it should not"; exit 1; }
    fi
  done
done
[ $n -gt 0 ] || { echo "FAIL: no target has the NVIDIA path"; exit 1; }
[ $npf -gt 0 ] || { echo "FAIL: no target has prefetch hints"; exit 1; }
echo "$n targets compile with warp shuffles, $npf with L2 prefetches"
