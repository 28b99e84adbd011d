// A program-scope constant a constructor computes (a matrix here) is computed
// once at the start of each kernel that reads it, in a constant local of its
// name, before inline_functions inlines the constructor; after it, reads of
// the constant are reads of the local, and the constant leaves the module.
// A kernel that does not read it does not compute it.
// RUN: %mslport ir %s --target openmp --print-after=compute_constants_in_kernels,read_computed_constants --verify-each | FileCheck %s
// RUN: %mslport translate %s --target opencl -o %t.cl 2>&1 | FileCheck --check-prefix=CL %s
#include <metal_stdlib>
using namespace metal;
constant float2x2 kRotate = float2x2(float2(0.0, 1.0), float2(-1.0, 0.0));
kernel void rotate(device float2* v [[buffer(0)]], uint i [[thread_position_in_grid]]) { v[i] = kRotate * v[i]; }
kernel void copy(device float2* v [[buffer(0)]], uint i [[thread_position_in_grid]]) { v[i] = v[i] * 2.0f; }

// CHECK-LABEL: IR after compute_constants_in_kernels
// CHECK: kernel rotate
// CHECK: %kRotate: const matrix_float_2_2 = call matrix_float_2_2(float2(0.0f, 1.0f), float2(-1.0f, 0.0f))
// CHECK-NEXT: v[i] = call operator_mul_float_2_2(kRotate, v[i])
// CHECK: kernel copy
// CHECK-NOT: kRotate
// CHECK-LABEL: IR after read_computed_constants
// CHECK-NOT: constant kRotate
// CHECK: kernel rotate
// CHECK: %kRotate: const matrix_float_2_2 = matrix_float_2_2_result
// CHECK: %r: float2 = kRotate.columns[0] * cast<float2>(
// CL: compute_constants_in_kernels.metal: 2 kernels translated
