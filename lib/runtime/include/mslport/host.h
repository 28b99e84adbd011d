/* What a host program needs to call kernels that mslport emitted, and none
 * of the runtime's internals: plain C99 or C++11, no OpenMP. Every emitted
 * NAME.h includes it.
 *
 * C and C++:
 *   the ABI of mslport/kernel_abi.h (mslport_args, mslport_dispatch);
 *   mslport_dispatch_threadgroups(&d, groups xyz, threads xyz, err, len):
 *     Metal's dispatchThreadgroups (the grid is groups x threads);
 *   mslport_dispatch_threads(&d, grid xyz, threads xyz, err, len):
 *     Metal's dispatchThreads (the grid in threads; the threadgroups are
 *     rounded up, and the last one in a dimension may be partial);
 *   mslport_dispatch_validate(&d, err, len): the check every entry point
 *     makes before any thread runs.
 *   Each returns 0, or 1 with a message in err (when err_len > 0).
 * C++ also:
 *   mslport::dispatch_threadgroups({gx, gy, gz}, {tx, ty, tz}) and
 *   mslport::dispatch_threads({nx, ny, nz}, {tx, ty, tz}), throwing
 *   std::invalid_argument with the message;
 *   the Metal value types that typed entry points and structs use:
 *   mslport::vec<T, N> (float4 is vec<float, 4>, with Metal's size and
 *   alignment), mslport::half (_Float16), mslport::bfloat.
 *
 * A type that can appear in a kernel's signature or in a struct of its
 * buffers belongs here, not in openmp_rt.h: the emitted headers are checked
 * to compile with this header alone (ctest emitted_headers_standalone). */
#ifndef MSLPORT_HOST_H
#define MSLPORT_HOST_H

#include <stdint.h>
#include <stdio.h>

#include "mslport/kernel_abi.h"

/* Metal's limit on the threads of one threadgroup. */
#define MSLPORT_MAX_THREADS_PER_THREADGROUP 1024u

/* Writes the message (when there is room) and fails the function. */
#define MSLPORT_DISPATCH_FAIL_(...)                              \
  do {                                                           \
    if (err && err_len > 0) snprintf(err, err_len, __VA_ARGS__); \
    return 1;                                                    \
  } while (0)

