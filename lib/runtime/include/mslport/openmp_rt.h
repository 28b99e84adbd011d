// Support header for C++/OpenMP code emitted by mslport: Metal's vector,
// half and bfloat types, Metal's math functions, thread geometry and the
// SIMD-group collectives over 32-lane groups. Header-only: an emitted .cpp
// builds with `$(mslport --cxx) $(mslport --cflags) -c NAME.cpp` (C++17,
// OpenMP). Hosts include the emitted NAME.h instead, which needs only
// mslport/host.h.
#ifndef MSLPORT_OPENMP_RT_H
#define MSLPORT_OPENMP_RT_H

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "mslport/host.h"
#include "mslport/msl_atomic.h"

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace mslport {

constexpr uint32_t kSimdWidth = 32;     // Apple GPUs: 32 lanes per SIMD group
constexpr uint32_t kMaxThreads = 1024;  // Metal's max threads per threadgroup

// bfloat, half and the vector types vec<T, N> are in mslport/host.h: a host
// sees them in the typed entry points without this header.

template <class T>
struct is_vec : std::false_type {};
template <class T, int N>
struct is_vec<vec<T, N>> : std::true_type {};

#define MSLPORT_VEC_BINOP(op)                                                           \
  template <class T, int N>                                                             \
  vec<T, N> operator op(const vec<T, N>& a, const vec<T, N>& b) {                       \
    vec<T, N> r;                                                                        \
    for (int i = 0; i < N; ++i) r[i] = a[i] op b[i];                                    \
    return r;                                                                           \
  }                                                                                     \
  template <class T, int N, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>> \
  vec<T, N> operator op(const vec<T, N>& a, S b) {                                      \
    vec<T, N> r;                                                                        \
    for (int i = 0; i < N; ++i) r[i] = a[i] op T(b);                                    \
    return r;                                                                           \
  }                                                                                     \
  template <class T, int N, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>> \
  vec<T, N> operator op(S a, const vec<T, N>& b) {                                      \
    vec<T, N> r;                                                                        \
    for (int i = 0; i < N; ++i) r[i] = T(a) op b[i];                                    \
    return r;                                                                           \
  }                                                                                     \
  template <class T, int N>                                                             \
  vec<T, N>& operator op##=(vec<T, N>& a, const vec<T, N>& b) {                         \
    a = a op b;                                                                         \
    return a;                                                                           \
  }                                                                                     \
  template <class T, int N, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>> \
  vec<T, N>& operator op##=(vec<T, N>& a, S b) {                                        \
    a = a op b;                                                                         \
    return a;                                                                           \
  }
MSLPORT_VEC_BINOP(+)
MSLPORT_VEC_BINOP(-)
MSLPORT_VEC_BINOP(*)
MSLPORT_VEC_BINOP(/)
MSLPORT_VEC_BINOP(%)
MSLPORT_VEC_BINOP(&)
MSLPORT_VEC_BINOP(|)
MSLPORT_VEC_BINOP(^)
MSLPORT_VEC_BINOP(<<)
MSLPORT_VEC_BINOP(>>)
#undef MSLPORT_VEC_BINOP

// Metal's relational, equality and logical operators on vectors give bool
// vectors, lane by lane (the front end makes both operands vectors).
#define MSLPORT_VEC_LOGICAL(op)                                      \
  template <class T, int N>                                          \
  vec<bool, N> operator op(const vec<T, N>& a, const vec<T, N>& b) { \
    vec<bool, N> r;                                                  \
    for (int i = 0; i < N; ++i) r[i] = a[i] op b[i];                 \
    return r;                                                        \
  }
MSLPORT_VEC_LOGICAL(<)
MSLPORT_VEC_LOGICAL(>)
MSLPORT_VEC_LOGICAL(<=)
MSLPORT_VEC_LOGICAL(>=)
MSLPORT_VEC_LOGICAL(==)
MSLPORT_VEC_LOGICAL(!=)
MSLPORT_VEC_LOGICAL(&&)
MSLPORT_VEC_LOGICAL(||)
#undef MSLPORT_VEC_LOGICAL
template <int N>
vec<bool, N> operator!(const vec<bool, N>& a) {
  vec<bool, N> r;
  for (int i = 0; i < N; ++i) r[i] = !a[i];
  return r;
}

template <class T, int N>
vec<T, N> operator-(const vec<T, N>& a) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = -a[i];
  return r;
}

