// Function constants the host sets at dispatch. No is_function_constant_defined
// names these, so each is required: Metal's host gives every one a value when
// it makes the pipeline. Translated without values, each becomes a value the
// host passes when it dispatches the kernel (golden cases give them in
// "function_constants", by name or by index).
//
// Constants: taps (short, index FC_BASE + 0 = 100), square (bool, 101),
// scale (float, 102), bias (half, 7); window = 2 * taps + 1 is computed
// from one, and weight(j) = scale / (j + 1) is a helper that reads one.
//
// Dispatch: threadgroups of 32 threads (dispatchThreadgroups), n = the
// number of threads in the grid. For thread i, with lane l = i % 32:
//   acc    = sum over j = 0 .. taps - 1 of weight(j) * x[(i + j) % n]
//            (float, in that order)
//   if square: acc = acc * t[(l + 1) % 32], where t[l] holds the acc of
//            lane l of the same threadgroup (shared through threadgroup
//            memory between two barriers)
//   out[i] = acc + float(bias) + float(window)
#include <metal_stdlib>
using namespace metal;

#define FC_BASE 100

constant short taps   [[function_constant(FC_BASE + 0)]];
constant bool  square [[function_constant(FC_BASE + 1)]];
constant float scale  [[function_constant(FC_BASE + 2)]];
constant half  bias   [[function_constant(7)]];
constant int   window = 2 * taps + 1;

static float weight(short j) { return scale / float(j + 1); }

kernel void feat_host_function_constants(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    constant uint&      n   [[buffer(2)]],
    uint i [[thread_position_in_grid]],
    uint l [[thread_index_in_threadgroup]])
{
    threadgroup float t[32];
    float acc = 0.0f;
    for (short j = 0; j < taps; ++j) {
        acc += weight(j) * x[(i + uint(j)) % n];
    }
    if (square) {
        t[l] = acc;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        acc = acc * t[(l + 1) % 32];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[i] = acc + float(bias) + float(window);
}
