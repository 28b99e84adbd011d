// Constructors of a struct whose fields live in anonymous members: a member
// initializer list and a constructor body that set fields of an anonymous
// union and an anonymous struct, and default member initializers declared
// inside the anonymous struct (applied by both constructors).
//
// Dispatch: n threads (dispatchThreads). For thread i, with x = x[i] and
// bits[i] the bit pattern of a float y:
//   out[4i]   = x + 0.25          (a.f from `: f(x)`, plus a.lo's default)
//   out[4i+1] = (x + 1) * 2       (a.hi from `: hi(x + 1)`, times a.g's default)
//   out[4i+2] = y                 (b.u = bits[i] in the body, read as b.f)
//   out[4i+3] = x / 2 + 0.25      (b.g = x / 2 in the body, plus b.lo's default)
#include <metal_stdlib>
using namespace metal;

struct feat_cell {
    union {
        float f;
        uint  u;
    };
    struct {
        float lo = 0.25f;
        float hi;
    };
    float g = 2.0f;

    feat_cell(float x) : f(x), hi(x + 1.0f) {}
    feat_cell(uint pattern, float y) {
        u = pattern;
        g = y;
    }
};

kernel void feat_union_constructors(
    device const float* x    [[buffer(0)]],
    device const uint*  bits [[buffer(1)]],
    device float*       out  [[buffer(2)]],
    uint i [[thread_position_in_grid]])
{
    feat_cell a(x[i]);
    feat_cell b(bits[i], x[i] * 0.5f);
    out[4 * i + 0] = a.f + a.lo;
    out[4 * i + 1] = a.hi * a.g;
    out[4 * i + 2] = b.f;
    out[4 * i + 3] = b.g + b.lo;
}
