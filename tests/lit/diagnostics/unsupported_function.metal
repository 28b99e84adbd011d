// An unsupported Metal function is named, at the call.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: unsupported_function.metal:[[@LINE+1]]:35: error: atomic type
kernel void k(device atomic_uint* c [[buffer(0)]]) {
  // CHECK: unsupported_function.metal:[[@LINE+1]]:3: error: atomic operation 'atomic_fetch_add_explicit' is not supported yet
  atomic_fetch_add_explicit(c, 1u, memory_order_relaxed);
}
