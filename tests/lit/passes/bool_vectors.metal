// Metal's bool vectors. The front end types a comparison of vectors, `!`
// and `&&` on them as bool vectors (clang's OpenCL mode gives int vectors)
// and reads the shim's bool vector struct (constructors, swizzles, any, all,
// select) as IR. OpenCL has no bool vectors: bool_vectors negates OpenCL's
// -1/0 lanes to a char vector's 1/0, memory_types gives every bool vector its
// char vector, and builtin_calls passes any, all and select the sign bits
// they test.
// RUN: %mslport ir %s | FileCheck %s
// RUN: %mslport ir %s --target opencl --print-after=bool_vectors,memory_types,builtin_calls --verify-each | FileCheck --check-prefix=CL %s
#include <metal_stdlib>
using namespace metal;

// CHECK: param 2 buffer(2) m: device bool4*
// CHECK: %lt: bool4 = a[i] < a[i + 1u]
// CHECK: %nz: bool4 = cast<bool4>(n[i])
// CHECK: %h: bool2 = lt.zx
// CHECK: m[i] = !lt && nz
// CHECK: out[i] = (select(a[i], cast<float4>(lt), nz) + cast<float4>(cast<float>(any(lt)))) + cast<float4>(cast<float>(all(h)))
// CL-LABEL: IR after bool_vectors
// CL: %lt: bool4 = -cast<char4>(a[i] < a[i + 1u])
// CL: %nz: bool4 = -cast<char4>(n[i] != 0)
// CL: m[i] = -(-!lt && nz)
// CL-LABEL: IR after memory_types
// CL: param 2 buffer(2) m: device char4*
// CL: %lt: char4 = -cast<char4>(a[i] < a[i + 1u])
// CL: %h: char2 = lt.zx
// CL-LABEL: IR after builtin_calls
// CL: out[i] = (select(a[i], cast<float4>(lt), -cast<int4>(nz)) + cast<float4>(cast<float>(any(-lt)))) + cast<float4>(cast<float>(all(-h)))
kernel void k(device const float4* a [[buffer(0)]], device const int4* n [[buffer(1)]],
              device bool4* m [[buffer(2)]], device float4* out [[buffer(3)]], uint i [[thread_position_in_grid]]) {
  bool4 lt = a[i] < a[i + 1];
  bool4 nz = bool4(n[i]);
  vec<bool, 2> h = lt.zx;
  m[i] = !lt && nz;
  out[i] = select(a[i], float4(lt), nz) + float(any(lt)) + float(all(h));
}
