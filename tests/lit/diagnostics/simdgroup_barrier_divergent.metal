// A simdgroup_barrier needs only its SIMD group to agree: under a condition
// or in a loop that differs between SIMD groups it translates (the feature
// kernel feat_simdgroup_barrier_divergent checks the numbers); where the
// path differs within a SIMD group, or a threadgroup_barrier sits where the
// path differs between SIMD groups, it is an error that names the barrier.
// RUN: split-file --leading-lines %s %t
// RUN: %mslport translate %t/per_simdgroup.metal --target openmp -o /dev/null
// RUN: %mslport translate %t/per_simdgroup.metal --target opencl -o /dev/null
// RUN: not %mslport translate %t/per_lane_loop.metal --target openmp 2>&1 | FileCheck %s --check-prefix=LANE-LOOP
// RUN: not %mslport translate %t/per_lane_loop.metal --target opencl 2>&1 | FileCheck %s --check-prefix=LANE-LOOP
// RUN: not %mslport translate %t/per_lane_if.metal --target opencl 2>&1 | FileCheck %s --check-prefix=LANE-IF
// RUN: not %mslport translate %t/tg_barrier_per_simdgroup.metal --target openmp 2>&1 | FileCheck %s --check-prefix=TG
// RUN: not %mslport translate %t/tg_barrier_per_simdgroup.metal --target opencl 2>&1 | FileCheck %s --check-prefix=TG

//--- per_simdgroup.metal
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]],
              ushort sg [[simdgroup_index_in_threadgroup]]) {
  threadgroup float sh[64];
  float v = float(tid);
  for (uint i = 0; i < uint(sg) + 1; ++i) {
    sh[tid] = v;
    simdgroup_barrier(mem_flags::mem_threadgroup);
    v += sh[tid ^ 1];
  }
  if (sg == 0) {
    simdgroup_barrier(mem_flags::mem_threadgroup);
  }
  out[tid] = v;
}

//--- per_lane_loop.metal
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]],
              ushort lane [[thread_index_in_simdgroup]]) {
  threadgroup float sh[64];
  // LANE-LOOP: per_lane_loop.metal:[[@LINE+3]]:5: error: simdgroup_barrier in a loop whose trip count differs between the threads of a SIMD group
  // LANE-LOOP: per_lane_loop.metal:[[@LINE+1]]:3: note: the loop
  for (uint i = 0; i < lane; ++i) {
    simdgroup_barrier(mem_flags::mem_threadgroup);
    sh[tid] = float(i);
  }
  out[tid] = sh[tid];
}

//--- per_lane_if.metal
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], ushort lane [[thread_index_in_simdgroup]]) {
  // LANE-IF: per_lane_if.metal:[[@LINE+2]]:5: error: simdgroup_barrier in divergent control flow: not every thread of the SIMD group reaches it
  if (lane < 4) {
    simdgroup_barrier(mem_flags::mem_none);
  }
  out[lane] = 1.0f;
}

//--- tg_barrier_per_simdgroup.metal
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], ushort sg [[simdgroup_index_in_threadgroup]]) {
  // TG: tg_barrier_per_simdgroup.metal:[[@LINE+2]]:5: error: threadgroup_barrier in divergent control flow: not every thread of the threadgroup reaches it
  if (sg == 0) {
    threadgroup_barrier(mem_flags::mem_none);
  }
  out[sg] = 1.0f;
}
