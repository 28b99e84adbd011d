// Structs copied out of the constant address space: from a `constant S&`
// buffer (by initialization and by construction) and from a program-scope
// constant array (by assignment to device memory).
//
// Dispatch: n threads (dispatchThreads). For thread i, with p the buffer's
// Params and k = i % 3:
//   q = p; r(table[k]);           local copies
//   out[i] = { q.scale * x[i] + r.offset, q.bias + r.bias }
//   row[i] = table[2 - k]          a struct assigned from the table
#include <metal_stdlib>
using namespace metal;

struct Params {
    float scale;
    float offset;
    int   bias;
};

struct Pair {
    float value;
    int   bias;
};

constant Params table[3] = { {1.0f, 0.5f, 1}, {2.0f, -1.0f, 2}, {-0.5f, 4.0f, 3} };

kernel void feat_constant_copies(
    device const float*  x   [[buffer(0)]],
    constant Params&     p   [[buffer(1)]],
    device Pair*         out [[buffer(2)]],
    device Params*       row [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    const uint k = i % 3;
    Params q = p;
    Params r(table[k]);
    Pair o;
    o.value = q.scale * x[i] + r.offset;
    o.bias = q.bias + r.bias;
    out[i] = o;
    row[i] = table[2 - k];
}
