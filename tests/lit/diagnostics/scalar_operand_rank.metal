// A scalar beside a vector converts to the vector's element type as Metal
// does (half4 * float is a half4); a float beside an integer vector is no
// implicit conversion in Metal either, and clang's diagnostic stands where
// it is written.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device half4* h [[buffer(0)]], device int4* o [[buffer(1)]], constant float& s [[buffer(2)]],
              uint i [[thread_position_in_grid]]) {
  h[i] = h[i] * s;
  // CHECK-NOT: scalar_operand_rank.metal:[[@LINE-1]]
  // CHECK: scalar_operand_rank.metal:[[@LINE+1]]:15: error: scalar operand type has greater rank than the type of the vector element. ('int4' (vector of 4 'int' values) and 'float')
  o[i] = o[i] * s;
}
