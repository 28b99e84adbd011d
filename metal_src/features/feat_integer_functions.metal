// Every integer function of Metal's standard library on several integer
// types (char, uchar, short, ushort, int, uint, long and vectors), each
// result converted to long:
//   out[K * i + j] = f_j(a[i], b[i], c[i])
// with ua, ub the uint bit patterns of a, b. The functions and their order
// are listed in golden/gen/gen_stdlib_features.py.
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

kernel void feat_integer_functions(
    device const int* av  [[buffer(0)]],
    device const int* bv  [[buffer(1)]],
    device const int* cv  [[buffer(2)]],
    device long*      out [[buffer(3)]],
    uint i [[thread_position_in_grid]])
{
    const int a = av[i], b = bv[i], c = cv[i];
    const uint ua = uint(a), ub = uint(b);
    const long lg = long(a) * 65537l;
    const uint K = 46u;
    out[K * i + 0u] = long(abs(a));
    out[K * i + 1u] = long(abs(short(a)));
    out[K * i + 2u] = long(absdiff(a, b));
    out[K * i + 3u] = long(absdiff(uchar(a), uchar(b)));
    out[K * i + 4u] = long(addsat(a, b));
    out[K * i + 5u] = long(addsat(ua, ub));
    out[K * i + 6u] = long(addsat(char(a), char(b)));
    out[K * i + 7u] = long(subsat(a, b));
    out[K * i + 8u] = long(subsat(ua, ub));
    out[K * i + 9u] = long(subsat(ushort(a), ushort(b)));
    out[K * i + 10u] = long(clamp(a, -1000, 1000));
    out[K * i + 11u] = long(clz(ua));
    out[K * i + 12u] = long(clz(uchar(a)));
    out[K * i + 13u] = long(clz(a));
    out[K * i + 14u] = long(ctz(ua));
    out[K * i + 15u] = long(ctz(ushort(b)));
    out[K * i + 16u] = long(extract_bits(ua, 3u, 9u));
    out[K * i + 17u] = long(extract_bits(a, 5u, 7u));
    out[K * i + 18u] = long(extract_bits(a, 0u, 0u));
    out[K * i + 19u] = long(insert_bits(ua, ub, 4u, 12u));
    out[K * i + 20u] = long(insert_bits(a, b, 20u, 12u));
    out[K * i + 21u] = long(hadd(a, b));
    out[K * i + 22u] = long(rhadd(a, b));
    out[K * i + 23u] = long(hadd(ua, ub));
    out[K * i + 24u] = long(madhi(a, b, c));
    out[K * i + 25u] = long(madsat(short(a), short(b), short(c)));
    out[K * i + 26u] = long(madsat(ua, 3u, ub));
    out[K * i + 27u] = long(max(a, b));
    out[K * i + 28u] = long(min(ua, ub));
    out[K * i + 29u] = long(max3(a, b, c));
    out[K * i + 30u] = long(min3(a, b, c));
    out[K * i + 31u] = long(median3(a, b, c));
    out[K * i + 32u] = long(mulhi(a, b));
    out[K * i + 33u] = long(mulhi(ua, ub));
    out[K * i + 34u] = long(mulhi(lg, long(b)));
    out[K * i + 35u] = long(mul24(a >> 8, b >> 8));
    out[K * i + 36u] = long(mad24(a >> 8, b >> 8, c));
    out[K * i + 37u] = long(mul24(ua >> 8, ub >> 8));
    out[K * i + 38u] = long(popcount(ua));
    out[K * i + 39u] = long(popcount(a));
    out[K * i + 40u] = long(reverse_bits(ua));
    out[K * i + 41u] = long(reverse_bits(uchar(a)));
    out[K * i + 42u] = long(rotate(ua, ub));
    out[K * i + 43u] = long(rotate(uchar(a), uchar(3)));
    out[K * i + 44u] = long(popcount(uint4(ua, ub, 0u, 0xFFFFFFFFu)).x + 100u * popcount(uint4(ua, ub, 0u, 0xFFFFFFFFu)).w);
    out[K * i + 45u] = long(extract_bits(int2(a, b), 4u, 8u).y);
}