static inline int mslport_dispatch_validate(const mslport_dispatch* d, char* err, size_t err_len) {
  static const char axis[3] = {'x', 'y', 'z'};
  uint64_t threads = 1, groups;
  int i;
  if (!d) MSLPORT_DISPATCH_FAIL_("no dispatch (a null pointer)");
  for (i = 0; i < 3; ++i)
    if (d->threads_per_tg[i] == 0)
      MSLPORT_DISPATCH_FAIL_(
          "dispatch: threads_per_tg is (%lu, %lu, %lu), and each dimension must be at least 1 (a zero-initialised "
          "mslport_dispatch? mslport_dispatch_threadgroups and mslport_dispatch_threads fill one)",
          (unsigned long)d->threads_per_tg[0], (unsigned long)d->threads_per_tg[1],
          (unsigned long)d->threads_per_tg[2]);
  for (i = 0; i < 3; ++i) {
    threads *= d->threads_per_tg[i];
    if (threads > MSLPORT_MAX_THREADS_PER_THREADGROUP)
      MSLPORT_DISPATCH_FAIL_(
          "dispatch: threads_per_tg (%lu, %lu, %lu) is more than Metal's %lu threads per threadgroup",
          (unsigned long)d->threads_per_tg[0], (unsigned long)d->threads_per_tg[1], (unsigned long)d->threads_per_tg[2],
          (unsigned long)MSLPORT_MAX_THREADS_PER_THREADGROUP);
  }
  for (i = 0; i < 3; ++i)
    if (d->grid_threads[i] == 0)
      MSLPORT_DISPATCH_FAIL_(
          "dispatch: grid_threads is (%lu, %lu, %lu), and each dimension must be at least 1: it is the grid in "
          "threads, threadgroups x threads_per_tg unless the last threadgroup is partial (as "
          "mslport_dispatch_threadgroups and mslport_dispatch_threads fill it)",
          (unsigned long)d->grid_threads[0], (unsigned long)d->grid_threads[1], (unsigned long)d->grid_threads[2]);
  for (i = 0; i < 3; ++i)
    if (d->threadgroups[i] == 0)
      MSLPORT_DISPATCH_FAIL_("dispatch: threadgroups is (%lu, %lu, %lu), and each dimension must be at least 1",
                             (unsigned long)d->threadgroups[0], (unsigned long)d->threadgroups[1],
                             (unsigned long)d->threadgroups[2]);
  for (i = 0; i < 3; ++i) {
    const uint64_t full = (uint64_t)d->threadgroups[i] * d->threads_per_tg[i];
    const uint64_t needed = ((uint64_t)d->grid_threads[i] + d->threads_per_tg[i] - 1) / d->threads_per_tg[i];
    if (d->grid_threads[i] > full)
      MSLPORT_DISPATCH_FAIL_("dispatch: grid_threads.%c is %lu, more than threadgroups x threads_per_tg = %llu",
                             axis[i], (unsigned long)d->grid_threads[i], (unsigned long long)full);
    if (d->threadgroups[i] != needed)
      MSLPORT_DISPATCH_FAIL_(
          "dispatch: threadgroups.%c is %lu, but a grid of %lu threads in threadgroups of %lu "
          "needs %llu (a threadgroup without threads is not allowed)",
          axis[i], (unsigned long)d->threadgroups[i], (unsigned long)d->grid_threads[i],
          (unsigned long)d->threads_per_tg[i], (unsigned long long)needed);
  }
  /* The entry points count threadgroups in a signed 64-bit integer. */
  groups = (uint64_t)d->threadgroups[0] * d->threadgroups[1];
  if (d->threadgroups[2] > (uint64_t)INT64_MAX / groups)
    MSLPORT_DISPATCH_FAIL_("dispatch: threadgroups (%lu, %lu, %lu) is more than 2^63 - 1 threadgroups",
                           (unsigned long)d->threadgroups[0], (unsigned long)d->threadgroups[1],
                           (unsigned long)d->threadgroups[2]);
  return 0;
}

/* Metal's dispatchThreadgroups: groups_* threadgroups of threads_* threads. */
static inline int mslport_dispatch_threadgroups(mslport_dispatch* d, uint32_t groups_x, uint32_t groups_y,
                                                uint32_t groups_z, uint32_t threads_x, uint32_t threads_y,
                                                uint32_t threads_z, char* err, size_t err_len) {
  static const char axis[3] = {'x', 'y', 'z'};
  const uint32_t g[3] = {groups_x, groups_y, groups_z}, t[3] = {threads_x, threads_y, threads_z};
  int i, over = -1;
  if (!d) MSLPORT_DISPATCH_FAIL_("no dispatch to fill (a null pointer)");
  for (i = 0; i < 3; ++i) {
    const uint64_t grid = (uint64_t)g[i] * t[i];
    d->threadgroups[i] = g[i];
    d->threads_per_tg[i] = t[i];
    d->grid_threads[i] = grid > UINT32_MAX ? 0u : (uint32_t)grid;
    if (grid > UINT32_MAX && over < 0) over = i;
  }
  for (i = 0; i < 3; ++i)
    if (g[i] == 0)
      MSLPORT_DISPATCH_FAIL_("dispatch: threadgroups is (%lu, %lu, %lu), and each dimension must be at least 1",
                             (unsigned long)g[0], (unsigned long)g[1], (unsigned long)g[2]);
  if (over >= 0)
    MSLPORT_DISPATCH_FAIL_(
        "dispatch: %lu threadgroups of %lu threads in %c make %llu threads, more than a grid "
        "holds (2^32 - 1 in each dimension)",
        (unsigned long)g[over], (unsigned long)t[over], axis[over], (unsigned long long)((uint64_t)g[over] * t[over]));
  return mslport_dispatch_validate(d, err, err_len);
}

