// Headers found through -I: <mslport_feature/polynomial.h> lives in
// metal_src/include, which the commands for metal_src/ pass as
// `-I metal_src/include`; it includes "coefficients.h" beside itself.
//
// Dispatch: one thread per element.
//   out[i] = 1 - 2 x + 0.5 x^2 + 0.25 x^3, x = x[i] (Horner's rule in float)
#include <metal_stdlib>
#include <mslport_feature/polynomial.h>
#include <mslport_feature/coefficients.h>
using namespace metal;

kernel void feat_include_path(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    out[i] = polynomial(x[i]);
}
