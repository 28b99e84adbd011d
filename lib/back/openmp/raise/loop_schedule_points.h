#pragma once
#include "ir/ir.h"
namespace mslport::back::openmp {
// For the C++/OpenMP backend only. A work-item loop vectorises over the
// threads of a threadgroup only when it is the innermost loop; a kernel loop
// inside it (`for (s = 0; s < n_slots; s++) sum += w[s] * slots[s*h + i]`)
// keeps it scalar. This pass puts a schedule point (a `lockstep` barrier:
// no Metal ordering point, never emitted for OpenCL) at the top of such
// loops, so the later passes and the backend turn them inside out: the
// kernel loop runs once per threadgroup, with a work-item loop per
// iteration that runs as SIMD lanes.
//
// Work-items of one barrier interval are unordered in Metal, so running
// every thread's iteration k before any thread's iteration k+1 is one of
// the allowed interleavings; each thread's own iterations keep their order.
//
// Chosen loops: `for` loops that every thread reaches, with a
// threadgroup-uniform trip count, not nested in another loop, with no
// sync, break, continue, return or simdgroup_matrix inside, and a bound that
// is not a literal (small constant loops are better unrolled by the C++
// compiler). Loops nested in them stay in the work-item loop (a per-thread
// dot product vectorises better along its own index than across threads).
// Loops under a per-thread condition (`if (tid == 0)`) or a memory-dependent
// one are left alone.
//
// A thread-strided loop (the mat-vecs' `for (uint col = lane; col < n; col
// += 32)`, a cooperative copy `for (i = lid; i < n; i += 256)`) first gets a
// uniform trip count: `start = S; for (it = 0; it < ceil(n / C); it += 1) {
// uint col = start + it * C; if (col < n) B }` (S per-thread, n and C
// uniform and not written by B, C a positive literal or a size builtin).
// Each thread runs the same iterations in the same order, unless S + it * C
// wraps around 2^32, where the original loop misbehaves too. When S is the
// SIMD lane or the thread's index in its threadgroup (a bound the same for
// every thread: 32, or the threadgroup size), the iterations every thread
// completes (`it * C + bound <= n`) come first as a loop of their own
// without the test, then the tail with it: B runs unmasked, and loops in it
// are under no per-thread condition.
//
// Loops nested in a chosen loop are chosen too when their bounds are
// uniform and no per-thread access in them steps by one along their
// variable (`v += eo[k * dim + i]` yes: contiguous across threads; the dot
// product `dot += h[d] * w_row[d]` no: it vectorises along d).
//
// Returns the number of schedule points inserted.
int insert_loop_schedule_points(ir::Kernel& k);

// Calls in the rewritten loops, for the OpenMP printer (all uint, pure):
// the threadgroup's x size and its number of threads (bounds of a strided
// loop's start); strided_trips(N, C) = N == 0 ? 0 : (N - 1) / C + 1, the
// iterations of the rewritten loop; full_trips(N, bound, C) = N >= bound ?
// (N - bound) / C + 1 : 0 in 64 bits, those every thread completes.
constexpr const char* kThreadgroupSizeX = "__mslport_threadgroup_size_x";
constexpr const char* kThreadgroupThreads = "__mslport_threadgroup_threads";
constexpr const char* kStridedTrips = "__mslport_strided_trips";
constexpr const char* kFullTrips = "__mslport_full_trips";
// In the loop of the iterations every thread completes, one statement per
// device or constant buffer (two at most) the body reads at `P[v]` or
// `P[U + v]` (P, U uniform): prefetch_ahead(&P[U + it * C], C * size, bound * size)
// (void), a hint for the lines the threadgroup reads about 16 KB later. A
// threadgroup-level statement: the OpenMP backend emits it once per
// iteration, not per work-item (openmp_rt.h: mslport::prefetch_ahead).
// bf16_matvec on the 2-core VM: 4.0 -> 3.1 ms, its weight row being one
// read stream per core, which the hardware prefetcher alone ran at 7 GB/s.
constexpr const char* kPrefetchAhead = "__mslport_prefetch_ahead";
bool is_prefetch_hint(const ir::Stmt& s);  // an ExprStmt calling kPrefetchAhead
}  // namespace mslport::back::openmp
