// Bool vectors are supported (tests/lit/passes/bool_vectors.metal), but not
// through a template's vec<T, N> instantiated with T = bool: `vec` is an ext
// vector alias, and clang's OpenCL mode, which reads Metal for the front end,
// has no bool ext vectors. The error says so where the instance is asked for.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
template <typename T> vec<T, 2> twice(T x) { return vec<T, 2>(x, x); }
kernel void k(device float2* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  // CHECK: bool_vector.metal:[[@LINE+1]]:10: error: no matching function for call to 'twice' (vec<T, N> with T = bool, a template's, is not supported yet: write vec<bool, N> or bool2, bool3, bool4)
  o[i] = float2(twice<bool>(i > 3u)) + float2(vec<bool, 2>(true, i > 1u));
}
