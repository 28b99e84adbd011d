// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: unknown_attribute.metal:[[@LINE+2]]:35: error: unknown attribute 'bufer' on kernel parameter
// CHECK-NEXT: kernel void k(device float* out {{\[\[}}bufer(0)]]) {
kernel void k(device float* out [[bufer(0)]]) {
  out[0] = 1.0f;
}