// float4(a, b.xy, c): flattens scalars and vectors in order.
namespace detail {
template <class T, int N, class S>
std::enable_if_t<std::is_arithmetic_v<S> || std::is_same_v<S, bfloat> || std::is_same_v<S, half>> put(vec<T, N>& r,
                                                                                                      int& i, S v) {
  r[i++] = T(v);
}
template <class T, int N, class S, int M>
void put(vec<T, N>& r, int& i, const vec<S, M>& v) {
  for (int j = 0; j < M; ++j) r[i++] = T(v[j]);
}
}  // namespace detail
template <class V, class... A>
V make_vec(const A&... a) {
  V r{};
  int i = 0;
  (detail::put(r, i, a), ...);
  if (sizeof...(A) == 1 && i == 1)  // float4(x) splats
    for (int j = 1; j < (int)(sizeof(V) / sizeof(r.x)) && j < 4; ++j) r[j] = r[0];
  return r;
}
template <int... C, class T, int N>
vec<T, (int)sizeof...(C)> swizzle(const vec<T, N>& v) {
  return vec<T, (int)sizeof...(C)>{v[C]...};
}
// A swizzle written (`v.xy = x`, `v.zx += y`): the lanes C of v.
template <class T, int N, int... C>
struct swizzle_ref {
  using value_type = vec<T, (int)sizeof...(C)>;
  vec<T, N>& v;
  operator value_type() const { return value_type{v[C]...}; }
  swizzle_ref& operator=(const value_type& x) {
    int i = 0;
    ((v[C] = x[i++]), ...);
    return *this;
  }
#define MSLPORT_SWIZZLE_OP(op)              \
  template <class X>                        \
  swizzle_ref& operator op##=(const X& x) { \
    return *this = value_type(*this) op x;  \
  }
  MSLPORT_SWIZZLE_OP(+)
  MSLPORT_SWIZZLE_OP(-)
  MSLPORT_SWIZZLE_OP(*)
  MSLPORT_SWIZZLE_OP(/)
  MSLPORT_SWIZZLE_OP(%)
  MSLPORT_SWIZZLE_OP(&)
  MSLPORT_SWIZZLE_OP(|)
  MSLPORT_SWIZZLE_OP(^)
  MSLPORT_SWIZZLE_OP(<<)
  MSLPORT_SWIZZLE_OP(>>)
#undef MSLPORT_SWIZZLE_OP
};
template <int... C, class T, int N>
swizzle_ref<T, N, C...> swizzle_lanes(vec<T, N>& v) {
  return {v};
}
template <class To, class T, int N>
To convert(const vec<T, N>& v) {
  To r{};
  for (int i = 0; i < N; ++i) r[i] = decltype(r.x)(v[i]);
  return r;
}
template <class To, class From>
To as_type(const From& f) {
  static_assert(sizeof(To) == sizeof(From), "as_type needs equal sizes");
  To t;
  std::memcpy(&t, &f, sizeof(To));
  return t;
}

// ------------------------------------------------------ integer division --
// Unsigned 32-bit division and remainder by a value the compiler cannot see
// (a kernel parameter), as work-item loops use them: AVX-512 has no integer
// divide, so `a / b` in a vectorised loop becomes 16 scalar divisions. Here
// the quotient comes from a double-precision reciprocal (hoisted out of the
// loop when b is invariant), truncated, then corrected by one either way:
// |a * (1/b) - a/b| < 2^-20, so the truncation is at most one off, and the
// integer products decide. Exact for every a, b; b == 0, undefined in Metal,
// gives 0xffffffff (the quotient NVIDIA and Apple GPUs return) instead of
// a trap.
inline uint32_t udiv(uint32_t a, uint32_t b) {
  const uint32_t d = b == 0 ? 1u : b;
  const double r = 1.0 / double(d);
  uint32_t q = uint32_t(double(a) * r);
  q -= uint64_t(q) * d > a ? 1u : 0u;
  q += (uint64_t(q) + 1u) * d <= a ? 1u : 0u;
  return b == 0 ? 0xffffffffu : q;
}
inline uint32_t umod(uint32_t a, uint32_t b) { return b == 0 ? a : a - udiv(a, b) * b; }
// Division by a divisor prepared once (back/openmp/invariant_division.h):
// Granlund & Montgomery's round-up method, exact for every numerator, as
// the OpenCL prelude's mslport_udiv_prepare. .x multiplier, .y and .z
// shifts, .w the divisor; a zero divisor gives 0xffffffff as above.
inline vec<uint32_t, 4> udiv_prepare(uint32_t d) {
  const uint32_t l = d > 1u ? 32u - uint32_t(__builtin_clz(d - 1u)) : 0u;  // ceil(log2(d))
  const uint64_t dd = d > 1u ? d : 1u;
  const uint32_t m = uint32_t((((uint64_t(1) << l) - dd) << 32) / dd + 1u);
  return vec<uint32_t, 4>{m, l < 1u ? l : 1u, l > 0u ? l - 1u : 0u, d};
}
inline uint32_t udiv(uint32_t n, const vec<uint32_t, 4>& r) {
  const uint32_t t = uint32_t((uint64_t(n) * r.x) >> 32);
  const uint32_t q = (t + ((n - t) >> r.y)) >> r.z;
  return r.w == 0u ? 0xffffffffu : q;
}
inline uint32_t umod(uint32_t n, const vec<uint32_t, 4>& r) { return r.w == 0u ? n : n - udiv(n, r) * r.w; }
// The same for work-item loops that stay scalar (no `omp simd`): one
// hardware divide beats the reciprocal's conversions there
// (dequant_matvec_4bit_v5 on one thread: 1.10-1.33x, four alternating runs).
constexpr uint32_t udiv_scalar(uint32_t a, uint32_t b) { return b == 0 ? 0xffffffffu : a / b; }
constexpr uint32_t umod_scalar(uint32_t a, uint32_t b) { return b == 0 ? a : a % b; }

