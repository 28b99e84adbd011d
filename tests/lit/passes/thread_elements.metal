// The shared pass thread_elements: m.thread_elements() is m[thread_elements()]
// (the tile subscripted by the lane's pair) until this pass gives it MLX
// steel's lane map; a tile written that way is gathered (each lane's pair
// through threadgroup memory, between SIMD-group barriers) before a multiply
// or store reads it whole, once per tile.
// RUN: %mslport ir %s --print-before=thread_elements --print-after=thread_elements --verify-each | FileCheck %s
#include <metal_stdlib>
using namespace metal;

// CHECK-LABEL: IR before thread_elements (kernel k)
// CHECK: %x: const float = m[thread_elements()][0]
// CHECK-NEXT: m[thread_elements()][1] = x * s
// CHECK-LABEL: IR after thread_elements (kernel k)
// CHECK: param 3 builtin thread_index_in_simdgroup mslport_simd_lane: uint
// CHECK-NEXT: param 4 builtin simdgroup_index_in_threadgroup mslport_simdgroup: uint
// CHECK-NEXT: threadgroup mslport_tile_exchange_0: float[2048]
// CHECK: %x: const float = m[((((mslport_simd_lane / 4u) & 4u) + ((mslport_simd_lane / 2u) % 4u)) * 4u) + (((mslport_simd_lane / 4u) & 2u) + (mslport_simd_lane % 2u))][0]
// CHECK-NEXT: m[{{.*}}][1] = x * s
// CHECK-NEXT: simdgroup_barrier(mem_threadgroup)
// CHECK-NEXT: mslport_tile_exchange_0[(mslport_simdgroup * 64u) + {{.*}} * 2u) + 0u)] = m[{{.*}}][0]
// CHECK-NEXT: mslport_tile_exchange_0[(mslport_simdgroup * 64u) + {{.*}} * 2u) + 1u)] = m[{{.*}}][1]
// CHECK-NEXT: simdgroup_barrier(mem_threadgroup)
// CHECK-NEXT: simdgroup_load(m, &mslport_tile_exchange_0[mslport_simdgroup * 64u], 8ul, ulong2(0ul, 0ul), false)
// CHECK-NEXT: simdgroup_multiply(r, m, m)
// r is never written through thread_elements(): stored as it is.
// CHECK-NEXT: simdgroup_store(r, out, 8ul, ulong2(0ul, 0ul), false)
kernel void k(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
              constant float& s [[buffer(2)]]) {
  simdgroup_float8x8 m, r;
  simdgroup_load(m, a, 8);
  const float x = m.thread_elements()[0];
  m.thread_elements()[1] = x * s;
  simdgroup_multiply(r, m, m);
  simdgroup_store(r, out, 8);
}

// Reading through a const reference writes nothing: no gather.
// CHECK-LABEL: IR after thread_elements (kernel read_only)
// CHECK: %e: const thread const float2* = &m[
// CHECK-NOT: simdgroup_barrier
// CHECK: simdgroup_multiply(r, m, m)
kernel void read_only(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                      uint lane [[thread_index_in_simdgroup]]) {
  simdgroup_float8x8 m, r;
  simdgroup_load(m, a, 8);
  thread const auto& e = m.thread_elements();
  out[lane] = e[0] + e[1];
  simdgroup_multiply(r, m, m);
  simdgroup_store(r, out + 64, 8);
}
