// Compute shader MSL in the shape SPIRV-Cross generates it: its
// pragmas and includes, the spvUnsafeArray template (operator[] for every
// address space), a struct buffer by reference holding a float4x4, a
// packed_float3 and a `float data[1]` runtime array, a uniform struct with
// an spvUnsafeArray member, a program-scope gl_WorkGroupSize, and a helper
// with barriers that takes threadgroup memory and a builtin by reference.
//
//   v(t)          = mvp * float4(pos * t, 1)        (t: index in threadgroup)
//   total         = sum over t of v(t).x * (2 * weights[1])
//   data[i]       = total + color.y                 (i: position in grid)
//   pos_out       = pos + 1; count_out = count + 1  (by the grid's thread 0)
// Dispatch: one threadgroup of 64 threads.
#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wmissing-braces"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

template<typename T, size_t Num>
struct spvUnsafeArray
{
    T elements[Num ? Num : 1];

    thread T& operator [] (size_t pos) thread
    {
        return elements[pos];
    }
    constexpr const thread T& operator [] (size_t pos) const thread
    {
        return elements[pos];
    }

    device T& operator [] (size_t pos) device
    {
        return elements[pos];
    }
    constexpr const device T& operator [] (size_t pos) const device
    {
        return elements[pos];
    }

    constexpr const constant T& operator [] (size_t pos) const constant
    {
        return elements[pos];
    }

    threadgroup T& operator [] (size_t pos) threadgroup
    {
        return elements[pos];
    }
    constexpr const threadgroup T& operator [] (size_t pos) const threadgroup
    {
        return elements[pos];
    }
};

struct SSBO
{
    float4x4 mvp;
    packed_float3 pos;
    uint count;
    packed_float3 pos_out;
    uint count_out;
    float data[1];
};

struct UBO
{
    float4 color;
    spvUnsafeArray<float, 4> weights;
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

static inline __attribute__((always_inline))
float reduce_step(threadgroup float* shared_data, thread uint& gl_LocalInvocationIndex, thread const uint& s)
{
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (gl_LocalInvocationIndex < s)
    {
        shared_data[gl_LocalInvocationIndex] += shared_data[gl_LocalInvocationIndex + s];
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return shared_data[0];
}

kernel void feat_spirv_cross_style(device SSBO& _12 [[buffer(0)]], constant UBO& _20 [[buffer(1)]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]], uint gl_LocalInvocationIndex [[thread_index_in_threadgroup]])
{
    threadgroup float shared_data[64];
    spvUnsafeArray<float, 4> _local;
    for (int _i = 0; _i < 4; _i++)
    {
        _local[_i] = _20.weights[_i] * 2.0;
    }
    float4 _45 = _12.mvp * float4(float3(_12.pos) * float(gl_LocalInvocationIndex), 1.0);
    shared_data[gl_LocalInvocationIndex] = _45.x * _local[1];
    float _total = 0.0;
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u)
    {
        _total = reduce_step(shared_data, gl_LocalInvocationIndex, s);
    }
    _12.data[gl_GlobalInvocationID.x] = _total + _20.color.y;
    if (gl_GlobalInvocationID.x == 0u)
    {
        _12.pos_out = packed_float3(float3(_12.pos) + float3(1.0));
        _12.count_out = _12.count + 1u;
    }
}
