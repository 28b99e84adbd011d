// Metal's standard library functions for C++ emitted by mslport, for every
// type ir/intrinsic_table.def says Metal has them (float, half, bfloat and
// their vectors; the integers and theirs), beside the float fast paths of
// openmp_rt.h. half and bfloat compute in float and round the result once,
// within the half-ulp of their own precision Metal's half functions allow.
// Vectors apply the scalar function lane by lane.
#ifndef MSLPORT_MSL_STDLIB_H
#define MSLPORT_MSL_STDLIB_H

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace mslport {
namespace msl {

namespace detail {
template <class T>
struct is_float_like : std::bool_constant<std::is_same_v<T, half> || std::is_same_v<T, bfloat>> {};
// half and bfloat: the types whose functions compute in float.
template <class T>
using if_narrow = std::enable_if_t<is_float_like<T>::value, int>;
template <class T>
using if_float = std::enable_if_t<is_float_like<T>::value || std::is_same_v<T, float>, int>;
template <class T>
using if_int = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int>;
template <class T>
using unsigned_of = std::make_unsigned_t<T>;
template <class T>
constexpr int bits_of() {
  return int(sizeof(T) * 8);
}
}  // namespace detail

// One-operand float functions: float computes in float; half and bfloat
// through float; vectors lane by lane. `ff` is the float version (x: float).
#define MSLPORT_FLOAT1(name, ff)                   \
  inline float name(float x) { return ff; }        \
  template <class T, detail::if_narrow<T> = 0>     \
  T name(T h) {                                    \
    return T(name(float(h)));                      \
  }                                                \
  template <class T, int N>                        \
  vec<T, N> name(const vec<T, N>& v) {             \
    vec<T, N> r;                                   \
    for (int i = 0; i < N; ++i) r[i] = name(v[i]); \
    return r;                                      \
  }
// The same for a float function openmp_rt.h already defines (float and
// float vectors): the half and bfloat forms.
#define MSLPORT_NARROW1(name)                         \
  template <class T, detail::if_narrow<T> = 0>        \
  T name(T h) {                                       \
    return T(name(float(h)));                         \
  }                                                   \
  template <class T, int N, detail::if_narrow<T> = 0> \
  vec<T, N> name(const vec<T, N>& v) {                \
    vec<T, N> r;                                      \
    for (int i = 0; i < N; ++i) r[i] = name(v[i]);    \
    return r;                                         \
  }
#define MSLPORT_FLOAT2(name, ff)                           \
  inline float name(float x, float y) { return ff; }       \
  template <class T, detail::if_narrow<T> = 0>             \
  T name(T a, T b) {                                       \
    return T(name(float(a), float(b)));                    \
  }                                                        \
  template <class T, int N>                                \
  vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) { \
    vec<T, N> r;                                           \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i]);   \
    return r;                                              \
  }
#define MSLPORT_NARROW2(name)                              \
  template <class T, detail::if_narrow<T> = 0>             \
  T name(T a, T b) {                                       \
    return T(name(float(a), float(b)));                    \
  }                                                        \
  template <class T, int N, detail::if_narrow<T> = 0>      \
  vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) { \
    vec<T, N> r;                                           \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i]);   \
    return r;                                              \
  }
#define MSLPORT_FLOAT3(name, ff)                                               \
  inline float name(float x, float y, float z) { return ff; }                  \
  template <class T, detail::if_narrow<T> = 0>                                 \
  T name(T a, T b, T c) {                                                      \
    return T(name(float(a), float(b), float(c)));                              \
  }                                                                            \
  template <class T, int N>                                                    \
  vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) { \
    vec<T, N> r;                                                               \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i], c[i]);                 \
    return r;                                                                  \
  }

