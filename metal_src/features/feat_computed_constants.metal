// Program-scope constants whose value a constructor computes: an array of
// matrices, a struct made by its constructor, and a constant read from one
// of them, read in the kernel and in a helper.
//
// Dispatch: n threads (dispatchThreads). For thread i, with v = v_in[i]
// (a float2) and k = i % 2:
//   out[i] = kTurns[k] * v * kGain.scale + float2(kGain.shift, kTwoShift)
// with kTurns = { a quarter turn, a half turn }, kGain = Gain(2, 0.25) and
// kTwoShift = kGain.shift * 2.
#include <metal_stdlib>
using namespace metal;

struct Gain {
    float scale;
    float shift;
    Gain(float s, float t) : scale(s), shift(t) {}
};

constant float2x2 kTurns[2] = { float2x2(float2(0.0f, 1.0f), float2(-1.0f, 0.0f)),
                                float2x2(float2(-1.0f, 0.0f), float2(0.0f, -1.0f)) };
constant Gain kGain = Gain(2.0f, 0.25f);
constant float kTwoShift = kGain.shift * 2.0f;

static float2 offset() { return float2(kGain.shift, kTwoShift); }

kernel void feat_computed_constants(
    device const float2* v_in [[buffer(0)]],
    device float2*       out  [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    out[i] = kTurns[i % 2] * v_in[i] * kGain.scale + offset();
}
