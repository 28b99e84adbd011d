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

#include "back/openmp/raise/storage.h"
#include "ir/ir.h"

namespace mslport::back::openmp {

struct PrefetchedRead {
  const ir::Expr* read = nullptr;  // P[E], P a device or constant buffer parameter
  int buffer = -1;                 // Kernel::params index of P
};

struct PrefetchedReads {
  std::vector<PrefetchedRead> reads;
  // The loop's declarations their indices read, in the loop's order
  // (printed with lx = 0).
  std::vector<const ir::Stmt*> index_defs;
};

// What the search needs to know about the whole kernel, found once per
// kernel rather than per work-item loop.
struct RowPrefetchFacts {
  // The buffers loop_schedule_points already gives prefetch hints to
  // (threadgroup-strided loops): their loops get no second hint.
  std::set<int> hinted_buffers;
  // The variables whose value depends on the threadgroup's position in the
  // grid (through any assignment).
  std::set<int> group_dependent_vars;
};
RowPrefetchFacts row_prefetch_facts(const ir::Kernel& k);

// In the statements every work-item of the loop runs: reads `P[E]` of a
// buffer the loop does not write, where E steps by one element per x and
// depends on the threadgroup's position in the grid (a row every group
// reads alike, like a mat-vec's x, is in cache already), E free of memory
// reads and calls (evaluated for lx = 0, where that work-item might not
// reach the read). One per buffer, at most four, in the order seen.
PrefetchedReads find_prefetched_reads(const ir::Kernel& k, const StoragePlan& plan,
                                      const std::vector<const ir::Stmt*>& loop, int known_true_var,
                                      const RowPrefetchFacts& facts);

}  // namespace mslport::back::openmp
