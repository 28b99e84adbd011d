// An unsupported Metal function is named, at the call; so is a memory order
// Metal's atomics do not take.
// RUN: not %mslport translate %s --target openmp 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
kernel void k(device atomic_uint* c [[buffer(0)]], device float* o [[buffer(1)]]) {
  // CHECK: unsupported_function.metal:[[@LINE+1]]:36: error: a memory order other than memory_order_relaxed for 'atomic_fetch_add_explicit' is not supported yet
  atomic_fetch_add_explicit(c, 1u, memory_order_seq_cst);
  // CHECK: unsupported_function.metal:[[@LINE+1]]:10: error: Metal function 'quad_is_helper_thread' is not supported yet
  o[0] = quad_is_helper_thread() ? 1.0f : 0.0f;
}
