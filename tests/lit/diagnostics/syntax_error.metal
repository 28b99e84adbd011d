// clang's own diagnostics come through with the user's file and line.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]]) {
  // CHECK: syntax_error.metal:[[@LINE+1]]:12: error: expected expression
  out[0] = ;
}
