// Calls the C++/OpenMP port of kernels/vector_ops.metal from C++, through
// the typed entry points that the emitted vector_ops.h declares in
// namespace mslport_kernels: buffers as typed pointers, constant values by
// reference, dynamic threadgroup memory as a byte count, then the dispatch.
// This file needs neither OpenMP nor C++17: only the library that
// mslport_translate() builds from the emitted vector_ops.cpp does.
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "reference.h"
#include "vector_ops.h"

int main() {
  const uint32_t n = 1000, rows = 37, cols = 300, threads = 256;
  int failures = 0;

  // saxpy over a grid of n threads (Metal's dispatchThreads).
  std::vector<float> x(n), y(n);
  std::vector<double> want(size_t(rows) * cols);
  fill_inputs(x.data(), n, 1);
  fill_inputs(y.data(), n, 2);
  saxpy_reference(x.data(), y.data(), 2.5f, n, want.data());
  mslport_kernels::saxpy(x.data(), y.data(), 2.5f, n, mslport::dispatch_threads({n}, {threads}));
  failures += compare("saxpy (C++)", y.data(), want.data(), n, SAXPY_ATOL, SAXPY_RTOL);

  // A bad dispatch is an exception with a message, before any thread runs:
  // a builder refuses what Metal would, and so does every entry point.
  try {
    mslport::dispatch_threadgroups({4}, {64, 32});
    std::fprintf(stderr, "a threadgroup of 2048 threads was accepted\n");
    return 1;
  } catch (const std::invalid_argument& e) {
    std::printf("oversized threadgroup refused: %s\n", e.what());
  }
  try {
    mslport_dispatch zero{};
    mslport_kernels::saxpy(x.data(), y.data(), 2.5f, n, zero);
    std::fprintf(stderr, "a zero-initialised dispatch was accepted\n");
    return 1;
  } catch (const std::exception& e) {
    std::printf("zero dispatch refused: %s\n", e.what());
  }

  // row_softmax: one threadgroup per row (Metal's dispatchThreadgroups).
  std::vector<float> sx(size_t(rows) * cols), out(sx.size());
  fill_inputs(sx.data(), uint32_t(sx.size()), 3);
  softmax_reference(sx.data(), rows, cols, want.data());
  const mslport_kernels::SoftmaxParams p{rows, cols};
  mslport_kernels::row_softmax(sx.data(), out.data(), p, threads / 32 * sizeof(float),
                               mslport::dispatch_threadgroups({rows}, {threads}));
  failures += compare("row_softmax (C++)", out.data(), want.data(), rows * cols, SOFTMAX_ATOL, SOFTMAX_RTOL);
  return failures ? 1 : 0;
}
