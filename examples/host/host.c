/* Calls the C++/OpenMP port of kernels/vector_ops.metal from C, through the
 * C entry points that the emitted vector_ops.h declares:
 *
 *   int mslport_entry_KERNEL(const mslport_args* args, const mslport_dispatch* dispatch,
 *                            char* err, size_t err_len);
 *
 * args->buffers[i] is the buffer of Metal index i (for `constant T&`, a
 * pointer to the value), args->threadgroup_bytes[i] the size of dynamic
 * threadgroup memory i; the dispatch comes from mslport/host.h's builders.
 * vector_ops.h lists each kernel's arguments by index. */
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "vector_ops.h"

/* SoftmaxParams as Metal lays it out (vector_ops.h describes it). */
struct softmax_params {
  uint32_t rows;
  uint32_t cols;
};
_Static_assert(sizeof(struct softmax_params) == 8, "Metal size of SoftmaxParams");

enum { N = 1000, ROWS = 37, COLS = 300, THREADS = 256 };

int main(void) {
  static float x[N], y[N], sx[ROWS * COLS], sout[ROWS * COLS];
  static double want[ROWS * COLS];
  const float a = 2.5f;
  const uint32_t n = N;
  const struct softmax_params p = {ROWS, COLS};
  char err[512];
  mslport_args args;
  mslport_dispatch d;
  int failures = 0;

  /* saxpy over a grid of n threads (dispatchThreads): 4 threadgroups of
   * 256, the last one partial. */
  fill_inputs(x, N, 1);
  fill_inputs(y, N, 2);
  saxpy_reference(x, y, a, N, want);
  memset(&args, 0, sizeof args);
  args.buffers[0] = x;
  args.buffers[1] = y;
  args.buffers[2] = (void*)&a;
  args.buffers[3] = (void*)&n;
  if (mslport_dispatch_threads(&d, n, 1, 1, THREADS, 1, 1, err, sizeof err) != 0 ||
      mslport_entry_saxpy(&args, &d, err, sizeof err) != 0) {
    fprintf(stderr, "saxpy: %s\n", err);
    return 1;
  }
  failures += compare("saxpy (C)", y, want, N, SAXPY_ATOL, SAXPY_RTOL);

  /* A zero-initialised dispatch is refused with a message before any
   * thread runs. */
  memset(&d, 0, sizeof d);
  if (mslport_entry_saxpy(&args, &d, err, sizeof err) == 0 || !strstr(err, "zero-initialised")) {
    fprintf(stderr, "a zero-initialised dispatch was not refused as expected (message: %s)\n", err);
    return 1;
  }
  printf("zero dispatch refused: %s\n", err);

  /* row_softmax: one threadgroup per row (dispatchThreadgroups), and one
   * float of threadgroup memory per SIMD group of 32 threads. */
  fill_inputs(sx, ROWS * COLS, 3);
  softmax_reference(sx, ROWS, COLS, want);
  memset(&args, 0, sizeof args);
  args.buffers[0] = sx;
  args.buffers[1] = sout;
  args.buffers[2] = (void*)&p;
  args.threadgroup_bytes[0] = THREADS / 32 * sizeof(float);
  if (mslport_dispatch_threadgroups(&d, ROWS, 1, 1, THREADS, 1, 1, err, sizeof err) != 0 ||
      mslport_entry_row_softmax(&args, &d, err, sizeof err) != 0) {
    fprintf(stderr, "row_softmax: %s\n", err);
    return 1;
  }
  failures += compare("row_softmax (C)", sout, want, ROWS * COLS, SOFTMAX_ATOL, SOFTMAX_RTOL);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