// ---- math --------------------------------------------------------------------
// sinpi/cospi: the argument reduced exactly (x - 2 round(x / 2) is exact in
// float), so large arguments keep their meaning.
inline float pi_reduced(float x) { return x - 2.0f * std::rint(0.5f * x); }
MSLPORT_FLOAT1(exp10, std::pow(10.0f, x))
MSLPORT_FLOAT1(log10, std::log10(x))
MSLPORT_FLOAT1(asin, std::asin(x))
MSLPORT_FLOAT1(acos, std::acos(x))
MSLPORT_FLOAT1(atan, std::atan(x))
MSLPORT_FLOAT1(sinh, std::sinh(x))
MSLPORT_FLOAT1(cosh, std::cosh(x))
MSLPORT_FLOAT1(asinh, std::asinh(x))
MSLPORT_FLOAT1(acosh, std::acosh(x))
MSLPORT_FLOAT1(atanh, std::atanh(x))
MSLPORT_FLOAT1(sinpi, float(std::sin(3.14159265358979323846 * double(pi_reduced(x)))))
MSLPORT_FLOAT1(cospi, float(std::cos(3.14159265358979323846 * double(pi_reduced(x)))))
MSLPORT_FLOAT1(tanpi, float(std::tan(3.14159265358979323846 * double(pi_reduced(x)))))
MSLPORT_NARROW1(exp)
MSLPORT_NARROW1(exp2)
MSLPORT_NARROW1(log)
MSLPORT_NARROW1(log2)
MSLPORT_NARROW1(sqrt)
MSLPORT_NARROW1(rsqrt)
MSLPORT_NARROW1(sin)
MSLPORT_NARROW1(cos)
MSLPORT_NARROW1(tan)
MSLPORT_NARROW1(tanh)
MSLPORT_NARROW1(fabs)
MSLPORT_NARROW1(floor)
MSLPORT_NARROW1(ceil)
MSLPORT_NARROW1(round)
MSLPORT_NARROW1(rint)
MSLPORT_NARROW1(trunc)
MSLPORT_NARROW1(saturate)
MSLPORT_NARROW1(sign)
// fract: below 1, as Metal's (x - floor(x) rounds to 1 just below an integer).
inline float fract_below_one(float x) { return std::fmin(x - std::floor(x), 0x1.fffffep-1f); }
template <class T, detail::if_narrow<T> = 0>
T fract(T h) {
  // 1 - ulp of the narrow type, so that the result rounds below 1 there too.
  const float below = std::is_same_v<T, half> ? 0x1.ffcp-1f : 0x1.fep-1f;
  return T(std::fmin(fract_below_one(float(h)), below));
}
template <class T, int N, detail::if_narrow<T> = 0>
vec<T, N> fract(const vec<T, N>& v) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = fract(v[i]);
  return r;
}
MSLPORT_FLOAT2(atan2, std::atan2(x, y))
MSLPORT_FLOAT2(copysign, std::copysign(x, y))
MSLPORT_FLOAT2(fdim, std::fdim(x, y))
MSLPORT_FLOAT2(nextafter, std::nextafter(x, y))
MSLPORT_FLOAT2(divide, x / y)
MSLPORT_NARROW2(pow)
MSLPORT_NARROW2(powr)
MSLPORT_NARROW2(fmod)
MSLPORT_NARROW2(fmin)
MSLPORT_NARROW2(fmax)
template <int N>
vec<float, N> pow(const vec<float, N>& a, const vec<float, N>& b) {
  vec<float, N> r;
  for (int i = 0; i < N; ++i) r[i] = pow(a[i], b[i]);
  return r;
}
template <int N>
vec<float, N> powr(const vec<float, N>& a, const vec<float, N>& b) {
  return pow(a, b);
}
template <int N>
vec<float, N> fmod(const vec<float, N>& a, const vec<float, N>& b) {
  vec<float, N> r;
  for (int i = 0; i < N; ++i) r[i] = fmod(a[i], b[i]);
  return r;
}
template <int N>
vec<float, N> fmin(const vec<float, N>& a, const vec<float, N>& b) {
  vec<float, N> r;
  for (int i = 0; i < N; ++i) r[i] = fmin(a[i], b[i]);
  return r;
}
template <int N>
vec<float, N> fmax(const vec<float, N>& a, const vec<float, N>& b) {
  vec<float, N> r;
  for (int i = 0; i < N; ++i) r[i] = fmax(a[i], b[i]);
  return r;
}
MSLPORT_FLOAT3(fmin3, std::fmin(std::fmin(x, y), z))
MSLPORT_FLOAT3(fmax3, std::fmax(std::fmax(x, y), z))
MSLPORT_FLOAT3(fmedian3, std::fmax(std::fmin(x, y), std::fmin(std::fmax(x, y), z)))
template <class T, detail::if_narrow<T> = 0>
T fma(T a, T b, T c) {
  return T(std::fma(float(a), float(b), float(c)));
}
template <class T, int N, detail::if_narrow<T> = 0>
vec<T, N> fma(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = fma(a[i], b[i], c[i]);
  return r;
}
template <class T, detail::if_float<T> = 0>
T ldexp(T x, int32_t e) {
  return T(std::ldexp(float(x), e));
}
template <class T, detail::if_float<T> = 0>
T frexp(T x, int32_t& e) {
  int ex = 0;
  const T m = T(std::frexp(float(x), &ex));
  e = int32_t(ex);
  return m;
}
// sincos: the sine, the cosine through `c`; half in float, rounded once;
// vectors lane by lane.
inline float sincos(float x, float& c) {
  c = std::cos(x);
  return std::sin(x);
}
template <class T, detail::if_narrow<T> = 0>
T sincos(T x, T& c) {
  float cf = 0.0f;
  const float s = sincos(float(x), cf);
  c = T(cf);
  return T(s);
}
template <class T, int N>
vec<T, N> sincos(const vec<T, N>& x, vec<T, N>& c) {
  vec<T, N> s;
  for (int i = 0; i < N; ++i) s[i] = sincos(x[i], c[i]);
  return s;
}
// ilogb: the unbiased exponent; half's values are floats exactly, with the
// same exponents (a subnormal half is a normal float: its own exponent).
inline int32_t ilogb(float x) { return int32_t(std::ilogb(x)); }
template <class T, detail::if_narrow<T> = 0>
int32_t ilogb(T x) {
  return ilogb(float(x));
}
template <class T, int N>
vec<int32_t, N> ilogb(const vec<T, N>& x) {
  vec<int32_t, N> r;
  for (int i = 0; i < N; ++i) r[i] = ilogb(x[i]);
  return r;
}
template <class T, detail::if_float<T> = 0>
T modf(T x, T& whole) {
  float w = 0.0f;
  const T f = T(std::modf(float(x), &w));
  whole = T(w);
  return f;
}
// frexp and modf of vectors: lane by lane.
template <class T, int N>
vec<T, N> frexp(const vec<T, N>& x, vec<int32_t, N>& e) {
  vec<T, N> m;
  for (int i = 0; i < N; ++i) m[i] = frexp(x[i], e[i]);
  return m;
}
template <class T, int N>
vec<T, N> modf(const vec<T, N>& x, vec<T, N>& whole) {
  vec<T, N> f;
  for (int i = 0; i < N; ++i) f[i] = modf(x[i], whole[i]);
  return f;
}

