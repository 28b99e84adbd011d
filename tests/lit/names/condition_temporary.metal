// A condition the work-items must agree on (it guards a barrier and reads
// memory) is evaluated per work-item into a temporary of the emitted code;
// a kernel value recomputed in the same loop under the temporary's name
// must not clash with it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mslport translate %s --target openmp -o %t/agree.cpp
// RUN: %cxx -std=c++17 -fopenmp -fsyntax-only -I %runtime-include %t/agree.cpp
// RUN: FileCheck %s < %t/agree.cpp
#include <metal_stdlib>
using namespace metal;

// CHECK: uint32_t v = (group * 4u) + (tid / 64u);
// CHECK-NEXT: const bool mslport_v = flags[v / 4u] != 0u;
kernel void agree(device const uint* flags [[buffer(0)]], device float* out [[buffer(1)]],
                  threadgroup float* sh [[threadgroup(0)]], uint tid [[thread_index_in_threadgroup]],
                  uint group [[threadgroup_position_in_grid]]) {
  uint v = group * 4u + tid / 64u;
  if (flags[v / 4u] != 0u) {
    sh[tid] = 1.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[group * 256u + tid] = sh[255u - tid];
  }
}