// A hint from the threadgroup-strided loops (back/openmp/raise/loop_schedule_points.h,
// kPrefetchAhead): `p` is where this iteration's reads start, the next
// iterations start `stride` bytes apart and each reads `span` bytes; the
// lines of the iteration about kAheadBytes later are asked for now, into L2
// (locality 1: into L1 too, bf16_matvec gained less). A prefetch never
// faults, so addresses past the buffer's end are harmless; they are
// computed as integers, not pointers. The distance: each core streams one
// row after another; bf16_matvec on the 2-core VM read 20-21 GB/s with the
// hint 2 KB (4 of its iterations) ahead, 27-32 with 8, 16 or 32 KB, two
// alternating rounds (bench/records/2026-11-24-cpu2-prefetch-distance.txt);
// 16 KB sits inside that plateau.
inline void prefetch_ahead(const void* p, uint32_t stride, uint32_t span) {
  constexpr uintptr_t kAheadBytes = 16384, kLine = 64;
  const uintptr_t ahead = stride == 0 ? 1 : (kAheadBytes + stride - 1) / stride;  // iterations
  const uintptr_t from = uintptr_t(p) + ahead * stride;
  for (uintptr_t a = from & ~(kLine - 1); a < from + span; a += kLine)
    __builtin_prefetch(reinterpret_cast<const void*>(a), /*rw=*/0, /*locality=*/1);
}

// Trip counts of a thread-strided loop `for (v = start; v < n; v += c)`
// rewritten with a uniform trip count (back/openmp/raise/loop_schedule_points.h): all
// its iterations, and those that every thread completes when every start
// is below `bound` (c > 0).
inline uint32_t strided_trips(uint32_t n, uint32_t c) { return n == 0 ? 0u : (n - 1u) / c + 1u; }
inline uint32_t full_trips(uint32_t n, uint32_t bound, uint32_t c) {
  return n >= bound ? uint32_t((uint64_t(n) - bound) / c + 1u) : 0u;
}

