// A reference to an array names the array: a variable, an element of an
// array of arrays or a member (tests/front/array_references_test.cc). Any
// other referent is reported at the reference, or at the argument of a
// helper's reference-to-array parameter, in the kernel that has it, once,
// never translated by guesswork.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
// RUN: not %mslport translate %s --target opencl 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// Either of two arrays: an lvalue in C++, which no expression of the IR names.
kernel void either_local(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[2] = {1.0f, 2.0f}, b[2] = {3.0f, 4.0f};
  // CHECK: array_references.metal:[[@LINE+1]]:18: error: reference 'r' to an array bound to 'i > 2 ? a : b' is not supported yet: only to an array variable, an element of an array of arrays or a member
  thread float (&r)[2] = i > 2 ? a : b;
  // The uses of r are not reported again.
  // CHECK-NOT: variable 'r'
  r[0] = 5.0f;
  o[i] = r[1];
}

float first(thread float (&values)[2]) { return values[0]; }

kernel void either_argument(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[2] = {1.0f, 2.0f}, b[2] = {3.0f, 4.0f};
  // CHECK: array_references.metal:[[@LINE+1]]:16: error: the array given to reference parameter 'values' of 'first' is not supported yet: only an array variable, an element of an array of arrays or a member
  o[i] = first(i > 2 ? a : b);
}
// CHECK: array_references.metal: error: no kernel of this file can be translated
