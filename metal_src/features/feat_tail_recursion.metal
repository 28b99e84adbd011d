// Helper functions that call themselves last (tail calls): a void function
// with a reference parameter, a member function carrying into the next
// level of its object, and a function returning its own call's value.
//
// Dispatch: dispatchThreads n, any threadgroup size. x holds 2 values per
// thread (a = x[2i], b = x[2i + 1]); radix holds 3 values r0, r1, r2.
//   out[4i]     = the sum of a's decimal digits
//   out[4i + 1] = gcd(a, b) (gcd(a, 0) = a)
//   out[4i + 2..4i + 3]: an odometer of three digits in radixes r0, r1, r2,
//     starting at (a % r0, a % r1, a % r2) (most significant first), after
//     b % 1000 is added to its last digit with carries (a carry out of the
//     first digit is lost): out[4i + 2] = d0 * 100 + d1 * 10 + d2, and
//     out[4i + 3] = how many digits the addition and its carries reached (0 when b % 1000
//     is 0).
#include <metal_stdlib>
using namespace metal;

void digit_sum(thread uint& acc, uint n, uint base) {
    if (n == 0) {
        return;
    }
    acc += n % base;
    digit_sum(acc, n / base, base);
}

uint gcd(const uint a, const uint b) {
    if (b == 0) return a;
    return gcd(b, a % b);
}

struct Odometer {
    uint digits[3];
    uint levels;

    void add(int level, uint n, constant uint* radix) thread {
        if (level < 0 || n == 0) return;
        levels += 1;
        uint total = digits[level] + n;
        digits[level] = total % radix[level];
        add(level - 1, total / radix[level], radix);
    }
};

kernel void feat_tail_recursion(device const uint* x [[buffer(0)]], constant uint* radix [[buffer(1)]],
                                device uint* out [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    const uint a = x[2 * i], b = x[2 * i + 1];
    uint acc = 0;
    digit_sum(acc, a, 10u);
    Odometer o;
    for (int d = 0; d < 3; ++d) o.digits[d] = a % radix[d];
    o.levels = 0;
    o.add(2, b % 1000u, radix);
    out[4 * i] = acc;
    out[4 * i + 1] = gcd(a, b);
    out[4 * i + 2] = o.digits[0] * 100 + o.digits[1] * 10 + o.digits[2];
    out[4 * i + 3] = o.levels;
}
