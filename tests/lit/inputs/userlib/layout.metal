// new_case.test: a signature with a struct, a vector output written through
// a derived pointer, a half buffer read and written, threadgroup memory.
#include <metal_stdlib>
using namespace metal;
struct P { float2 a; uint n; };
kernel void k(device const P* p [[buffer(0)]], device float4* o [[buffer(1)]], device half* h [[buffer(2)]],
              device uint* counts [[buffer(3)]], threadgroup float* sh [[threadgroup(0)]],
              uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
  device float4* row = o + 1;
  sh[l] = p[i].a.x;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  row[i] = float4(sh[l]);
  h[i] = h[i] + half(1);
  counts[i] = 1;
}
