// Local references that the kernel writes through: `device auto& c =
// *(device Counts*)raw;` (SPIRV-Cross's aliasing of a `device void*`
// buffer), `device Cell& d = cells[i];` and `thread float& t = acc[k];`.
// A reference never rebinds; the object it names stays writable.
//
// Dispatch: a grid of n threads. For thread i, with x = in[i]:
//   cells[i] = {x + 1, 2 * x}   (read, then written through d)
//   counts->total = n, counts->last = n - 1   (written by thread 0 through c)
//   out[i] = acc[0] + acc[1] with acc = {x, 3}, acc[1] += x through t
#include <metal_stdlib>
using namespace metal;

struct Counts {
    uint total;
    uint last;
};

struct Cell {
    float a;
    float b;
};

kernel void feat_reference_locals(
    device const float* in    [[buffer(0)]],
    device Cell*        cells [[buffer(1)]],
    device void*        raw   [[buffer(2)]],
    device float*       out   [[buffer(3)]],
    uint i [[thread_position_in_grid]],
    uint n [[threads_per_grid]])
{
    const float x = in[i];
    device Cell& d = cells[i];
    d.a = x + 1.0f;
    d.b = 2.0f * x;
    if (i == 0) {
        device auto& c = *(device Counts*)raw;
        c.total = n;
        c.last = n - 1;
    }
    float acc[2] = {x, 3.0f};
    thread float& t = acc[1];
    t += x;
    out[i] = acc[0] + acc[1];
}
