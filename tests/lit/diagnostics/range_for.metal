// Range-based for is translated over arrays of known size and metal::array
// (tests/front/range_for_test.cc); any other range is reported at the range,
// in the kernel that uses it, never translated by guesswork.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// A class with begin() and end() of its own: its iteration is not read.
struct Span {
  thread float* p;
  int n;
  thread float* begin() { return p; }
  thread float* end() { return p + n; }
};

kernel void over_class(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  Span s = {a, 4};
  float sum = 0.0f;
  // CHECK: range_for.metal:[[@LINE+1]]:18: error: range-based for over 'Span' is not supported yet: only over arrays of known size and metal::array (not a class's own begin() and end())
  for (float v : s) sum += v;
  o[i] = sum;
}

// A buffer has no known size: clang reports it.
kernel void over_pointer(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float sum = 0.0f;
  // CHECK: range_for.metal:[[@LINE+1]]:16: error: invalid range expression of type 'device float *__private'; no viable 'begin' function available
  for (float v : o) sum += v;
  o[i] = sum;
}

// C++20's init-statement, which libclang does not show: dropping it would
// drop its effects.
kernel void with_init(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float a[2] = {1.0f, 2.0f};
  // CHECK: range_for.metal:[[@LINE+1]]:3: error: range-based for statement with an init-statement (C++20) is not supported yet
  for (uint n = 0; float v : a) o[i + n++] = v;
}
// CHECK: range_for.metal: error: no kernel of this file can be translated
