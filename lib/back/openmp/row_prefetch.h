// Reads of a work-item loop that the C++ backend asks for ahead of time.
//
// A threadgroup's work-items read a row of a buffer (`slots[s * hidden +
// i]`, i = its x position in the grid) and the next threadgroups of the
// same OpenMP thread (schedule(static): consecutive groups) read the rows
// after it. With several such streams per core the hardware prefetcher
// keeps too little in flight on the 2-core VM (weighted_sum_stacked_f32
// read 39-42 GB/s, 56-60 with a hint 16 KB ahead of each slot's row, by
// hand), so before such a loop each row's first address is computed (as
// for a streamed store, row_step.h) and mslport::prefetch_ahead asks for
// the lines about 16 KB further on.
#pragma once

#include <set>
#include <vector>

#include "back/openmp/work_item_loops.h"
#include "ir/ir.h"

namespace mslport::back::openmp {

struct PrefetchedRead {
  const ir::Expr* read = nullptr;  // P[E], P a device or constant buffer parameter
  int buffer = -1;                 // Kernel::params index of P
  // The loop's declarations E reads, in order (printed with lx = 0).
  std::vector<const ir::Stmt*> index_defs;
};

// The buffers that loop_schedule_points already gives prefetch hints to
// (threadgroup-strided loops): their loops get no second hint.
std::set<int> buffers_with_prefetch_hints(const ir::Kernel& k);

// In the statements every work-item of the loop runs: reads `P[E]` of a
// buffer the loop does not write, where E steps by one element per x and
// depends on the threadgroup's position in the grid (a row every group
// reads alike, like a mat-vec's x, is in cache already), E free of memory
// reads and calls (evaluated for lx = 0, where that work-item might not
// reach the read). One per buffer, at most four, in the order seen.
std::vector<PrefetchedRead> find_prefetched_reads(const ir::Kernel& k, const WorkItemPlan& plan,
                                                  const std::vector<const ir::Stmt*>& loop, int known_true_var,
                                                  const std::set<int>& skip_buffers);

}  // namespace mslport::back::openmp
