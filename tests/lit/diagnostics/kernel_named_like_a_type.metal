// A kernel named after a Metal vector type is refused, by name.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: kernel_named_like_a_type.metal:[[@LINE+1]]:13: error: 'int2' is a Metal type name and cannot name a kernel
kernel void int2(device float* o [[buffer(0)]]) { o[0] = 1.0f; }
