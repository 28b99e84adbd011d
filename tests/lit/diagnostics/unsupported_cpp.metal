// C++ that Metal does not have is reported at the construct, by name.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: unsupported_cpp.metal:[[@LINE+1]]:12: error: virtual functions are not supported in Metal
struct S { virtual float f() const { return 1.0f; } };
float g(float x) { return x; }
kernel void k(device float* o [[buffer(0)]]) {
  // CHECK: unsupported_cpp.metal:[[@LINE+1]]:10: error: pointers to functions are not allowed
  float (*p)(float) = g;
  // CHECK: unsupported_cpp.metal:[[@LINE+1]]:3: error: cannot use 'throw' with exceptions disabled
  throw 1;
  // CHECK: unsupported_cpp.metal:[[@LINE+1]]:3: error: cannot use 'try' with exceptions disabled
  try { o[0] = 1.0f; } catch (...) {}
}
