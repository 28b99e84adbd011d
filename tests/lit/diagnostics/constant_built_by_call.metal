// A program-scope constant whose value a function computes (a matrix
// constructor) is reported at the constant, not as an internal error of a
// backend; only the kernels that read it are skipped.
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not="internal error"
// RUN: %mslport translate %s --target opencl -o %t.cl 2>&1 | FileCheck %s --implicit-check-not="internal error"
#include <metal_stdlib>
using namespace metal;
constant float2x2 kRotate = float2x2(float2(0.0, 1.0), float2(-1.0, 0.0));
// CHECK: constant_built_by_call.metal:[[@LINE-1]]:{{[0-9]+}}: warning: program-scope constant 'kRotate' built by a function call (a matrix constructor, say) is not supported yet [kernel 'rotate' skipped]
kernel void rotate(device float2* v [[buffer(0)]], uint i [[thread_position_in_grid]]) { v[i] = kRotate * v[i]; }
kernel void copy(device float2* v [[buffer(0)]], uint i [[thread_position_in_grid]]) { v[i] = v[i] * 2.0f; }
// CHECK: constant_built_by_call.metal: 1 kernel translated, 1 skipped