// ---- integer -----------------------------------------------------------------
// Lane by lane for integer vectors.
#define MSLPORT_INT_LANES1(name)                   \
  template <class T, int N, detail::if_int<T> = 0> \
  vec<T, N> name(const vec<T, N>& a) {             \
    vec<T, N> r;                                   \
    for (int i = 0; i < N; ++i) r[i] = name(a[i]); \
    return r;                                      \
  }
#define MSLPORT_INT_LANES2(name)                           \
  template <class T, int N, detail::if_int<T> = 0>         \
  vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) { \
    vec<T, N> r;                                           \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i]);   \
    return r;                                              \
  }
#define MSLPORT_INT_LANES3(name)                                               \
  template <class T, int N, detail::if_int<T> = 0>                             \
  vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) { \
    vec<T, N> r;                                                               \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i], c[i]);                 \
    return r;                                                                  \
  }

// abs of the other integer types (openmp_rt.h has int32_t), wrapping at the minimum.
template <class T, detail::if_int<T> = 0, std::enable_if_t<!std::is_same_v<T, int32_t>, int> = 0>
T abs(T x) {
  if constexpr (std::is_unsigned_v<T>) return x;
  else return T(x < 0 ? T(detail::unsigned_of<T>(0) - detail::unsigned_of<T>(x)) : x);
}
MSLPORT_INT_LANES1(abs)
template <class T, detail::if_float<T> = 0, std::enable_if_t<!std::is_same_v<T, float>, int> = 0>
T abs(T x) {
  return T(std::fabs(float(x)));
}
template <class T, int N, detail::if_narrow<T> = 0>
vec<T, N> abs(const vec<T, N>& v) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = abs(v[i]);
  return r;
}
template <class T, detail::if_int<T> = 0>
detail::unsigned_of<T> absdiff(T a, T b) {
  using U = detail::unsigned_of<T>;
  return a > b ? U(U(a) - U(b)) : U(U(b) - U(a));
}
template <class T, int N, detail::if_int<T> = 0>
vec<detail::unsigned_of<T>, N> absdiff(const vec<T, N>& a, const vec<T, N>& b) {
  vec<detail::unsigned_of<T>, N> r;
  for (int i = 0; i < N; ++i) r[i] = absdiff(a[i], b[i]);
  return r;
}
template <class T, detail::if_int<T> = 0>
T addsat(T a, T b) {
  T r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  if constexpr (std::is_unsigned_v<T>) return std::numeric_limits<T>::max();
  else return b > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}
