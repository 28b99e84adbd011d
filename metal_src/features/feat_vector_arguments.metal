// Brace lists passed where a vector parameter is expected: Metal
// copy-list-initialises the parameter, as it does `uint3 v = {a, b, c};`,
// in a plain function and in a template called with an explicit template
// argument (MLX's elem_to_loc_2_nd<IdxT>({N * index.x, index.y, index.z},
// ...)). A vector element counts by its components and a short list is
// completed with zeros, as in any vector list. A list returned from a
// function returning a vector is the same initialisation.
//
// Dispatch: a grid of threads_per_grid (X, Y, Z) (dispatchThreads). For the
// thread at (x, y, z), i = x + X * (y + Y * z) and v = in[i]:
//   loc[i] = 2x * strides[0] + y * strides[1] + z * strides[2]
//   out[i] = float4(p + q, h.x + h.y) with
//     s = scale2(2, {v, -v}) = (2v, -2v), p = pad({s, 1}) = (2v, -2v, 1),
//     q = pad({v, 3}) = (v, 3, 0), h = halves(v) = {v / 2, v / 4}
#include <metal_stdlib>
using namespace metal;

template <typename IdxT>
IdxT elem_to_loc_3(uint3 elem, constant const int* strides) {
    return IdxT(elem.x) * IdxT(strides[0]) + IdxT(elem.y) * IdxT(strides[1]) + IdxT(elem.z) * IdxT(strides[2]);
}

float2 scale2(float k, float2 v) {
    return k * v;
}

float3 pad(float3 v) {
    return v;
}

float2 halves(float a) {
    return {a * 0.5f, a * 0.25f};
}

kernel void feat_vector_arguments(
    constant const int* strides [[buffer(0)]],
    device const float* in      [[buffer(1)]],
    device uint*        loc     [[buffer(2)]],
    device float4*      out     [[buffer(3)]],
    uint3 index [[thread_position_in_grid]],
    uint3 grid  [[threads_per_grid]])
{
    uint i = index.x + grid.x * (index.y + grid.y * index.z);
    float v = in[i];
    loc[i] = elem_to_loc_3<uint>({2 * index.x, index.y, index.z}, strides);
    float2 s = scale2(2.0f, {v, -v});
    float3 p = pad({s, 1.0f});
    float3 q = pad({v, 3.0f});
    float2 h = halves(v);
    out[i] = float4(p + q, h.x + h.y);
}
