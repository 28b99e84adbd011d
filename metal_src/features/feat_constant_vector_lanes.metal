// Program-scope constants computed from the lanes of another constant, as
// SPIRV-Cross writes `constant uint _27 = gl_WorkGroupSize.x;`. Neither
// OpenCL C nor C++ takes `((uint3)(4u, 8u, 2u)).x` as a constant
// expression, so each scalar constant is given its value.
//
// Dispatch: a grid of n threads. For thread i:
//   out[i] = in[i] * (8 / 16) + (-(2 * 3))   (kScale, kOffset)
//   count[0] = 4 * 8 * 2                       (kThreads, by thread 0)
#include <metal_stdlib>
using namespace metal;

constant uint3 kGroup = uint3(4u, 8u, 2u);
constant uint kThreads = kGroup.x * kGroup.y * kGroup.z;
constant float kScale = float(kGroup.y) / 16.0f;
constant int kOffset = -int(kGroup.z) * 3;

kernel void feat_constant_vector_lanes(
    device const float* in    [[buffer(0)]],
    device float*       out   [[buffer(1)]],
    device uint*        count [[buffer(2)]],
    uint i [[thread_position_in_grid]])
{
    out[i] = in[i] * kScale + float(kOffset);
    if (i == 0) {
        count[0] = kThreads;
    }
}