MSLPORT_INT_LANES2(addsat)
template <class T, detail::if_int<T> = 0>
T subsat(T a, T b) {
  T r;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  if constexpr (std::is_unsigned_v<T>) return T(0);
  else return b < 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}
MSLPORT_INT_LANES2(subsat)
template <class T, detail::if_int<T> = 0>
T clz(T x) {
  using U = detail::unsigned_of<T>;
  const U u = U(x);
  int n = 0;
  for (int b = detail::bits_of<T>() - 1; b >= 0 && !((u >> b) & U(1)); --b) ++n;
  return T(n);
}
MSLPORT_INT_LANES1(clz)
template <class T, detail::if_int<T> = 0>
T ctz(T x) {
  using U = detail::unsigned_of<T>;
  const U u = U(x);
  int n = 0;
  for (int b = 0; b < detail::bits_of<T>() && !((u >> b) & U(1)); ++b) ++n;
  return T(n);
}
MSLPORT_INT_LANES1(ctz)
template <class T, detail::if_int<T> = 0>
T popcount(T x) {
  using U = detail::unsigned_of<T>;
  U u = U(x);
  int n = 0;
  for (; u; u &= U(u - 1)) ++n;
  return T(n);
}
MSLPORT_INT_LANES1(popcount)
template <class T, detail::if_int<T> = 0>
T reverse_bits(T x) {
  using U = detail::unsigned_of<T>;
  const U u = U(x);
  U r = 0;
  for (int b = 0; b < detail::bits_of<T>(); ++b) r = U(r | (((u >> b) & U(1)) << (detail::bits_of<T>() - 1 - b)));
  return T(r);
}
MSLPORT_INT_LANES1(reverse_bits)
// Bits [offset, offset + bits) of x, sign-extended for signed types; Metal
// leaves offset + bits past the width undefined.
template <class T, detail::if_int<T> = 0>
T extract_bits(T x, uint32_t offset, uint32_t bits) {
  using U = detail::unsigned_of<T>;
  constexpr int W = detail::bits_of<T>();
  if (bits == 0) return T(0);
  const U u = U(U(x) << (W - offset - bits));
  if constexpr (std::is_signed_v<T>) return T(T(u) >> (W - bits));
  else return T(u >> (W - bits));
}
template <class T, int N, detail::if_int<T> = 0>
vec<T, N> extract_bits(const vec<T, N>& x, uint32_t o, uint32_t b) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = extract_bits(x[i], o, b);
  return r;
}
template <class T, detail::if_int<T> = 0>
T insert_bits(T base, T insert, uint32_t offset, uint32_t bits) {
  using U = detail::unsigned_of<T>;
  constexpr int W = detail::bits_of<T>();
  if (bits == 0) return base;
  const U mask = U(U(U(~U(0)) >> (W - bits)) << offset);
  return T(U(U(base) & U(~mask)) | U(U(U(insert) << offset) & mask));
}
template <class T, int N, detail::if_int<T> = 0>
vec<T, N> insert_bits(const vec<T, N>& base, const vec<T, N>& ins, uint32_t o, uint32_t b) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = insert_bits(base[i], ins[i], o, b);
  return r;
}
// hadd and rhadd without overflow: (a + b) >> 1 and (a + b + 1) >> 1.
template <class T, detail::if_int<T> = 0>
T hadd(T a, T b) {
  return T((a >> 1) + (b >> 1) + (a & b & T(1)));
}
MSLPORT_INT_LANES2(hadd)
template <class T, detail::if_int<T> = 0>
T rhadd(T a, T b) {
  return T((a >> 1) + (b >> 1) + ((a | b) & T(1)));
}
MSLPORT_INT_LANES2(rhadd)
// The high half of the double-width product.
template <class T, detail::if_int<T> = 0>
T mulhi(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return T((W(a) * W(b)) >> 64);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return T((W(a) * W(b)) >> detail::bits_of<T>());
  }
}
MSLPORT_INT_LANES2(mulhi)
template <class T, detail::if_int<T> = 0>
T madhi(T a, T b, T c) {
  return T(detail::unsigned_of<T>(mulhi(a, b)) + detail::unsigned_of<T>(c));
}
MSLPORT_INT_LANES3(madhi)
// a * b + c computed exactly, then saturated.
template <class T, detail::if_int<T> = 0>
T madsat(T a, T b, T c) {
  using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
  const W r = W(a) * W(b) + W(c);
  const W lo = W(std::numeric_limits<T>::min()), hi = W(std::numeric_limits<T>::max());
  if constexpr (std::is_signed_v<T>) return T(r < lo ? lo : (r > hi ? hi : r));
  else return T(r > hi ? hi : r);
}
MSLPORT_INT_LANES3(madsat)
template <class T, detail::if_int<T> = 0>
T mul24(T a, T b) {
  return T(int64_t(a) * int64_t(b));
}
MSLPORT_INT_LANES2(mul24)
template <class T, detail::if_int<T> = 0>
T mad24(T a, T b, T c) {
  return T(int64_t(a) * int64_t(b) + int64_t(c));
}
MSLPORT_INT_LANES3(mad24)
template <class T, detail::if_int<T> = 0>
T rotate(T v, T n) {
  using U = detail::unsigned_of<T>;
  constexpr int W = detail::bits_of<T>();
  const int s = int(U(n) % W);
  const U u = U(v);
  return T(s == 0 ? u : U(U(u << s) | U(u >> (W - s))));
}
MSLPORT_INT_LANES2(rotate)
template <class T, detail::if_int<T> = 0>
T max3(T a, T b, T c) {
  return max(max(a, b), c);
}
template <class T, detail::if_int<T> = 0>
T min3(T a, T b, T c) {
  return min(min(a, b), c);
}
template <class T, detail::if_int<T> = 0>
T median3(T a, T b, T c) {
  return max(min(a, b), min(max(a, b), c));
}
MSLPORT_INT_LANES3(max3)
MSLPORT_INT_LANES3(min3)
MSLPORT_INT_LANES3(median3)
// max3 / min3 of floats are Metal's fmax3 / fmin3.
template <class T, detail::if_float<T> = 0>
T max3(T a, T b, T c) {
  return fmax3(a, b, c);
}
template <class T, detail::if_float<T> = 0>
T min3(T a, T b, T c) {
  return fmin3(a, b, c);
}
template <class T, detail::if_float<T> = 0>
T median3(T a, T b, T c) {
  return fmedian3(a, b, c);
}
template <class T, int N, detail::if_float<T> = 0>
vec<T, N> max3(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) {
  return fmax3(a, b, c);
}
template <class T, int N, detail::if_float<T> = 0>
vec<T, N> min3(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) {
  return fmin3(a, b, c);
}
// clamp lane by lane (openmp_rt.h's min and max serve every scalar type).
template <class T, int N>
vec<T, N> clamp(const vec<T, N>& x, const vec<T, N>& lo, const vec<T, N>& hi) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = clamp(x[i], lo[i], hi[i]);
  return r;
}