// ------------------------------------------------------------ Metal math --
// Metal compiles with fast math by default; these use the plain libm
// functions (at least as accurate), so golden tolerances cover both.
namespace msl {
// exp(x) without a libm call, so that a work-item loop calling it still
// vectorises (a call to expf stops GCC and Clang unless a vector math
// library is configured). Cephes' expf: x = n ln2 + r with |r| <= ln2/2, a
// degree-6 polynomial for e^r, 2^n applied as two exact power-of-two factors
// so results down to the subnormal range stay right; about 1 ulp over the
// whole range (tests/runtime/openmp_math_test.cc), well inside Metal's
// fast-math exp. Only selects, no branches: NaN, +-inf, overflow to inf and
// underflow to 0 fall out of the clamps.
inline float vector_exp(float x) {
  const float xc = x > 88.8f ? 88.8f : (x < -104.0f ? -104.0f : x);
  const float n = std::floor(xc * 1.44269504088896341f + 0.5f);
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const float z = r * r;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * z + r + 1.0f;
  const int32_t ni = int32_t(n);  // in [-150, 128]
  const int32_t n1 = ni / 2, n2 = ni - n1;
  uint32_t b1 = uint32_t(n1 + 127) << 23, b2 = uint32_t(n2 + 127) << 23;
  float s1, s2;
  std::memcpy(&s1, &b1, 4);
  std::memcpy(&s2, &b2, 4);
  const float e = y * s1 * s2;
  return x != x ? x : e;
}
#define MSLPORT_UNARY(name, expr)                  \
  inline float name(float x) { return expr; }      \
  template <int N>                                 \
  vec<float, N> name(const vec<float, N>& v) {     \
    vec<float, N> r;                               \
    for (int i = 0; i < N; ++i) r[i] = name(v[i]); \
    return r;                                      \
  }
MSLPORT_UNARY(exp, vector_exp(x))
MSLPORT_UNARY(precise_exp, std::exp(x))
MSLPORT_UNARY(exp2, std::exp2(x))
MSLPORT_UNARY(log, std::log(x))
MSLPORT_UNARY(log2, std::log2(x))
MSLPORT_UNARY(sqrt, std::sqrt(x))
MSLPORT_UNARY(rsqrt, 1.0f / std::sqrt(x))
MSLPORT_UNARY(fabs, std::fabs(x))
MSLPORT_UNARY(floor, std::floor(x))
MSLPORT_UNARY(ceil, std::ceil(x))
MSLPORT_UNARY(round, std::round(x))
MSLPORT_UNARY(rint, std::rint(x))
MSLPORT_UNARY(trunc, std::trunc(x))
MSLPORT_UNARY(sin, std::sin(x))
MSLPORT_UNARY(cos, std::cos(x))
MSLPORT_UNARY(tan, std::tan(x))
MSLPORT_UNARY(tanh, std::tanh(x))
MSLPORT_UNARY(fract, x - std::floor(x))
MSLPORT_UNARY(saturate, std::min(std::max(x, 0.0f), 1.0f))
MSLPORT_UNARY(sign, x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f))
#undef MSLPORT_UNARY
inline int32_t abs(int32_t x) { return x < 0 ? int32_t(0u - uint32_t(x)) : x; }  // wraps at INT_MIN, as Metal
inline float abs(float x) { return std::fabs(x); }
template <int N>
vec<float, N> abs(const vec<float, N>& v) {
  return fabs(v);
}
inline bool isnan(float x) { return std::isnan(x); }
inline bool isinf(float x) { return std::isinf(x); }
inline bool isfinite(float x) { return std::isfinite(x); }
inline float pow(float x, float y) { return std::pow(x, y); }
inline float powr(float x, float y) { return std::pow(x, y); }
inline float fmod(float x, float y) { return std::fmod(x, y); }
inline float fma(float a, float b, float c) { return std::fma(a, b, c); }
inline float fmin(float a, float b) { return std::fmin(a, b); }
inline float fmax(float a, float b) { return std::fmax(a, b); }
template <class T>
T min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
T max(T a, T b) {
  return a < b ? b : a;
}
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
template <class T>
T clamp(T x, T lo, T hi) {
  return min(max(x, lo), hi);
}
template <class T>
T select(T a, T b, bool c) {
  return c ? b : a;
}
// Of bool vectors: lane i is c[i] ? b[i] : a[i].
template <class T, int N>
vec<T, N> select(const vec<T, N>& a, const vec<T, N>& b, const vec<bool, N>& c) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = c[i] ? b[i] : a[i];
  return r;
}
template <int N>
bool all(const vec<bool, N>& v) {
  for (int i = 0; i < N; ++i)
    if (!v[i]) return false;
  return true;
}
template <int N>
bool any(const vec<bool, N>& v) {
  for (int i = 0; i < N; ++i)
    if (v[i]) return true;
  return false;
}
inline float mix(float a, float b, float t) { return a + (b - a) * t; }
template <class T, int N>
T dot(const vec<T, N>& a, const vec<T, N>& b) {
  T s = T(0);
  for (int i = 0; i < N; ++i) s += a[i] * b[i];
  return s;
}
template <int N>
vec<float, N> fma(const vec<float, N>& a, const vec<float, N>& b, const vec<float, N>& c) {
  vec<float, N> r;
  for (int i = 0; i < N; ++i) r[i] = std::fma(a[i], b[i], c[i]);
  return r;
}
template <class T, int N>
vec<T, N> max(const vec<T, N>& a, const vec<T, N>& b) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = max(a[i], b[i]);
  return r;
}
template <class T, int N>
vec<T, N> min(const vec<T, N>& a, const vec<T, N>& b) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = min(a[i], b[i]);
  return r;
}
// precise:: asks for correctly rounded-ish results: libm already is.
namespace precise {
using msl::cos;
inline float exp(float x) { return precise_exp(x); }
template <int N>
vec<float, N> exp(const vec<float, N>& v) {
  return precise_exp(v);
}
using msl::exp2;
using msl::log;
using msl::log2;
using msl::pow;
using msl::rsqrt;
using msl::sin;
using msl::sqrt;
using msl::tan;
using msl::tanh;
}  // namespace precise
}  // namespace msl

