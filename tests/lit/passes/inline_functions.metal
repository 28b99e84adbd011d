// inline_functions: the first step of both pipelines. A helper's body takes
// the call's place, in a block that names it; a return in tail position is
// an assignment of the result; the helper's locals become the kernel's.
// RUN: %mslport ir %s --target openmp --print-before=inline_functions --print-after=inline_functions --verify-each | FileCheck %s
// RUN: %mslport ir %s --target opencl --print-after=inline_functions --verify-each | FileCheck --check-prefix=AFTER %s
#include <metal_stdlib>
using namespace metal;

float clamp_positive(float v) {
  float r = v;
  if (r < 0.0f) return 0.0f;
  return r;
}

// CHECK-LABEL: IR before inline_functions
// CHECK: out[i] = call clamp_positive(out[i]) * 2.0f
// CHECK-LABEL: IR after inline_functions
// AFTER-LABEL: IR after inline_functions
// AFTER: %clamp_positive_result: float
// AFTER-NEXT: {  // inlined: clamp_positive
// AFTER-NEXT: %v: float = out[i]
// AFTER-NEXT: %r: float = v
// AFTER-NEXT: if (r < 0.0f) {
// AFTER-NEXT: clamp_positive_result = 0.0f
// AFTER-NEXT: } else {
// AFTER-NEXT: clamp_positive_result = r
// AFTER: out[i] = clamp_positive_result * 2.0f
kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  out[i] = clamp_positive(out[i]) * 2.0f;
}