/* Metal's dispatchThreads: a grid of grid_* threads in threadgroups of
 * threads_*; the last threadgroup in a dimension may be partial. */
static inline int mslport_dispatch_threads(mslport_dispatch* d, uint32_t grid_x, uint32_t grid_y, uint32_t grid_z,
                                           uint32_t threads_x, uint32_t threads_y, uint32_t threads_z, char* err,
                                           size_t err_len) {
  const uint32_t n[3] = {grid_x, grid_y, grid_z}, t[3] = {threads_x, threads_y, threads_z};
  int i;
  if (!d) MSLPORT_DISPATCH_FAIL_("no dispatch to fill (a null pointer)");
  for (i = 0; i < 3; ++i) {
    d->grid_threads[i] = n[i];
    d->threads_per_tg[i] = t[i];
    d->threadgroups[i] = t[i] == 0 ? 0u : (uint32_t)(((uint64_t)n[i] + t[i] - 1) / t[i]);
  }
  return mslport_dispatch_validate(d, err, err_len);
}

#undef MSLPORT_DISPATCH_FAIL_

#ifdef __cplusplus
#include <cstring>
#include <stdexcept>

namespace mslport {

// A size in threadgroups or threads; missing dimensions are 1.
struct dim3 {
  uint32_t x, y, z;
  dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}  // NOLINT: {n} converts
};

inline mslport_dispatch dispatch_threadgroups(dim3 threadgroups, dim3 threads_per_threadgroup) {
  mslport_dispatch d;
  char err[320];
  if (mslport_dispatch_threadgroups(&d, threadgroups.x, threadgroups.y, threadgroups.z, threads_per_threadgroup.x,
                                    threads_per_threadgroup.y, threads_per_threadgroup.z, err, sizeof err) != 0)
    throw std::invalid_argument(err);
  return d;
}

inline mslport_dispatch dispatch_threads(dim3 grid, dim3 threads_per_threadgroup) {
  mslport_dispatch d;
  char err[320];
  if (mslport_dispatch_threads(&d, grid.x, grid.y, grid.z, threads_per_threadgroup.x, threads_per_threadgroup.y,
                               threads_per_threadgroup.z, err, sizeof err) != 0)
    throw std::invalid_argument(err);
  return d;
}

// ------------------------------------------------------------------ bfloat --
// Stored as the upper 16 bits of an IEEE float; converts with
// round-to-nearest-even like Metal.
struct bfloat {
  uint16_t bits;
  bfloat() = default;
  bfloat(float f) {  // NOLINT: implicit like Metal's conversions
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      bits = uint16_t((u >> 16) | 0x40u);  // quiet NaN
    } else {
      u += 0x7fffu + ((u >> 16) & 1u);
      bits = uint16_t(u >> 16);
    }
  }
  operator float() const {
    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};
static_assert(sizeof(bfloat) == 2, "bfloat must be 2 bytes");

// ------------------------------------------------------------------ half --
using half = _Float16;

// --------------------------------------------------------------- vectors --
// Metal's vector types: size and alignment as Metal's (a 3-vector takes the
// room of a 4-vector). Their arithmetic is in openmp_rt.h.
template <class T, int N>
struct vec;
template <class T>
struct alignas(2 * sizeof(T)) vec<T, 2> {
  T x, y;
  T& operator[](int i) { return (&x)[i]; }
  const T& operator[](int i) const { return (&x)[i]; }
};
template <class T>
struct alignas(4 * sizeof(T)) vec<T, 3> {
  T x, y, z;
  T& operator[](int i) { return (&x)[i]; }
  const T& operator[](int i) const { return (&x)[i]; }
};
template <class T>
struct alignas(4 * sizeof(T)) vec<T, 4> {
  T x, y, z, w;
  T& operator[](int i) { return (&x)[i]; }
  const T& operator[](int i) const { return (&x)[i]; }
};

}  // namespace mslport
#endif /* __cplusplus */

#endif /* MSLPORT_HOST_H */
