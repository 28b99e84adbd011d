// Variables a thread changes inside a larger expression: a counter whose
// value is the same in every thread, incremented in the index of a load
// (`a[j] = x[4 * i + k++]`), and a counter incremented on the right of &&
// (only the threads whose left side holds increment it), then used as a
// divisor. Both after a barrier, where the C++/OpenMP output runs the
// statements in loops over the threadgroup's work-items.
//
// Dispatch: dispatchThreads n, threadgroups of width w (any), threadgroup(0)
// holds w floats. x holds 4 values per thread; l is the thread's index in
// its threadgroup.
//   out[i]    = x[4i] + 10 x[4i+1] + 100 x[4i+2] + 1000 x[4i+3] + l
//   c         = 2 when l is even, else 1
//   counts[i] = 10 * (int(1000 * x[4i]) / c) + c      (integer division)
#include <metal_stdlib>
using namespace metal;

kernel void feat_counter_side_effects(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                                      device int* counts [[buffer(2)]], threadgroup float* seen [[threadgroup(0)]],
                                      uint i [[thread_position_in_grid]],
                                      uint l [[thread_position_in_threadgroup]]) {
    seen[l] = float(l);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float a[4];
    int k = 0;
    for (int j = 0; j < 4; ++j) a[j] = x[4 * i + k++];
    int c = 1;
    bool even = (l % 2 == 0) && (c++ > 0);
    int scaled = int(1000.0f * a[0]) / c;
    out[i] = a[0] + 10.0f * a[1] + 100.0f * a[2] + 1000.0f * a[3] + seen[l];
    counts[i] = 10 * scaled + (even ? c : 1);
}
