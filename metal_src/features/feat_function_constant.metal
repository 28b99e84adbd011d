// Function constants specialise a kernel when its pipeline is made. The
// golden cases give the values ("function_constants" in case.json, by name
// or by index) and `mslport check` translates this file once per set; with
// no values at all (regen) the defaults below apply.
//
// Constants: scale_fc (float, index 0), use_bias (bool, index 1).
//   scale   = scale_fc if it has a value, else 1
//   bias_on = use_bias if it has a value, else false
// The bias buffer exists only when bias_on.
//
// Dispatch: n threads (dispatchThreads). For thread i:
//   out[i] = x[i] * scale + (bias_on ? bias[i % 4] : 0)
#include <metal_stdlib>
using namespace metal;

constant float scale_fc [[function_constant(0)]];
constant bool use_bias [[function_constant(1)]];
constant float scale = is_function_constant_defined(scale_fc) ? scale_fc : 1.0f;
constant bool bias_on = is_function_constant_defined(use_bias) && use_bias;

kernel void feat_function_constant(
    device const float* x    [[buffer(0)]],
    device float*       out  [[buffer(1)]],
    device const float* bias [[buffer(2), function_constant(bias_on)]],
    uint i [[thread_position_in_grid]])
{
    float v = x[i] * scale;
    if (bias_on) {
        v += bias[i % 4];
    }
    out[i] = v;
}