// ------------------------------------------------------ simdgroup_matrix --
// Metal's simdgroup_matrix<T, 8, 8> is spread over the 32 lanes of a SIMD
// group; its operations require SIMD-uniform operands. Here every lane holds
// the whole matrix and computes the whole result: the same values Metal
// produces, with no cross-lane traffic (the lanes' copies stay identical).
// The elements are kept as row-major pairs so that thread_elements(), a
// lane's two adjacent elements of one row, is a real vec<T, 2> lvalue:
// m[p] is the pair p (row p / (N / 2), columns 2 (p % (N / 2)) and one on).
// A lane writing its pair changes its own copy only; the shared pass
// simd_matrix_elements gathers the lanes' pairs before a tile written that
// way is multiplied or stored.
template <class T, int N>
struct simdgroup_matrix {
  vec<T, 2> pairs[N * N / 2];
  T& at(int i, int j) { return pairs[(i * N + j) / 2][j % 2]; }
  const T& at(int i, int j) const { return pairs[(i * N + j) / 2][j % 2]; }
  vec<T, 2>& operator[](uint32_t p) { return pairs[p]; }
  const vec<T, 2>& operator[](uint32_t p) const { return pairs[p]; }
  static simdgroup_matrix filled(T v) {
    simdgroup_matrix r;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) r.at(i, j) = v;
    return r;
  }
  // simdgroup_matrix<T, C, R>(T dval): dval on the diagonal (MSL 6.7.1).
  static simdgroup_matrix diagonal(T v) {
    simdgroup_matrix r;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) r.at(i, j) = i == j ? v : T(0.0f);
    return r;
  }
};
namespace msl {
// Element (row i, column j) of the block at `origin` (x = column, y = row)
// of a row-major matrix with `stride` elements per row; `transpose` loads /
// stores the block's transpose.
template <class T, int N, class S>
void simdgroup_load(simdgroup_matrix<T, N>& d, const S* src, uint64_t stride, vec<uint64_t, 2> origin, bool transpose) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      uint64_t r = origin.y + (transpose ? j : i), c = origin.x + (transpose ? i : j);
      d.at(i, j) = T(src[r * stride + c]);
    }
}
template <class T, int N, class S>
void simdgroup_store(const simdgroup_matrix<T, N>& a, S* dst, uint64_t stride, vec<uint64_t, 2> origin,
                     bool transpose) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      uint64_t r = origin.y + (transpose ? j : i), c = origin.x + (transpose ? i : j);
      dst[r * stride + c] = S(a.at(i, j));
    }
}
template <class T, int N>
void simdgroup_multiply_accumulate(simdgroup_matrix<T, N>& d, const simdgroup_matrix<T, N>& a,
                                   const simdgroup_matrix<T, N>& b, const simdgroup_matrix<T, N>& c) {
  simdgroup_matrix<T, N> r;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = float(c.at(i, j));
      for (int k = 0; k < N; ++k) acc += float(a.at(i, k)) * float(b.at(k, j));
      r.at(i, j) = T(acc);
    }
  d = r;
}
template <class T, int N>
void simdgroup_multiply(simdgroup_matrix<T, N>& d, const simdgroup_matrix<T, N>& a, const simdgroup_matrix<T, N>& b) {
  simdgroup_multiply_accumulate(d, a, b, simdgroup_matrix<T, N>::filled(T(0)));
}
}  // namespace msl

// -------------------------------------------------------- thread geometry --
// One threadgroup's view of the dispatch; edge threadgroups of Metal's
// dispatchThreads are partial, and threads_per_threadgroup says so.
struct Geometry {
  vec<uint32_t, 3> tg_pos;     // threadgroup_position_in_grid
  vec<uint32_t, 3> tg_size;    // threads_per_threadgroup (this threadgroup's real size)
  vec<uint32_t, 3> full_size;  // dispatch_threads_per_threadgroup
  vec<uint32_t, 3> ngroups;    // threadgroups_per_grid
  vec<uint32_t, 3> grid;       // threads_per_grid
  uint32_t nthreads;           // tg_size.x * tg_size.y * tg_size.z

  Geometry(const mslport_dispatch& d, uint64_t linear_group) {
    for (int i = 0; i < 3; ++i) {
      ngroups[i] = d.threadgroups[i];
      full_size[i] = d.threads_per_tg[i];
      grid[i] = d.grid_threads[i];
    }
    tg_pos.x = uint32_t(linear_group % ngroups.x);
    tg_pos.y = uint32_t((linear_group / ngroups.x) % ngroups.y);
    tg_pos.z = uint32_t(linear_group / (uint64_t(ngroups.x) * ngroups.y));
    for (int i = 0; i < 3; ++i) {
      uint64_t start = uint64_t(tg_pos[i]) * full_size[i];
      uint64_t left = grid[i] > start ? grid[i] - start : 0;
      tg_size[i] = uint32_t(std::min<uint64_t>(full_size[i], left));
    }
    nthreads = tg_size.x * tg_size.y * tg_size.z;
  }
  vec<uint32_t, 3> local_pos(uint32_t wi) const {
    return {wi % tg_size.x, (wi / tg_size.x) % tg_size.y, wi / (tg_size.x * tg_size.y)};
  }
  vec<uint32_t, 3> grid_pos(uint32_t wi) const {
    vec<uint32_t, 3> l = local_pos(wi);
    return {tg_pos.x * full_size.x + l.x, tg_pos.y * full_size.y + l.y, tg_pos.z * full_size.z + l.z};
  }
  // For a work-item loop over only the work-items whose flat index is below
  // n (back/openmp/prefix_guard.h): the end of row (ly, lz)'s x loop.
  uint32_t x_end_below(uint32_t ly, uint32_t lz, uint32_t n) const {
    const uint64_t row_start = uint64_t(tg_size.x) * (ly + uint64_t(tg_size.y) * lz);
    return n <= row_start ? 0u : uint32_t(std::min<uint64_t>(tg_size.x, n - row_start));
  }
  // ... whose x position in the grid (the group's first x plus lx) is below n.
  uint32_t x_end_below_grid(uint32_t n) const {
    const uint64_t start = uint64_t(tg_pos.x) * full_size.x;
    return n <= start ? 0u : uint32_t(std::min<uint64_t>(tg_size.x, n - start));
  }
};

