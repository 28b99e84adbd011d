#pragma once
#include "ir/intrinsics.h"
#include "ir/ir.h"
#include "support/diagnostics.h"
namespace mslport::passes {
// Moves every barrier and SIMD-group collective into threadgroup-uniform
// control flow, so that a lock-step emulation (OpenCL work-group barriers,
// CPU work-item loops) reaches each one with every thread:
//
//   if (lane < n) { a; s = simd_sum(x); b; }
//   =>  bool mask = lane < n;  if (mask) { a; }  s = simd_sum(x) [mask];  if (mask) { b; }
//
// Collectives get their active-lane mask (Metal: only the lanes that are
// active at that point take part). A threadgroup barrier under a condition
// that provably differs between threads is an error, except under the
// `alive` flag of eliminate_returns (Metal: threads that returned no longer
// take part in barriers). A barrier under a condition that only depends on
// memory contents is kept where it is (checked at run time by the CPU
// backend). Requires hoist_collectives.
bool predicate_sync(const ir::Module& m, ir::Kernel& k, int alive_var, DiagEngine& diags);
// Intrinsic (an ir Call with this spelling, bool(bool)): true on every thread
// if the argument is true on any thread of the threadgroup. Backends lower
// it; predicate_sync uses it for loops whose trip count differs.
constexpr const char* kThreadgroupAny = ir::kThreadgroupAny;
}  // namespace mslport::passes
