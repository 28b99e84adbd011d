// Metal's bool vectors: bool2, bool3, bool4 and vec<bool, N>.
//  * A comparison of vectors gives a bool vector (relational and equality
//    operators: "Boolean, scalar or vector, matching the operands").
//  * boolN(v) of a numeric vector: lane i is v[i] != 0 (NaN is true, -0 is
//    false); a numeric vector of a bool vector has 1 for true and 0 for false.
//    boolN(b) of a bool widens it; boolN(pieces...) fills the lanes in order.
//  * `!`, `&&`, `||` take bool vectors (a bool operand is widened), lane by
//    lane, and so do `==` and `!=`.
//  * any(m): some lane true; all(m): every lane true; select(a, b, m): lane i
//    is m[i] ? b[i] : a[i].
//  * Lanes and swizzles (m.x, m[i], m.wzyx, m.rg), written too.
//  * Helpers take and return bool vectors.
//  * In memory a bool vector is a byte per lane, bool3 padded to 4 bytes and
//    aligned as 4, bool2 aligned as 2: struct Flags is p at byte 0, w at 4, q
//    at 8, 12 bytes.
//
// Dispatch: n threads (dispatchThreads). For thread i, with x = a[i],
// y = b[i], z = c[i], lt = x < y, nz = bool4(k[i]), mi = m[i]:
//   out[5i + 0] = float4(lt)
//   out[5i + 1] = select(x, y, nz && !mi)
//   out[5i + 2] = float4(bool4(bool2(true, false), x.z >= 0, false))
//                 + 2 float4(lt == nz) + 4 float4(lt != mi) + 8 float4(majority(lt, nz, mi))
//   out[5i + 3] = float4(bool4(z)) + 2 float4(half4(x) <= half4(y)) + 4 float4(bool4(k[i].x))
//   out[5i + 4] = float4(sw), sw = lt.wzyx with sw.xy = mi.zw, then sw[2] = !sw[2]
//   bits[i]: bit 0 any(lt), 1 all(lt), 2 any(nz || true), 3 all(bool4(false) || mi),
//     4 lt[k[i].x & 3], 5 lt.x, 6 any(uint4(k[i]) > 5u), 7 all(flip(lt.xyz, k[i].w > 0))
//   mout[3i] = majority(lt, nz, mi), mout[3i + 1] = bool4(flip(lt.xyz, k[i].w > 0), (lt != mi).w),
//   mout[3i + 2] = select(mi, nz, lt)
//   fout[i].p = f.p && f.q.yz, fout[i].w = f.w + float(all(f.q)), fout[i].q = !f.q lane by lane
//     (the fourth byte of a bool3 is padding, which fout's initial zeros keep)
//   where f = flags[i], majority(x, y, z) = (x && y) || (x && z) || (y && z),
//   flip(v, whole) = whole ? !v : bool3(!v.x, v.yz).
#include <metal_stdlib>
using namespace metal;

struct Flags {
    bool2 p;
    float w;
    bool3 q;
};

static bool4 majority(bool4 x, bool4 y, bool4 z) {
    return (x && y) || (x && z) || (y && z);
}

static vec<bool, 3> flip(vec<bool, 3> v, bool whole) {
    return whole ? !v : bool3(!v.x, v.yz);
}

kernel void feat_bool_vectors(
    device const float4* a     [[buffer(0)]],
    device const float4* b     [[buffer(1)]],
    device const float4* c     [[buffer(2)]],
    device const int4*   k     [[buffer(3)]],
    device const bool4*  m     [[buffer(4)]],
    device const Flags*  flags [[buffer(5)]],
    device float4*       out   [[buffer(6)]],
    device uint*         bits  [[buffer(7)]],
    device bool4*        mout  [[buffer(8)]],
    device Flags*        fout  [[buffer(9)]],
    uint i [[thread_position_in_grid]])
{
    float4 x = a[i], y = b[i], z = c[i];
    int4 ki = k[i];
    bool4 lt = x < y;
    bool4 nz = bool4(ki);
    bool4 mi = m[i];
    bool2 c2 = bool2(true, false);
    bool4 pieces = bool4(c2, x.z >= 0.0f, false);
    bool4 maj = majority(lt, nz, mi);
    vec<bool, 3> fl = flip(lt.xyz, ki.w > 0);

    out[5 * i + 0] = float4(lt);
    out[5 * i + 1] = select(x, y, nz && !mi);
    out[5 * i + 2] = float4(pieces) + 2.0f * float4(lt == nz) + 4.0f * float4(lt != mi) + 8.0f * float4(maj);
    out[5 * i + 3] = float4(bool4(z)) + 2.0f * float4(half4(x) <= half4(y)) + 4.0f * float4(bool4(ki.x));
    bool4 sw = lt.wzyx;
    sw.xy = mi.zw;
    sw[2] = !sw[2];
    out[5 * i + 4] = float4(sw);

    uint r = 0;
    r |= any(lt) ? 1u : 0u;
    r |= all(lt) ? 2u : 0u;
    r |= any(nz || true) ? 4u : 0u;
    r |= all(bool4(false) || mi) ? 8u : 0u;
    r |= lt[ki.x & 3] ? 16u : 0u;
    r |= lt.x ? 32u : 0u;
    r |= any(uint4(ki) > 5u) ? 64u : 0u;
    r |= all(fl) ? 128u : 0u;
    bits[i] = r;

    mout[3 * i] = maj;
    mout[3 * i + 1] = bool4(fl, (lt != mi).w);
    mout[3 * i + 2] = select(mi, nz, lt);

    Flags f = flags[i];
    fout[i].p = f.p && f.q.yz;
    fout[i].w = f.w + float(all(f.q));
    bool3 nq = !f.q;
    fout[i].q.x = nq.x;
    fout[i].q.y = nq.y;
    fout[i].q.z = nq.z;
}
