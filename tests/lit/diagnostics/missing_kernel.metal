// Asking for a kernel the file does not have lists the ones it has.
// RUN: not %mslport ir %s --kernel nope 2>&1 | FileCheck %s
// CHECK: missing_kernel.metal: error: no kernel named 'nope' (kernels: first second)
#include <metal_stdlib>
using namespace metal;
kernel void first(device float* out [[buffer(0)]]) { out[0] = 1.0f; }
kernel void second(device float* out [[buffer(0)]]) { out[0] = 2.0f; }
