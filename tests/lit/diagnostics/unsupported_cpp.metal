// C++ that Metal does not have is reported at the construct, by name.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
struct S { virtual float f() const { return 1.0f; } };
float g(float x) { return x; }
kernel void k1(device float* o [[buffer(0)]]) {
  S s;
  // CHECK: unsupported_cpp.metal:[[@LINE+1]]:10: error: call of virtual function 'f' is not supported yet
  o[1] = s.f();
  // CHECK: unsupported_cpp.metal:[[@LINE+1]]:11: error: pointer to function is not supported yet
  float (*p)(float) = g;
}
kernel void k2(device float* o [[buffer(0)]]) {
  // CHECK: unsupported_cpp.metal:[[@LINE+1]]:3: error: cannot use 'throw' with exceptions disabled
  throw 1;
  // CHECK: unsupported_cpp.metal:[[@LINE+1]]:3: error: cannot use 'try' with exceptions disabled
  try { o[0] = 1.0f; } catch (...) {}
}
// CHECK: unsupported_cpp.metal: error: no kernel of this file can be translated
