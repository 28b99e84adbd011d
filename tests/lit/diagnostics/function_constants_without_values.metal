// Function constants without a value at translation. An optional one (is
// is_function_constant_defined names it) has none: a condition that reads
// it is no decided branch (it once folded as if the value were 0), and the
// kernel is skipped there. A required one is set by the host at dispatch,
// unless it is a vector or a use needs its value while compiling.
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not="internal error"
// RUN: %mslport translate %s --target opencl -o %t.cl 2>&1 | FileCheck %s --implicit-check-not="internal error"
#include <metal_stdlib>
using namespace metal;
constant int op [[function_constant(0)]];
constant bool has_op = is_function_constant_defined(op);
constant uint rows [[function_constant(1)]];
constant float2 scale2 [[function_constant(2)]];

kernel void reads_optional(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  if (op == 1) o[i] = 2.0f;
  // CHECK: function_constants_without_values.metal:[[@LINE-1]]:7: warning: function constant 'op' {{\[\[}}function_constant(0)]] has no value here: give one with --function-constant op=VALUE (or "function_constants" in the golden case) [kernel 'reads_optional' skipped]
}
kernel void guards_optional(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  if (has_op && op == 1) o[i] = 2.0f;
  o[i] += is_function_constant_defined(op) ? float(op) : -1.0f;
}
kernel void bound_by_required(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[rows];
  // CHECK: function_constants_without_values.metal:[[@LINE-1]]:11: warning: array size is not a constant expression ('rows' is a function constant the host sets at dispatch, with no value while compiling: give it one with --function-constant rows=VALUE) [kernel 'bound_by_required' skipped]
  a[0] = 1.0f;
  o[i] = a[0];
}
kernel void vector_required(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = scale2.x; }
// CHECK: function_constants_without_values.metal:13:{{[0-9]+}}: warning: function constant 'scale2' has no value, and only a scalar one can be set by the host at dispatch: give it one with --function-constant scale2=VALUE [kernel 'vector_required' skipped]
kernel void reads_required(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = float(rows); }
// CHECK: function_constants_without_values.metal: 2 kernels translated, 3 skipped
