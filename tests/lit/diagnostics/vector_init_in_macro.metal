// A short vector list written in a macro body is not completed with zeros
// (one body may serve lists of several lengths): clang's error stands, at the
// macro's use, and the kernel is skipped; a list written out is completed.
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
#define ZERO4 {0.f}
kernel void written(device float4* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { float4 v = {1.f}; o[i] = v; }
// CHECK: vector_init_in_macro.metal:[[@LINE+1]]:{{[0-9]+}}: warning: too few elements in vector initialization (expected 4 elements, have 1) [kernel 'in_macro' skipped]
kernel void in_macro(device float4* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { float4 v = ZERO4; o[i] = v; }
// CHECK: vector_init_in_macro.metal: 1 kernel translated, 1 skipped
