// Types named as kernels of the same file (MLX's random.metal names a union
// and a kernel `rbits`): C++ lets a function and a class share a name, the
// class then named with its tag (`union feat_collision_bits`). Each kernel
// keeps its name, and the emitted code gives the type a name of its own.
//
// Dispatch: dispatchThreads n, any threadgroup size, for each kernel.
//   feat_collision_bits: out[i] = the float whose bit pattern is
//     x[i] | 0x3f800000, times 2 (with x[i] below 2^23: 2 + x[i] / 2^22)
//   feat_collision_pair: out[i] = float(x[i] % 1000) + 0.5 * float(x[i] % 7)
#include <metal_stdlib>
using namespace metal;

union feat_collision_bits {
    uint u;
    float f;
};

struct feat_collision_pair {
    float a;
    float b;
};

kernel void feat_collision_bits(device const uint* x [[buffer(0)]], device float* out [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    union feat_collision_bits b;
    b.u = x[i] | 0x3f800000u;
    out[i] = b.f * 2.0f;
}

kernel void feat_collision_pair(device const uint* x [[buffer(0)]], device float* out [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    struct feat_collision_pair p = {float(x[i] % 1000u), float(x[i] % 7u)};
    out[i] = p.a + 0.5f * p.b;
}
