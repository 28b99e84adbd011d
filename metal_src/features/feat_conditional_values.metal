// A conditional operator between the value a call returns and a variable of
// the same struct or matrix type: `c ? scaled(s, 3) : s`, and the form
// SPIRV-Cross gives every GLSL inverse(), `d != 0 ? adj * (1 / d) : m` of
// float4x4s. (clang's C++ for OpenCL refuses the pair for the variable's
// address space; Metal, as C++, takes it.)
//
// Dispatch: a grid of n threads. For thread i, with x = in[i]:
//   r = x > 0 ? {3x, 6} : {x, 2}
//   n = m * (1 / 2) for even i, else m, with m = float4x4(x) (x on the diagonal)
//   out[i] = r.a + r.b + n[0][0] + n[1][1] + n[0][1]
#include <metal_stdlib>
using namespace metal;

struct Pair {
    float a;
    float b;
};

Pair scaled(Pair s, float k) {
    return Pair{s.a * k, s.b * k};
}

float4x4 scaled_or_same(float4x4 m, float d) {
    float4x4 adj = m;
    return (d != 0.0f) ? (adj * (1.0f / d)) : m;
}

kernel void feat_conditional_values(
    device const float* in  [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint i [[thread_position_in_grid]])
{
    const float x = in[i];
    Pair s = Pair{x, 2.0f};
    Pair r = (x > 0.0f) ? scaled(s, 3.0f) : s;
    float4x4 n = scaled_or_same(float4x4(x), (i % 2 == 0) ? 2.0f : 0.0f);
    out[i] = r.a + r.b + n[0][0] + n[1][1] + n[0][1];
}
