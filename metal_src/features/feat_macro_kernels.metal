// Kernels defined by function-like macros, the way hand-written kernel
// libraries instantiate one body per type: the attributes, swizzles and
// names are written in the macro bodies, a second macro invokes the first,
// `##` pastes the kernel names and one macro is variadic.
//
// feat_macro_kernels_scale_f32 / _i32 (dispatchThreads n in 32-thread groups):
//   out[i] = in[i] * k + grid.x / 32  (grid = the thread position, k = 3)
// feat_macro_kernels_swap (threadgroups of 32; i = tg.x * 32 + ti):
//   out[i] = float2(v[i].y, v[i].x) + tg.x + ti
#include <metal_stdlib>
using namespace metal;

#define SCALE_KERNEL(NAME, T, K)                                                 \
kernel void NAME(device const T* in [[ buffer(0) ]],                            \
                 device T* out [[buffer(1)]],                                   \
                 constant uint& n [[buffer(2)]],                                \
                 uint3 grid [[thread_position_in_grid]]) {                      \
    if (grid.x >= n) return;                                                    \
    out[grid.x] = in[grid.x] * T(K) + T(grid.x / 32);                           \
}

#define SCALE_KERNELS(SUFFIX, T) SCALE_KERNEL(feat_macro_kernels_scale_##SUFFIX, T, 3)

SCALE_KERNELS(f32, float)
SCALE_KERNELS(i32, int)

#define SWAP_KERNEL(NAME, ...)                                                   \
kernel void NAME(device const float2* v [[buffer(0)]],                          \
                 device float2* out [[buffer(1)]],                              \
                 uint3 tg [[threadgroup_position_in_grid]],                     \
                 ushort ti [[thread_index_in_threadgroup]]) {                   \
    uint i = tg.x * 32 + ti;                                                    \
    out[i] = v[i].yx + float(tg.x) + float(ti) __VA_ARGS__;                     \
}

SWAP_KERNEL(feat_macro_kernels_swap)