// ---- relational --------------------------------------------------------------
inline bool all(bool b) { return b; }
inline bool any(bool b) { return b; }
template <class T, detail::if_narrow<T> = 0>
bool isnan(T x) {
  return std::isnan(float(x));
}
template <class T, detail::if_narrow<T> = 0>
bool isinf(T x) {
  return std::isinf(float(x));
}
template <class T, detail::if_narrow<T> = 0>
bool isfinite(T x) {
  return std::isfinite(float(x));
}
template <class T, detail::if_float<T> = 0>
bool isnormal(T x) {
  // A narrow type's own normal range, not float's.
  const float a = std::fabs(float(x));
  const float smallest = std::is_same_v<T, half> ? 0x1.0p-14f : 0x1.0p-126f;
  return std::isfinite(a) && a >= smallest;
}
template <class T, detail::if_float<T> = 0>
bool signbit(T x) {
  return std::signbit(float(x));
}

// isordered / isunordered: Metal's (x == x) && (y == y) and its negation.
template <class T, detail::if_float<T> = 0>
bool isordered(T x, T y) {
  return !std::isnan(float(x)) && !std::isnan(float(y));
}
template <class T, detail::if_float<T> = 0>
bool isunordered(T x, T y) {
  return std::isnan(float(x)) || std::isnan(float(y));
}