inline uint64_t group_count(const mslport_dispatch& d) {
  return uint64_t(d.threadgroups[0]) * d.threadgroups[1] * d.threadgroups[2];
}

// ------------------------------------------------------ streaming stores --
// Work-item loops whose stores qualify (back/openmp/streaming_stores.h) have
// a second copy that writes each row of values into a buffer on the stack
// and then to memory with non-temporal stores: no read of the output lines
// before they are written (write-allocate), so three streams of traffic
// instead of four for `out = a + b`. The copy runs when the launch writes
// enough through the loop that the lines would leave the cache anyway.

// The largest (highest-level) cache of cpu0 from sysfs, 0 when unknown.
inline uint64_t last_level_cache_bytes() {
  uint64_t best = 0;
  int best_level = 0;
  for (int i = 0; i < 16; ++i) {
    char path[96];
    int level = 0;
    unsigned long long size = 0;
    char unit = 0;
    std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    FILE* f = std::fopen(path, "r");
    if (!f) continue;
    bool ok = std::fscanf(f, "%d", &level) == 1;
    std::fclose(f);
    std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    if (!ok || !(f = std::fopen(path, "r"))) continue;
    ok = std::fscanf(f, "%llu%c", &size, &unit) >= 1;
    std::fclose(f);
    if (!ok) continue;
    if (unit == 'K') size <<= 10;
    else if (unit == 'M') size <<= 20;
    else if (unit == 'G') size <<= 30;
    if (level > best_level || (level == best_level && size > best)) {
      best_level = level;
      best = size;
    }
  }
  return best;
}

// MSLPORT_STREAM_STORES: `auto` (the default) streams a launch that writes
// at least a quarter of the last-level cache through the loop (glibc's
// memcpy uses non-temporal stores from the same size), 8 MiB when the
// cache size is unknown; `always` and `never` force the choice (tests, A/B
// timings).
inline uint64_t stream_threshold_bytes() {
  static const uint64_t threshold = [] {
    const char* mode = std::getenv("MSLPORT_STREAM_STORES");
    if (mode && std::strcmp(mode, "always") == 0) return uint64_t{0};
    if (mode && std::strcmp(mode, "never") == 0) return ~uint64_t{0};
    if (mode && *mode && std::strcmp(mode, "auto") != 0)
      std::fprintf(stderr, "mslport: MSLPORT_STREAM_STORES=%s is not auto, always or never; using auto\n", mode);
    const uint64_t llc = last_level_cache_bytes();
    return llc ? llc / 4 : uint64_t{8} << 20;
  }();
  return threshold;
}

// `work_items`: the stores this threadgroup makes through the loop (a lower
// bound: the work-items it runs now, times the trips of the counted loops
// around it), each of `item_bytes`; every threadgroup of the launch is taken
// to store as much.
inline bool streams_past_cache(const Geometry& geo, uint64_t work_items, uint64_t item_bytes) {
#if defined(__AVX__)
  const unsigned __int128 launch =
      (unsigned __int128)(uint64_t(geo.ngroups.x) * geo.ngroups.y * geo.ngroups.z) * work_items * item_bytes;
  return launch >= stream_threshold_bytes();
#else
  (void)geo;
  (void)work_items;
  (void)item_bytes;
  return false;
#endif
}

// Writes row[0, n) to dst[0, n): plain stores up to dst's first 32-byte
// boundary, 32-byte non-temporal stores, plain stores for the rest.
template <class T>
inline void stream_row(T* dst, const T* row, uint32_t n) {
  uint32_t i = 0;
#if defined(__AVX__)
  if (reinterpret_cast<uintptr_t>(dst) % sizeof(T) == 0) {
    for (; i < n && reinterpret_cast<uintptr_t>(dst + i) % 32 != 0; ++i) dst[i] = row[i];
    constexpr uint32_t kPerStore = 32 / sizeof(T);
    for (; i + kPerStore <= n; i += kPerStore)
      _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i)));
  }
#endif
  for (; i < n; ++i) dst[i] = row[i];
}

// Non-temporal stores are weakly ordered: each OpenMP thread fences once,
// after its last threadgroup, before the launch returns (the kernel never
// reads the buffers they write, so nothing during the launch can see them).
inline void stream_fence() {
#if defined(__AVX__)
  _mm_sfence();
#endif
}

