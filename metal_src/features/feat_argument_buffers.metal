// Argument buffers (MSL 2.13): structs of pointers to other buffers, bound
// as one buffer, the way Metal 3 hosts write each buffer's gpuAddress into
// them. A `constant` argument buffer by reference with a scalar beside its
// pointers, read directly, through a local pointer and through a helper; a
// `device` argument buffer by pointer whose struct nests another struct of
// pointers, with [[id(n)]] on its members; an array of pointers in one,
// each thread reading the element its index selects (as SPIRV-Cross emits
// descriptor arrays).
//
// feat_argument_buffers (one threadgroup per 64 elements):
//   out[i] = a * x[i] + y[i]                  for i < n (out[n..] untouched)
// feat_argument_buffers_nested (one threadgroup of 32 threads, 32 elements):
//   dst[i] = lut[vals[i] & 3] * scale + count
// feat_argument_buffers_banks (2 threadgroups of 32, n = 48 of 64):
//   out[i] = bank[i % 3][i] + 2 * bank[2][i]            for i < n
#include <metal_stdlib>
using namespace metal;

struct AxpyArgs {
    device const float* x;
    device const float* y;
    device float*       out;
    float               a;
    uint                n;
};

// Reads through the argument buffer it is given by reference.
static float axpy_term(constant AxpyArgs& args, uint i) {
    return args.a * args.x[i];
}

kernel void feat_argument_buffers(constant AxpyArgs& args [[buffer(0)]],
                    uint gid [[thread_position_in_grid]]) {
    if (gid >= args.n) return;
    device const float* y = args.y;
    args.out[gid] = axpy_term(args, gid) + y[gid];
}

struct Ends {
    device const int* vals [[id(0)]];
    device int*       dst  [[id(1)]];
};

struct NestedArgs {
    uint               count [[id(0)]];
    Ends               ends  [[id(1)]];
    constant int*      lut   [[id(3)]];
    int                scale [[id(4)]];
};

kernel void feat_argument_buffers_nested(constant uint& n [[buffer(0)]],
                      device NestedArgs* args [[buffer(1)]],
                      uint gid [[thread_position_in_grid]]) {
    if (gid < n) {
        int v = args->ends.vals[gid];
        args->ends.dst[gid] = args->lut[v & 3] * args->scale + int(args->count);
    }
}

struct Banks {
    device const float* bank[3];
    device float*       out;
    uint                n;
};

kernel void feat_argument_buffers_banks(constant Banks& b [[buffer(0)]],
                                        uint gid [[thread_position_in_grid]]) {
    if (gid < b.n) b.out[gid] = b.bank[gid % 3][gid] + 2.0f * b.bank[2][gid];
}
