// Helper functions of every shape, one kernel: out-parameters (thread
// references), several returns, a return from inside a loop, a switch, a
// helper calling a helper, helpers in a loop condition and under && / ?:,
// and a helper reading a device buffer through a pointer parameter.
//
// Dispatch: one thread per element, n elements (n a multiple of 32).
//   a = x[i], row = x[(i/8)*8 .. (i/8)*8+7] (the element's row of 8)
//   mag, sign  = |a|, (a < 0 ? -1 : a > 0 ? 1 : 0)       (split_sign)
//   first      = index in row of the first value > 2, or 8   (first_above)
//   kind       = bucket(i % 4): 0 -> 10, 1 -> 20, 2 -> 30, 3 -> 40 (switch)
//   steps      = number of halvings of mag+1 until it is < 2 (loop condition)
//   gated      = (a > 0 && positive_part(a) > 1) ? 1 : 0
//   out[i]     = mag * sign + 100*first + kind + 1000*steps + 10000*gated
#include <metal_stdlib>
using namespace metal;

void split_sign(float a, thread float& mag, thread int& sign) {
    mag = fabs(a);
    if (a < 0.0f) {
        sign = -1;
        return;
    }
    sign = a > 0.0f ? 1 : 0;
}

uint first_above(device const float* row, float threshold) {
    for (uint j = 0; j < 8; ++j) {
        if (row[j] > threshold) {
            return j;
        }
    }
    return 8;
}

float bucket(uint k) {
    switch (k) {
        case 0: return 10.0f;
        case 1: return 20.0f;
        case 2: return 30.0f;
        default: break;
    }
    return 40.0f;
}

float halve(float v) { float h = v; h *= 0.5f; return h; }

bool at_least_two(float v) {
    if (v >= 2.0f) return true;
    return false;
}

float positive_part(float a) {
    float p = max(a, 0.0f);
    return p;
}

kernel void feat_helper_out_param(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    float a = x[i];
    float mag;
    int sign;
    split_sign(a, mag, sign);
    uint first = first_above(x + (i / 8) * 8, 2.0f);
    float kind = bucket(i % 4);
    int steps = 0;
    float m = mag + 1.0f;
    while (at_least_two(m)) {
        m = halve(m);
        ++steps;
    }
    float gated = (a > 0.0f && positive_part(a) > 1.0f) ? 1.0f : 0.0f;
    out[i] = mag * float(sign) + 100.0f * float(first) + kind + 1000.0f * float(steps) + 10000.0f * gated;
}
