// Bool vectors (bool2, bool3, bool4) are not supported yet: a declaration of
// one is refused by name where it is, not with clang's "unknown type name".
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: bool_vector.metal:[[@LINE+1]]:35: error: bool vector type 'bool4' is not supported yet
kernel void k(device const bool4* m [[buffer(0)]], device float* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  // CHECK: bool_vector.metal:[[@LINE+1]]:9: error: bool vector type 'bool2' is not supported yet
  bool2 b;
  o[i] = 1.0f;
}
