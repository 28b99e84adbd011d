// Metal's half-precision constants (<metal_math>): MAXHALF and the M_*_H
// forms of the math constants are half literals, each the constant rounded
// to half.
//
// Dispatch: one thread. It writes the constants in the order below to
// out[0..13], then out[14] = -MAXHALF and out[15] = M_PI_H * 2 (a half
// product).
#include <metal_stdlib>
using namespace metal;

kernel void feat_half_constants(device half* out [[buffer(0)]]) {
    out[0] = MAXHALF;
    out[1] = M_E_H;
    out[2] = M_LOG2E_H;
    out[3] = M_LOG10E_H;
    out[4] = M_LN2_H;
    out[5] = M_LN10_H;
    out[6] = M_PI_H;
    out[7] = M_PI_2_H;
    out[8] = M_PI_4_H;
    out[9] = M_1_PI_H;
    out[10] = M_2_PI_H;
    out[11] = M_2_SQRTPI_H;
    out[12] = M_SQRT2_H;
    out[13] = M_SQRT1_2_H;
    out[14] = -MAXHALF;
    out[15] = M_PI_H * 2;
}
