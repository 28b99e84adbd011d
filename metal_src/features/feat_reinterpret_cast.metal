// reinterpret_cast as Metal (C++) has it: pointers to another element type
// in the same address space, references, and a vector read as another vector
// of the same size (as as_type does). Threadgroups of 32 threads, thread i at
// position l of its group, g its group:
//   s4 = reinterpret_cast<threadgroup float4*>(shmem); s4[l] = in4[i], where
//   in4 = reinterpret_cast<device const float4*>(in) (floats 4i .. 4i+3)
//   r = the next lane's floats, read through the float pointer and reversed:
//       m = 32 g + (l + 1) % 32; r = (in[4m+3], in[4m+2], in[4m+1], in[4m])
//   h = reinterpret_cast<device const half2*>(hin)[i]   (halves 2i, 2i+1)
//   v = r + (h.x, h.y, 0, 0)
//   bits[i] = reinterpret_cast<uint4>(v)                (the bits of v)
//   t = v with reinterpret_cast<thread uint4&>(t).x &= 0x7fffffff (|v.x|)
//   out[i] = t, then reinterpret_cast<device uint4&>(out[i]).w ^= 0x80000000
//   so out[i] = (|v.x|, v.y, v.z, -v.w)
#include <metal_stdlib>
using namespace metal;

kernel void feat_reinterpret_cast(
    device const float* in    [[buffer(0)]],
    device const half*  hin   [[buffer(1)]],
    device float4*      out   [[buffer(2)]],
    device uint4*       bits  [[buffer(3)]],
    threadgroup float*  shmem [[threadgroup(0)]],
    uint i [[thread_position_in_grid]],
    uint l [[thread_position_in_threadgroup]])
{
    device const float4* in4 = reinterpret_cast<device const float4*>(in);
    threadgroup float4* s4 = reinterpret_cast<threadgroup float4*>(shmem);
    s4[l] = in4[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint m = (l + 1) % 32;
    const float4 r = float4(shmem[4 * m + 3], shmem[4 * m + 2], shmem[4 * m + 1], shmem[4 * m]);
    const half2 h = reinterpret_cast<device const half2*>(hin)[i];
    const float4 v = r + float4(float(h.x), float(h.y), 0.0f, 0.0f);
    bits[i] = reinterpret_cast<uint4>(v);
    float4 t = v;
    reinterpret_cast<thread uint4&>(t).x &= 0x7fffffffu;
    out[i] = t;
    reinterpret_cast<device uint4&>(out[i]).w ^= 0x80000000u;
}
