// passes/rename_reserved with each backend's reserved names: a parameter
// named `g` (the OpenMP entry's threadgroup index) or `global` (an OpenCL C
// qualifier).
// RUN: %mslport ir %s --print-before=rename_reserved --print-after=rename_reserved --verify-each | FileCheck --check-prefix=OMP %s
// RUN: %mslport ir %s --target opencl --print-after=rename_reserved --verify-each | FileCheck --check-prefix=CL %s
#include <metal_stdlib>
using namespace metal;

// OMP-LABEL: IR before rename_reserved
// OMP: param 1 buffer(1) g: constant uint&
// OMP-LABEL: IR after rename_reserved
// OMP: param 1 buffer(1) g_: constant uint&
// OMP: param 2 buffer(2) global: constant uint&
// OMP: out[i] = g_ + global
// CL-LABEL: IR after rename_reserved
// CL: param 1 buffer(1) g: constant uint&
// CL: param 2 buffer(2) global_: constant uint&
// CL: out[i] = g + global_
kernel void k(device uint* out [[buffer(0)]], constant uint& g [[buffer(1)]], constant uint& global [[buffer(2)]],
              uint i [[thread_position_in_grid]]) {
  out[i] = g + global;
}