// ---- geometric ---------------------------------------------------------------
template <class T>
vec<T, 3> cross(const vec<T, 3>& a, const vec<T, 3>& b) {
  return vec<T, 3>{T(a.y * b.z - a.z * b.y), T(a.z * b.x - a.x * b.z), T(a.x * b.y - a.y * b.x)};
}
template <class T, int N>
T length_squared(const vec<T, N>& x) {
  return dot(x, x);
}
template <class T, int N>
T length(const vec<T, N>& x) {
  return T(std::sqrt(float(dot(x, x))));
}
template <class T, int N>
T distance_squared(const vec<T, N>& a, const vec<T, N>& b) {
  return length_squared(a - b);
}
template <class T, int N>
T distance(const vec<T, N>& a, const vec<T, N>& b) {
  return length(a - b);
}
template <class T, int N>
vec<T, N> normalize(const vec<T, N>& x) {
  const float inv = 1.0f / std::sqrt(float(dot(x, x)));
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = T(float(x[i]) * inv);
  return r;
}
// faceforward, reflect and refract (MSL 6.8) compute in float, half lanes
// rounded once at the end: within Metal's half precision, and the same
// values as the OpenCL backend, which computes half in float too.
namespace detail {
template <class T, int N>
float dot_f(const vec<T, N>& a, const vec<T, N>& b) {
  float s = 0.0f;
  for (int k = 0; k < N; ++k) s += float(a[k]) * float(b[k]);
  return s;
}
}  // namespace detail
// faceforward(n, i, nref): n where dot(nref, i) < 0, else -n.
template <class T, int N>
vec<T, N> faceforward(const vec<T, N>& n, const vec<T, N>& i, const vec<T, N>& nref) {
  const bool keep = detail::dot_f(nref, i) < 0.0f;
  vec<T, N> r;
  for (int k = 0; k < N; ++k) r[k] = keep ? n[k] : T(-float(n[k]));
  return r;
}
// reflect(i, n): i - 2 dot(nn, i) nn with nn = normalize(n), as MSL 6.8
// defines it (it normalises n itself).
template <class T, int N>
vec<T, N> reflect(const vec<T, N>& i, const vec<T, N>& n) {
  const float inv = 1.0f / std::sqrt(detail::dot_f(n, n));
  float nn[N], d = 0.0f;
  for (int k = 0; k < N; ++k) {
    nn[k] = float(n[k]) * inv;
    d += nn[k] * float(i[k]);
  }
  vec<T, N> r;
  for (int k = 0; k < N; ++k) r[k] = T(float(i[k]) - 2.0f * d * nn[k]);
  return r;
}
// refract(i, n, eta): with k = 1 - eta^2 (1 - dot(n, i)^2), the zero vector
// where k < 0 (total internal reflection), else eta i - (eta dot(n, i) +
// sqrt(k)) n.
template <class T, int N, class E>
vec<T, N> refract(const vec<T, N>& i, const vec<T, N>& n, E eta_t) {
  const float eta = float(eta_t), d = detail::dot_f(n, i);
  const float k = 1.0f - eta * eta * (1.0f - d * d);
  vec<T, N> r;
  if (k < 0.0f) {
    for (int c = 0; c < N; ++c) r[c] = T(0.0f);
    return r;
  }
  const float s = eta * d + std::sqrt(k);
  for (int c = 0; c < N; ++c) r[c] = T(eta * float(i[c]) - s * float(n[c]));
  return r;
}
template <class T, detail::if_float<T> = 0>
T length(T x) {
  return T(std::fabs(float(x)));
}
template <class T, detail::if_float<T> = 0>
T length_squared(T x) {
  return T(float(x) * float(x));
}
template <class T, detail::if_float<T> = 0>
T distance(T a, T b) {
  return T(std::fabs(float(a) - float(b)));
}
template <class T, detail::if_float<T> = 0>
T distance_squared(T a, T b) {
  const float d = float(a) - float(b);
  return T(d * d);
}

