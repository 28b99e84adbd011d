// The OpenCL steps kernel_interface (a `constant T&` becomes a pointer read
// as `*p`) and memory_types (half kept as its bits in memory, computed in
// float, rounded where Metal rounds).
// RUN: %mslport ir %s --target opencl --print-after=kernel_interface,memory_types --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR after kernel_interface
// CHECK: %i: const uint = mslport_thread_position_in_grid(mslport_grid).x
// CHECK: %v: half = x[i]
// CHECK-NEXT: out[i] = v * cast<half>(*scale)
// CHECK-LABEL: IR after memory_types
// CHECK: %v: float = mslport_half_to_float(x[i])
// CHECK-NEXT: out[i] = mslport_float_to_half(v * mslport_round_half(*scale))
kernel void k(device const half* x [[buffer(0)]], device half* out [[buffer(1)]], constant float& scale [[buffer(2)]],
              uint i [[thread_position_in_grid]]) {
  half v = x[i];
  out[i] = v * half(scale);
}
