// An unsupported Metal type is named, at the parameter.
// RUN: not %mslport translate %s --target opencl 2>&1 | FileCheck %s
#include <metal_stdlib>
using namespace metal;
// CHECK: unsupported_type.metal:[[@LINE+1]]:36: error: textures and samplers are not supported yet
kernel void k(texture2d<float> t [[texture(0)]], device float* out [[buffer(0)]]) {
  out[0] = 1.0f;
}