// Rejects geometry Metal would reject, before any thread runs: zero or
// oversized sizes, a grid_threads left unfilled (mslport/host.h).
inline void validate_dispatch(const mslport_dispatch& d) {
  char err[320];
  if (mslport_dispatch_validate(&d, err, sizeof err) != 0) throw std::runtime_error(err);
}

// ------------------------------------------------------------- errors --
// First error raised by any threadgroup; OpenMP regions cannot throw, so
// threadgroups record it here and the entry point rethrows after the loop.
class ErrorSlot {
 public:
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void set(const std::string& msg) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!failed_) {
      msg_ = msg;
      failed_.store(true);
    }
  }
  void rethrow() const {
    if (failed_) throw std::runtime_error(msg_);
  }

 private:
  std::atomic<bool> failed_{false};
  std::mutex mu_;
  std::string msg_;
};

inline std::string divergence_message(const char* where, const Geometry& g) {
  return std::string(where) + ": barrier or SIMD-group function reached in divergent control flow: threads of " +
         "threadgroup (" + std::to_string(g.tg_pos.x) + "," + std::to_string(g.tg_pos.y) + "," +
         std::to_string(g.tg_pos.z) + ") disagree on the condition";
}

template <class T>
T* require_buffer(const mslport_args* a, int index, const char* name) {
  if (!a->buffers[index])
    throw std::runtime_error(std::string("buffer(") + std::to_string(index) + ") '" + name + "' is not bound");
  return static_cast<T*>(a->buffers[index]);
}

// The value of a `constant T&` parameter the host does not bind (its
// [[function_constant(flag)]] is false): zero, never read by the kernel.
template <class T>
const T* absent_value() {
  static const T zero{};
  return &zero;
}

// A pointer that the argument buffer bound at `index` holds, `offset` bytes
// into it: the address of another buffer, stored there by the host.
template <class T>
T* require_argument_buffer_pointer(const mslport_args* a, int index, uint64_t offset, const char* name) {
  const char* where = static_cast<const char*>(require_buffer<const void>(a, index, name));
  if (a->buffer_bytes[index] && a->buffer_bytes[index] < offset + sizeof(void*))
    throw std::runtime_error(std::string("argument buffer(") + std::to_string(index) + ") holds " +
                             std::to_string(a->buffer_bytes[index]) + " bytes, too few for the pointer '" + name +
                             "' at byte " + std::to_string(offset));
  void* p = nullptr;
  std::memcpy(&p, where + offset, sizeof p);
  if (!p)
    throw std::runtime_error(std::string("the pointer '") + name + "' at byte " + std::to_string(offset) +
                             " of argument buffer(" + std::to_string(index) + ") is null");
  return static_cast<T*>(p);
}

// The generic entry's value of a function constant the host sets.
template <class T>
T require_function_constant(const mslport_args* a, uint32_t index, const char* name) {
  for (uint32_t i = 0; a->function_constants && i < a->function_constant_count; ++i) {
    const mslport_function_constant_value& v = a->function_constants[i];
    if (v.index != index) continue;
    if (!v.value)
      throw std::runtime_error(std::string("function constant ") + std::to_string(index) + " '" + name +
                               "' has a null value pointer");
    T out;
    std::memcpy(&out, v.value, sizeof out);
    return out;
  }
  throw std::runtime_error(std::string("function constant '") + name + "' [[function_constant(" +
                           std::to_string(index) +
                           ")]] has no value: the host sets it (mslport_args::function_constants)");
}
template <>
inline bool require_function_constant<bool>(const mslport_args* a, uint32_t index, const char* name) {
  return require_function_constant<uint8_t>(a, index, name) != 0;
}

// The generic entry's size of the dynamic [[threadgroup(index)]] memory.
// Metal has no zero-length threadgroup argument: 0 means the launcher gave
// none (a golden case without that threadgroup_memory entry), and the
// kernel would index memory that is not there.
inline uint32_t require_threadgroup_memory(const mslport_args* a, int index, const char* name) {
  if (a->threadgroup_bytes[index] == 0)
    throw std::runtime_error(std::string("threadgroup(") + std::to_string(index) + ") memory '" + name +
                             "' has 0 bytes: the launch gives none for this [[threadgroup(" + std::to_string(index) +
                             ")]] argument");
  return a->threadgroup_bytes[index];
}

// Dynamic threadgroup memory, one block per OpenMP thread, reused by every
// threadgroup that thread runs.
class ThreadgroupMemory {
 public:
  explicit ThreadgroupMemory(uint32_t bytes) : storage_(lines_for(bytes)) {}
  void* data() { return storage_.data(); }
  // 64-byte lines for `bytes`, plus one: in 64 bits, so that a size near
  // 2^32 does not wrap around to a tiny block.
  static size_t lines_for(uint32_t bytes) { return (size_t{bytes} + 63) / 64 + 1; }

