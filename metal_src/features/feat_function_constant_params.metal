// Parameters that exist only where a function constant is true
// (`[[buffer(n), function_constant(flag)]]`), with flags the host sets at
// dispatch: the host binds such a buffer only where its flag is true, and
// the kernel reads it only then.
//
// feat_function_constant_params (dispatchThreads n in 32-thread groups):
//   v = x[i]; if has_scale: v = v * sp.scale + sp.shift; if has_bias: v += bias[i]
//   out[i] = v
#include <metal_stdlib>
using namespace metal;

constant bool has_bias [[function_constant(20)]];
constant bool has_scale [[function_constant(21)]];

struct ScaleParams {
    float scale;
    float shift;
};

kernel void feat_function_constant_params(device const float* x [[buffer(0)]],
                                          device float* out [[buffer(1)]],
                                          device const float* bias [[buffer(2), function_constant(has_bias)]],
                                          constant ScaleParams& sp [[buffer(3), function_constant(has_scale)]],
                                          uint i [[thread_position_in_grid]]) {
    float v = x[i];
    if (has_scale) v = v * sp.scale + sp.shift;
    if (has_bias) v += bias[i];
    out[i] = v;
}
