// An explicit cast between half and bfloat converts through float, as Metal
// does; an implicit conversion is none in Metal either (half and bfloat do
// not mix), and clang's diagnostic stands where it is written.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device half* h [[buffer(0)]], device bfloat* b [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  b[i] = static_cast<bfloat>(h[i]) + bfloat(h[i]);
  // CHECK-NOT: half_bfloat_implicit.metal:[[@LINE-1]]
  // CHECK: half_bfloat_implicit.metal:[[@LINE+1]]:10: error: cannot initialize a variable of type 'bfloat' (aka 'bfloat') with an lvalue of type 'device half'
  bfloat c = h[i];
  b[i] = c;
}
