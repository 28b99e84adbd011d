#pragma once
#include "ir/ir.h"
namespace mslport::passes {
// Metal runs the 32 lanes of a SIMD group in lock-step, and kernels in the
// wild rely on it between barriers: e.g. every lane reads `shared[0]`, then
// lane 0 overwrites `shared[0]` with no barrier in between. A work-item loop
// (CPU) or PoCL would let lane 0 finish first and the others read the new
// value. This pass keeps the lock-step order at statement granularity: in
// threadgroup-uniform statement lists, when a statement accesses
// threadgroup memory that an earlier statement since the last barrier read
// and one of the two writes (read-then-write or write-then-read), it
// inserts a threadgroup barrier before it. That only removes interleavings,
// so race-free kernels compute the same results.
// Runs on kernels that already synchronise (after eliminate_returns, before
// predicate_sync).
// Returns the number of barriers inserted.
int insert_lockstep_barriers(ir::Kernel& k);
}  // namespace mslport::passes
