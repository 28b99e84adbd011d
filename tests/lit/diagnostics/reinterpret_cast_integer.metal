// reinterpret_cast works between pointers, to references and between values
// of one size; a pointer to or from an integer has no form on the targets
// and is refused where it is written.
// RUN: not %mslport translate %s --target opencl 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device const float* in [[buffer(0)]], device ulong* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  device const float4* ok = reinterpret_cast<device const float4*>(in);
  // CHECK: reinterpret_cast_integer.metal:[[@LINE+1]]:10: error: reinterpret_cast between a pointer and 'ulong'
  o[i] = reinterpret_cast<ulong>(ok) + 1;
}