// ---- common ------------------------------------------------------------------
MSLPORT_FLOAT2(step, y < x ? 0.0f : 1.0f)
MSLPORT_FLOAT3(smoothstep, [&] {
  const float t = std::fmin(std::fmax((z - x) / (y - x), 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}())
template <class T, detail::if_narrow<T> = 0>
T mix(T a, T b, T t) {
  return T(mix(float(a), float(b), float(t)));
}
template <class T, int N>
vec<T, N> mix(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& t) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = mix(a[i], b[i], t[i]);
  return r;
}

// ---- simdgroup_matrix with operands of different element types ---------------
// (half or bfloat tiles into a float accumulator): summed in float, the
// result rounded once to the destination's type, as openmp_rt.h's.
template <class TD, class TA, class TB, class TC, int N>
void simdgroup_multiply_accumulate(simdgroup_matrix<TD, N>& d, const simdgroup_matrix<TA, N>& a,
                                   const simdgroup_matrix<TB, N>& b, const simdgroup_matrix<TC, N>& c) {
  simdgroup_matrix<TD, N> r;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = float(c.at(i, j));
      for (int k = 0; k < N; ++k) acc += float(a.at(i, k)) * float(b.at(k, j));
      r.at(i, j) = TD(acc);
    }
  d = r;
}
template <class TD, class TA, class TB, int N>
void simdgroup_multiply(simdgroup_matrix<TD, N>& d, const simdgroup_matrix<TA, N>& a,
                        const simdgroup_matrix<TB, N>& b) {
  simdgroup_multiply_accumulate(d, a, b, simdgroup_matrix<TD, N>::filled(TD(0)));
}

#undef MSLPORT_FLOAT1
#undef MSLPORT_NARROW1
#undef MSLPORT_FLOAT2
#undef MSLPORT_NARROW2
#undef MSLPORT_FLOAT3
#undef MSLPORT_INT_LANES1
#undef MSLPORT_INT_LANES2
#undef MSLPORT_INT_LANES3

}  // namespace msl
}  // namespace mslport

#endif
