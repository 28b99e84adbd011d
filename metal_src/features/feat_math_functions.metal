// Every math and common function of Metal's standard library on float (and
// a few of their vector forms), one output each per thread:
//   tr[K * i + j] = f_j(t) for the transcendental functions (and their
//                   precise:: and fast:: forms), t = x[i] in [1/64, 63/64]
//   ex[M * i + j] = f_j(t) for the functions whose result is exact on the
//                   dyadic inputs (rounding, min/max, fma, frexp, modf, ...)
// The functions and their order are listed in golden/gen/gen_stdlib_features.py.
// frexp_parts(t) is m + e with (m, e) = frexp(t); modf_parts(y) is w + 8 f
// with f = modf(y, w).
// Dispatch: threads(n) in threadgroups of 32.
#include <metal_stdlib>
using namespace metal;

float frexp_parts(float t) {
    int e;
    const float m = frexp(t, e);
    return m + float(e);
}

float modf_parts(float y) {
    float w;
    const float f = modf(y, w);
    return w + 8.0f * f;
}

kernel void feat_math_functions(
    device const float* x  [[buffer(0)]],
    device float*       tr [[buffer(1)]],
    device float*       ex [[buffer(2)]],
    uint i [[thread_position_in_grid]])
{
    const float t = x[i];
    const uint K = 38u, M = 36u;
    tr[K * i + 0u] = exp(t);
    tr[K * i + 1u] = exp2(t);
    tr[K * i + 2u] = exp10(t);
    tr[K * i + 3u] = log(1.0f + t);
    tr[K * i + 4u] = log2(1.0f + t);
    tr[K * i + 5u] = log10(1.0f + t);
    tr[K * i + 6u] = sqrt(t);
    tr[K * i + 7u] = rsqrt(t);
    tr[K * i + 8u] = sin(t);
    tr[K * i + 9u] = cos(t);
    tr[K * i + 10u] = tan(t);
    tr[K * i + 11u] = asin(t);
    tr[K * i + 12u] = acos(t);
    tr[K * i + 13u] = atan(t);
    tr[K * i + 14u] = atan2(t, 1.0f - 0.5f * t);
    tr[K * i + 15u] = sinh(t);
    tr[K * i + 16u] = cosh(t);
    tr[K * i + 17u] = tanh(t);
    tr[K * i + 18u] = asinh(t);
    tr[K * i + 19u] = acosh(1.0f + t);
    tr[K * i + 20u] = atanh(0.9f * t);
    tr[K * i + 21u] = sinpi(t);
    tr[K * i + 22u] = cospi(0.4f * t);
    tr[K * i + 23u] = tanpi(0.4f * t);
    tr[K * i + 24u] = pow(1.0f + t, 1.5f + t);
    tr[K * i + 25u] = powr(1.0f + t, t);
    tr[K * i + 26u] = precise::exp(t);
    tr[K * i + 27u] = precise::exp2(t);
    tr[K * i + 28u] = precise::log(1.0f + t);
    tr[K * i + 29u] = precise::log2(1.0f + t);
    tr[K * i + 30u] = precise::sqrt(t);
    tr[K * i + 31u] = precise::rsqrt(t);
    tr[K * i + 32u] = precise::sin(t);
    tr[K * i + 33u] = precise::cos(t);
    tr[K * i + 34u] = precise::tan(t);
    tr[K * i + 35u] = precise::tanh(t);
    tr[K * i + 36u] = precise::pow(1.0f + t, 1.5f + t);
    tr[K * i + 37u] = fast::exp(t);
    ex[M * i + 0u] = fabs(t - 0.5f);
    ex[M * i + 1u] = abs(t - 0.5f);
    ex[M * i + 2u] = floor(8.0f * t);
    ex[M * i + 3u] = ceil(8.0f * t);
    ex[M * i + 4u] = round(8.0f * t - 0.5f);
    ex[M * i + 5u] = rint(8.0f * t - 0.5f);
    ex[M * i + 6u] = trunc(8.0f * t - 3.0f);
    ex[M * i + 7u] = fract(8.0f * t);
    ex[M * i + 8u] = fmod(8.0f * t, 0.75f);
    ex[M * i + 9u] = fmin(t, 0.5f);
    ex[M * i + 10u] = fmax(t, 0.5f);
    ex[M * i + 11u] = min(t, 0.5f);
    ex[M * i + 12u] = max(t, 0.5f);
    ex[M * i + 13u] = fmin3(t, 0.5f, 1.0f - t);
    ex[M * i + 14u] = fmax3(t, 0.5f, 1.0f - t);
    ex[M * i + 15u] = fmedian3(t, 0.5f, 1.0f - t);
    ex[M * i + 16u] = min3(t, 0.5f, 1.0f - t);
    ex[M * i + 17u] = max3(t, 0.5f, 1.0f - t);
    ex[M * i + 18u] = copysign(t, t - 0.5f);
    ex[M * i + 19u] = fdim(t, 0.5f);
    ex[M * i + 20u] = fma(t, t, t);
    ex[M * i + 21u] = mad(t, t, 0.25f);
    ex[M * i + 22u] = divide(t, 0.25f);
    ex[M * i + 23u] = nextafter(t, 2.0f) - t;
    ex[M * i + 24u] = ldexp(t, 3);
    ex[M * i + 25u] = frexp_parts(t);
    ex[M * i + 26u] = modf_parts(8.0f * t);
    ex[M * i + 27u] = saturate(4.0f * t - 1.0f);
    ex[M * i + 28u] = sign(t - 0.5f);
    ex[M * i + 29u] = step(0.5f, t);
    ex[M * i + 30u] = clamp(t, 0.25f, 0.75f);
    ex[M * i + 31u] = mix(t, 1.0f - t, 0.25f);
    ex[M * i + 32u] = smoothstep(0.25f, 0.75f, t);
    ex[M * i + 33u] = select(t, 1.0f - t, t > 0.5f);
    ex[M * i + 34u] = exp(float4(t, 0.5f * t, 1.0f, 0.0f)).x - exp(t);
    ex[M * i + 35u] = dot(clamp(float4(t, 1.0f - t, 0.5f, 2.0f), float4(0.25f), float4(0.75f)), float4(1.0f, 2.0f, 4.0f, 8.0f));
}
