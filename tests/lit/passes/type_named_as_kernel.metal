// passes/rename_reserved gives a type named as a kernel a name of its own
// (the kernel keeps its name, which the host finds it by), on both targets.
// RUN: %mslport ir %s --print-before=rename_reserved --print-after=rename_reserved --verify-each | FileCheck %s
// RUN: %mslport ir %s --target opencl --print-after=rename_reserved --verify-each | FileCheck --check-prefix=CL %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before rename_reserved
// CHECK: union rbits
// CHECK: kernel rbits
// CHECK-LABEL: IR after rename_reserved
// CHECK: union rbits_
// CHECK: kernel rbits
// CHECK: %b: rbits_
// CL-LABEL: IR after rename_reserved
// CL: union rbits_
// CL: kernel rbits
union rbits {
  uint u;
  float f;
};

kernel void rbits(device const uint* x [[buffer(0)]], device float* out [[buffer(1)]],
                  uint i [[thread_position_in_grid]]) {
  union rbits b;
  b.u = x[i];
  out[i] = b.f;
}
