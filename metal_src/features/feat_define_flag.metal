// A macro defined on the command line: the commands for metal_src/ pass
// `-D MSLPORT_FEATURE_BIAS=0.25f`, and the kernel refuses to build without
// it. It also reads Metal's predefined __METAL_VERSION__.
//
// Dispatch: one thread per element.
//   out[i] = x[i] + MSLPORT_FEATURE_BIAS (= 0.25) + (__METAL_VERSION__ >= 300 ? 1 : 0)
#include <metal_stdlib>
using namespace metal;

#ifndef MSLPORT_FEATURE_BIAS
#error "define MSLPORT_FEATURE_BIAS (-D MSLPORT_FEATURE_BIAS=0.25f)"
#endif

#if __METAL_VERSION__ >= 300
#define MSLPORT_FEATURE_MODERN 1.0f
#else
#define MSLPORT_FEATURE_MODERN 0.0f
#endif

kernel void feat_define_flag(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    out[i] = x[i] + MSLPORT_FEATURE_BIAS + MSLPORT_FEATURE_MODERN;
}
