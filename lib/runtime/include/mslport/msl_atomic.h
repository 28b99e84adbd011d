// Metal's atomic functions (memory_order_relaxed) for C++ emitted by
// mslport: atomic_int, atomic_uint, atomic_float and atomic_bool are plain
// int32_t, uint32_t, float and bool in memory (Metal's layout), accessed
// only through GCC's and Clang's __atomic builtins, which are real atomics:
// threadgroups run in parallel on OpenMP threads and may contend on one
// device counter. Operations without a builtin (float add and subtract, min
// and max) are compare-and-swap loops.
#ifndef MSLPORT_MSL_ATOMIC_H
#define MSLPORT_MSL_ATOMIC_H

#include <type_traits>

namespace mslport {
namespace msl {

template <class T>
T atomic_load(T* p) {
  T v;
  __atomic_load(p, &v, __ATOMIC_RELAXED);
  return v;
}
template <class T>
void atomic_store(T* p, T v) {
  __atomic_store(p, &v, __ATOMIC_RELAXED);
}
template <class T>
T atomic_exchange(T* p, T v) {
  T old;
  __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
  return old;
}
// Metal's weak form may fail spuriously; the strong one never does, which
// a weak one may also do.
template <class T>
bool atomic_compare_exchange_weak(T* p, T* expected, T desired) {
  return __atomic_compare_exchange(p, expected, &desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

namespace detail {
// `*p = f(*p, v)` as one atomic step; returns the old value.
template <class T, class F>
T atomic_update(T* p, T v, F f) {
  T old = atomic_load(p);
  for (;;) {
    T next = f(old, v);  // a failed exchange reloads `old`
    if (__atomic_compare_exchange(p, &old, &next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return old;
  }
}
}  // namespace detail

template <class T>
T atomic_fetch_add(T* p, T v) {
  if constexpr (std::is_integral_v<T>) return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
  else return detail::atomic_update(p, v, [](T a, T b) { return T(a + b); });
}
template <class T>
T atomic_fetch_sub(T* p, T v) {
  if constexpr (std::is_integral_v<T>) return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);
  else return detail::atomic_update(p, v, [](T a, T b) { return T(a - b); });
}
template <class T>
T atomic_fetch_and(T* p, T v) {
  return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);
}
template <class T>
T atomic_fetch_or(T* p, T v) {
  return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
}
template <class T>
T atomic_fetch_xor(T* p, T v) {
  return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);
}
template <class T>
T atomic_fetch_min(T* p, T v) {
  return detail::atomic_update(p, v, [](T a, T b) { return b < a ? b : a; });
}
template <class T>
T atomic_fetch_max(T* p, T v) {
  return detail::atomic_update(p, v, [](T a, T b) { return a < b ? b : a; });
}

}  // namespace msl
}  // namespace mslport

#endif
