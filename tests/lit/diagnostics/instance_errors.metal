// An error clang finds outside any function body, in a class template's
// static member instantiated for one type argument, costs only the kernels
// that use the function instance that asked for it: `plain` uses
// first_or_zero<float> and is translated, `bad` uses first_or_zero<no_zero>.
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s
// RUN: grep -q "mslport_entry_plain" %t.cpp
// RUN: not grep -q "mslport_entry_bad" %t.cpp
#include <metal_stdlib>
using namespace metal;

struct no_zero {
  float v;
  no_zero(float x) thread : v(x) {}  // not constexpr
};

template <typename U>
struct Zero {
  // CHECK: instance_errors.metal:[[@LINE+1]]:31: warning: constexpr variable cannot have non-literal type 'const constant no_zero' [kernel 'bad' skipped]
  static constexpr constant U init = U(0);
};

template <typename U>
U first_or_zero(bool c, U v) {
  return c ? v : Zero<U>::init;
}

kernel void plain(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  o[i] = first_or_zero(i > 2, 1.5f);
}

kernel void bad(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  // CHECK: instance_errors.metal:[[@LINE+1]]:10: warning: 'first_or_zero' cannot be translated (errors above) [kernel 'bad' skipped]
  o[i] = first_or_zero(i > 2, no_zero(1.5f)).v;
}
// CHECK: instance_errors.metal: 1 kernel translated, 1 skipped
