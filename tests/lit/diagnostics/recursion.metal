// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: recursion.metal:[[@LINE+1]]:38: error: recursive call to 'f' in a function that returns an expression: this recursion is not supported yet
float f(float x) { return x > 0.0f ? f(x - 1.0f) : 0.0f; }
kernel void k(device float* out [[buffer(0)]]) {
  out[0] = f(3.0f);
}
