// Struct buffers the way machine-generated MSL passes them: a struct by
// `device` reference holding a member array of structs, a float array and a
// runtime-sized trailing array in the `T m[1]` form; a `constant` struct by
// reference with a packed_float3 and an alignas(32) member; a struct with a
// `float vals[]` trailing array written through a reference; a scalar
// `device float&`; structs copied to and from threadgroup memory.
//
//   r(i)    = the range r < table.n_ranges with first <= i < first + count
//             (the last such r), or none
//   vals[i] = table.data[i] * table.weight[r & 1] + p.bias
//             + p.offset[1] * p.dir.z + p.stride      (without the first
//             three terms when i is in no range)
//   out.sum = p.offset[0] + p.offset[2] + last.count, with last the range
//             with the largest first among ranges[0 .. n_ranges)
//   out.count = table.n_ranges;  total = dot(p.offset, p.dir)
// Dispatch: one threadgroup of 64 threads.
#include <metal_stdlib>
using namespace metal;

struct Range {
    uint first;
    uint count;
};

struct Table {
    uint  n_ranges;
    Range ranges[4];
    float weight[2];
    float data[1];
};

struct Params {
    packed_float3 offset;
    float bias;
    alignas(32) uint stride;
    float3 dir;
};

struct Out {
    float sum;
    uint count;
    float vals[];
};

kernel void feat_struct_buffers(
    device const Table& table [[buffer(0)]],
    constant Params&    p     [[buffer(1)]],
    device Out&         out   [[buffer(2)]],
    device float&       total [[buffer(3)]],
    uint tid [[thread_index_in_threadgroup]])
{
    threadgroup Range ranges[4];
    threadgroup Range last;
    if (tid < 4) {
        ranges[tid] = table.ranges[tid];
    }
    if (tid == 0) {
        last = table.ranges[0];
        for (uint r = 1; r < table.n_ranges; ++r) {
            if (table.ranges[r].first > last.first) last = table.ranges[r];
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint which = 4;
    for (uint r = 0; r < table.n_ranges; ++r) {
        const Range rg = ranges[r];
        if (tid >= rg.first && tid < rg.first + rg.count) which = r;
    }
    float v = float(p.stride);
    if (which < 4) v += table.data[tid] * table.weight[which & 1] + p.bias + p.offset[1] * p.dir.z;
    out.vals[tid] = v;
    if (tid == 0) {
        Range copy = last;
        out.sum = p.offset[0] + p.offset[2] + float(copy.count);
        out.count = table.n_ranges;
        total = dot(float3(p.offset), p.dir);
    }
}
