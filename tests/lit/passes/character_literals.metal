// A character literal is an integer of type char, as in C++ (SPIRV-Cross
// zeroes threadgroup bytes with `p[k] = '\0';`).
// RUN: %mslport ir %s | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void chars(device uchar* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    o[i] = '\0';
    o[i + 1] = 'A' + 1;
}
// CHECK: o[i] = 0:uchar
// CHECK: o[i + 1u] = cast<uchar>(65 + 1)
