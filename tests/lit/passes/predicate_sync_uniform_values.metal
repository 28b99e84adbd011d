// predicate_sync after an early return (here OpenCL's grid guard): a
// uniform value of parameters that a condition or loop bound around a
// collective reads is assigned for every thread, threads that left too, so
// they agree on the branch and on the trip count. Before, `sv` and `r0` were
// assigned under the alive flag only, the branch became a mask, and the loop
// read r0 that the threads outside it never set ("synchronisation left in
// divergent control flow").
// RUN: %mslport ir %s --target opencl --print-after=predicate_sync --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

struct Args { int nr0; int ne01; };

kernel void k(device float* dst [[buffer(0)]], constant Args& args [[buffer(1)]],
              uint3 tgpig [[threadgroup_position_in_grid]], ushort lane [[thread_index_in_simdgroup]]) {
  const int sv = args.nr0;
  const int scale = args.ne01 * 3;  // read by no condition: stays under the alive flag
  if (sv == 2) {
    const int r0 = tgpig.x * 2;
    for (short row = 0; row < 2 && r0 + row < args.ne01; ++row) {
      float tot = simd_sum(dst[row * 32 + lane]);
      if (lane == 0) dst[r0 + row] = tot * scale;
    }
  }
}

// CHECK-LABEL: IR after predicate_sync
// CHECK: if (!__mslport_in_grid()) {
// CHECK: sv = args.nr0
// CHECK-NEXT: if (mslport_alive) {
// CHECK-NEXT: scale = args.ne01 * 3
// CHECK: if (sv == 2) {
// CHECK: r0 = cast<int>(tgpig.x * 2u)
// CHECK-NEXT: for (%row: short
// CHECK: simd_sum({{.*}}) [mask: mslport_alive]
// CHECK-NOT: mslport_mask
