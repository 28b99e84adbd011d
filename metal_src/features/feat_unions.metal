// Unions, as quantised block formats declare them: a block whose scale and
// minimum share storage with a half2 (an anonymous union holding an
// anonymous struct, so b->d, b->m and b->dm name the same four bytes), and
// a named union that reads a 16-bit pattern as a half and as two bytes.
// Also a struct with an array field and a default member initializer.
//
// Dispatch: n threads (dispatchThreads). For thread i, with b = blocks[i]
// holding eight 4-bit values q (low nibble first) in qs[4]:
//   out[3i]   = d * sum(q) + 8 * m + 0.5          (the block's dequantised sum, plus the default bias)
//   out[3i+1] = dm.x - dm.y                       (= d - m, read through the half2)
//   out[3i+2] = as_half(raw[i]) + (raw[i] >> 8)   (the half, and the union's high byte)
#include <metal_stdlib>
using namespace metal;

typedef struct {
    union {
        struct {
            half d;
            half m;
        };
        half2 dm;
    };
    uchar qs[4];
} feat_block_q4;

typedef union {
    ushort u16;
    half   f16;
    uchar  bytes[2];
} feat_half_bits;

struct feat_pair {
    float v[2];
    float bias = 0.5f;
};

kernel void feat_unions(
    device const feat_block_q4* blocks [[buffer(0)]],
    device const ushort*        raw    [[buffer(1)]],
    device float*               out    [[buffer(2)]],
    uint i [[thread_position_in_grid]])
{
    device const feat_block_q4* b = blocks + i;
    float q = 0.0f;
    for (int j = 0; j < 4; ++j) {
        q += float(b->qs[j] & 0xF) + float(b->qs[j] >> 4);
    }
    float2 dm = float2(b->dm);
    feat_half_bits h;
    h.u16 = raw[i];
    feat_pair p;
    p.v[0] = float(b->d) * q + 8.0f * float(b->m);
    p.v[1] = dm.x - dm.y;
    out[3 * i + 0] = p.v[0] + p.bias;
    out[3 * i + 1] = p.v[1];
    out[3 * i + 2] = float(h.f16) + float(h.bytes[1]);
}
