// An error clang finds only in a template's instance is the reason the
// kernel that needs it is skipped (not "a call without a definition").
// RUN: %mslport translate %s --target openmp -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not="without a definition"
#include <metal_stdlib>
using namespace metal;
template <typename T> float first(T v) { return v.x; }
kernel void good(device float2* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i].x = first(o[i]); }
// CHECK: template_instance_error.metal:[[@LINE-2]]:{{[0-9]+}}: warning: {{.*}}[kernel 'bad' skipped]
// CHECK: template_instance_error.metal:[[@LINE+1]]:{{[0-9]+}}: warning: 'first' cannot be translated (errors above) [kernel 'bad' skipped]
kernel void bad(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = first(o[i]); }
// CHECK: template_instance_error.metal: 1 kernel translated, 1 skipped
