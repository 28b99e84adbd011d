#pragma once
#include "ir/ir.h"
namespace mslport::passes {
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
// Chosen loops: `for` loops with a threadgroup-uniform trip count, not
// nested in another loop, with no loop, sync, break, continue, return or
// simdgroup_matrix inside, and a bound that is not a literal (small
// constant loops are better unrolled by the C++ compiler). Loops under a
// memory-dependent condition are left alone (their barriers are checked at
// run time). SIMD-group-strided loops (`for (col = lane; col < n; col +=
// 32)`, the mat-vecs) are not chosen: measured slower, since each lane's
// column then lives in an array and every load becomes a gather.
// Returns the number of schedule points inserted.
int insert_loop_schedule_points(ir::Kernel& k);
}  // namespace mslport::passes
