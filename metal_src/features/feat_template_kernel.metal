// A template kernel instantiated for float, half and bfloat, with the two
// explicit-instantiation forms Metal libraries use (an instantiation macro
// with decltype, and a declaration with the parameter list), a struct
// template, a non-type template parameter, a function template, and a
// threadgroup array whose size is a template parameter.
//
// Dispatch: threadgroups of TILE = 32 threads; n = threadgroups * 32.
// Each threadgroup reverses its tile of x through threadgroup memory:
//   v = x[g*32 + (31 - t)]            (in T)
//   out[g*32 + t] = T(v * scale + offset), scale = 2, offset = 0.5,
//   computed in float from T inputs and rounded once to T.
#include <metal_stdlib>
using namespace metal;

template <typename T, int N>
struct Affine {
    T scale;
    T offset;
    float apply(float v) const { return v * float(scale) + float(offset); }
};

template <typename T>
T to_storage(float v) { return static_cast<T>(v); }

template <typename T, int TILE>
kernel void feat_template_kernel(
    device const T* x   [[buffer(0)]],
    device T*       out [[buffer(1)]],
    uint lid   [[thread_position_in_threadgroup]],
    uint group [[threadgroup_position_in_grid]])
{
    threadgroup T tile[TILE];
    tile[lid] = x[group * TILE + lid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    Affine<T, TILE> f;
    f.scale = T(2);
    f.offset = T(0.5f);
    float v = float(tile[TILE - 1 - lid]);
    out[group * TILE + lid] = to_storage<T>(v * float(f.scale) + float(f.offset));
}

#define instantiate_feature(name, type) \
    template [[host_name("feat_template_kernel_" #name)]] [[kernel]] \
    decltype(feat_template_kernel<type, 32>) feat_template_kernel<type, 32>;

instantiate_feature(f32, float)
instantiate_feature(f16, half)

template [[host_name("feat_template_kernel_bf16")]] kernel void feat_template_kernel<bfloat, 32>(
    device const bfloat*, device bfloat*, uint, uint);
