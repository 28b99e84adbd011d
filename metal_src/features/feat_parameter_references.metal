// Local references to parameters: to a helper's reference parameter (a
// write through it reaches the caller's variable), to a helper's value
// parameter (written through, then returned; and a const one read after the
// parameter changed), and to a kernel's arguments.
//
// Dispatch: dispatchThreads n, any threadgroup size; s is one float.
//   out[i] = 5 (set through a reference to a reference parameter)
//          + 6 (3, doubled through a reference to a value parameter)
//          + 3 (2, read through a const reference after the parameter grew by 1)
//          + (i + 1) (i incremented through a reference to the kernel's argument)
//          + s (read through a const reference to a constant buffer argument)
#include <metal_stdlib>
using namespace metal;

void set_through(thread float& a, float v) {
    thread float& b = a;
    b = v;
}

float doubled(float v) {
    thread float& w = v;
    w *= 2.0f;
    return v;
}

float read_after_change(float v) {
    const thread float& c = v;
    v += 1.0f;
    return c;
}

kernel void feat_parameter_references(device float* out [[buffer(0)]], constant float& s [[buffer(1)]],
                                      uint i [[thread_position_in_grid]]) {
    float x = 1.0f;
    set_through(x, 5.0f);
    thread uint& r = i;
    r += 1;
    const constant float& cs = s;
    out[i - 1] = x + doubled(3.0f) + read_after_change(2.0f) + float(i) + cs;
}
