// Metal names that OpenCL C reserves (a keyword, a type, a macro of OpenCL
// C, a name of the prelude) are renamed, and the translation compiles.
// REQUIRES: clang-cl
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mslport translate %s --target opencl -o %t/names.cl
// RUN: %clang-cl -fsyntax-only %t/names.cl
// RUN: FileCheck %s < %t/names.cl
#include <metal_stdlib>
using namespace metal;

// CHECK: typedef struct {
// CHECK-NEXT: uint global_;
// CHECK-NEXT: float M_PI_;
// CHECK-NEXT: } Params;
struct Params {
  uint global;
  float M_PI;
};

// CHECK: __constant uint CLK_LOCAL_MEM_FENCE_ = 3u;
constant uint CLK_LOCAL_MEM_FENCE = 3;

// CHECK: __kernel void k(
// CHECK-NEXT: __global float* NULL_,
// CHECK-NEXT: __constant const Params* p,
// CHECK-NEXT: __global float* m_mslport_grid,
// CHECK-NEXT: __global float* uchar4_,
kernel void k(device float* NULL [[buffer(0)]], constant Params& p [[buffer(1)]],
              device float* mslport_grid [[buffer(2)]], device float* uchar4 [[buffer(3)]],
              uint tid [[thread_position_in_grid]]) {
  float scaled = p.M_PI * float(p.global + CLK_LOCAL_MEM_FENCE);
  NULL[tid] = scaled;
  mslport_grid[tid] = 1.0f;
  uchar4[tid] = 2.0f;
}