 private:
  struct alignas(64) Line {
    unsigned char b[64];
  };
  std::vector<Line> storage_;
};

// ------------------------------------------------------ SIMD collectives --
// Each collective works on arrays indexed by the thread's linear index in
// its threadgroup: lanes [32g, 32g+32) form SIMD group g (the last one may be
// partial). Only lanes with act[] set take part (Metal's active lanes).
enum class Reduce { Sum, Product, Max, Min, And, Or, Xor };

template <class T>
T reduce_identity(Reduce op) {
  // Vectors (simd_sum(float4)): the first active lane's value replaces it.
  if constexpr (is_vec<T>::value) {
    return T{};
  } else {
    switch (op) {
      case Reduce::Sum:
      case Reduce::Or:
      case Reduce::Xor: return T(0);
      case Reduce::Product: return T(1);
      case Reduce::Max: return std::numeric_limits<T>::lowest();
      case Reduce::Min: return std::numeric_limits<T>::max();
      case Reduce::And:
        if constexpr (std::is_integral_v<T>) return T(~T(0));
        else return T(0);
    }
    return T(0);
  }
}
template <class T>
T reduce_combine(Reduce op, T a, T b) {
  switch (op) {
    case Reduce::Sum: return a + b;
    case Reduce::Product: return a * b;
    case Reduce::Max: return msl::max(a, b);
    case Reduce::Min: return msl::min(a, b);
    case Reduce::And:
      if constexpr (std::is_integral_v<T>) return a & b;
      else return a;
    case Reduce::Or:
      if constexpr (std::is_integral_v<T>) return a | b;
      else return a;
    case Reduce::Xor:
      if constexpr (std::is_integral_v<T>) return a ^ b;
      else return a;
  }
  return a;
}

// Whether every one of the n flags is set: picks the work-item loops that
// need no per-work-item `alive` test (see back/openmp/raise/loop_plan.cc, work_item_loop).
inline bool all_true(const bool* flags, uint32_t n) {
  // A byte-wise AND, which vectorises; `all && flags[i]` stays a scalar
  // loop with an early exit (measured: it cost more than the masked loads).
  unsigned char all = 1;
  for (uint32_t i = 0; i < n; ++i) all &= static_cast<unsigned char>(flags[i]);
  return all != 0;
}

template <class T>
void simd_reduce(Reduce op, const T* in, const bool* act, uint32_t n, T* out) {
  for (uint32_t base = 0; base < n; base += kSimdWidth) {
    uint32_t end = std::min(n, base + kSimdWidth);
    T acc = reduce_identity<T>(op);
    bool any = false;
    for (uint32_t l = base; l < end; ++l)
      if (act[l]) {
        acc = any ? reduce_combine(op, acc, in[l]) : in[l];
        any = true;
      }
    for (uint32_t l = base; l < end; ++l) out[l] = acc;
  }
}
// Inclusive / exclusive prefix over the active lanes, in lane order.
template <class T>
void simd_prefix_sum(bool inclusive, const T* in, const bool* act, uint32_t n, T* out) {
  for (uint32_t base = 0; base < n; base += kSimdWidth) {
    uint32_t end = std::min(n, base + kSimdWidth);
    T acc{};  // zero, scalar or vector
    for (uint32_t l = base; l < end; ++l) {
      if (!act[l]) continue;
      if (inclusive) {
        acc = acc + in[l];
        out[l] = acc;
      } else {
        out[l] = acc;
        acc = acc + in[l];
      }
    }
  }
}
enum class Shuffle { Index, Down, Up, Xor, Broadcast, BroadcastFirst };
// Reads the source lane's value; a source outside the SIMD group leaves the
// lane's own value (Metal: "the lower/upper delta lanes are unchanged").
template <class T>
void simd_shuffle(Shuffle kind, const T* in, const uint32_t* arg, const bool* act, uint32_t n, T* out) {
  for (uint32_t base = 0; base < n; base += kSimdWidth) {
    uint32_t end = std::min(n, base + kSimdWidth);
    uint32_t first = end;
    for (uint32_t l = base; l < end; ++l)
      if (act[l]) {
        first = l;
        break;
      }
    for (uint32_t l = base; l < end; ++l) {
      if (!act[l]) continue;
      int64_t lane = l - base, src = lane;
      switch (kind) {
        case Shuffle::Index:
        case Shuffle::Broadcast: src = arg[l]; break;
        case Shuffle::Down: src = lane + arg[l]; break;
        case Shuffle::Up: src = lane - int64_t(arg[l]); break;
        case Shuffle::Xor: src = lane ^ arg[l]; break;
        case Shuffle::BroadcastFirst: src = int64_t(first) - base; break;
      }
      out[l] = (src >= 0 && base + src < end) ? in[base + src] : in[l];
    }
  }
}
}  // namespace mslport

#include "mslport/msl_collectives.h"
#include "mslport/msl_stdlib.h"

#endif
