/* Inputs and float64 references for the examples' kernels
 * (kernels/vector_ops.metal), shared by the three host programs. */
#ifndef EXAMPLES_HOST_REFERENCE_H
#define EXAMPLES_HOST_REFERENCE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* Deterministic values in [-4, 4). */
static inline void fill_inputs(float* v, uint32_t n, uint32_t seed) {
  uint32_t s = seed * 2654435761u + 1u;
  uint32_t i;
  for (i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = (float)((s >> 8) & 0xffff) / 8192.0f - 4.0f;
  }
}

/* 0 when every got[i] is within atol + rtol * |want[i]|; else prints the
 * first mismatch and returns 1. */
static inline int compare(const char* what, const float* got, const double* want, uint32_t n, double atol,
                          double rtol) {
  uint32_t i;
  for (i = 0; i < n; ++i) {
    if (!(fabs((double)got[i] - want[i]) <= atol + rtol * fabs(want[i]))) {
      fprintf(stderr, "%s: element %u is %.9g, expected %.9g\n", what, i, (double)got[i], want[i]);
      return 1;
    }
  }
  printf("%s: %u values match\n", what, n);
  return 0;
}

static inline void saxpy_reference(const float* x, const float* y, float a, uint32_t n, double* out) {
  uint32_t i;
  for (i = 0; i < n; ++i) out[i] = (double)a * x[i] + y[i];
}

static inline void softmax_reference(const float* x, uint32_t rows, uint32_t cols, double* out) {
  uint32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float* xr = x + (size_t)r * cols;
    double m = -INFINITY, s = 0;
    for (c = 0; c < cols; ++c) m = xr[c] > m ? xr[c] : m;
    for (c = 0; c < cols; ++c) s += exp(xr[c] - m);
    for (c = 0; c < cols; ++c) out[(size_t)r * cols + c] = exp(xr[c] - m) / s;
  }
}

/* The kernels' float32 arithmetic against the float64 references: saxpy
 * rounds twice (or once with an fma), softmax sums up to a few hundred
 * exponentials (each with a few ulps of error) in float32. */
#define SAXPY_ATOL 1e-6
#define SAXPY_RTOL 2.4e-7
#define SOFTMAX_ATOL 1e-9
#define SOFTMAX_RTOL 2e-5

#endif
