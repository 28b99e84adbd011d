// A brace list passed for a vector parameter initialises it as Metal does;
// where overloads take two vector types the call is ambiguous in Metal too,
// and clang's diagnostic stands at the call.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
uint sum3(uint3 v) { return v.x + v.y + v.z; }
uint g(uint2 v) { return v.x; }
uint g(float2 v) { return 1; }
kernel void k(device uint* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  o[i] = sum3({i, 1u, 2u});
  // CHECK-NOT: vector_argument_overloads.metal:[[@LINE-1]]
  // CHECK: vector_argument_overloads.metal:[[@LINE+1]]:11: error: no matching function for call to 'g'
  o[i] += g({i, i});
}
