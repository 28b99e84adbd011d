#pragma once
#include "ir/intrinsics.h"
#include "ir/ir.h"
namespace mslport::passes {
// In a kernel with barriers or SIMD-group collectives, a thread that returns
// early must still be present (inactive) at every later synchronisation
// point of a lock-step emulation. This pass turns returns that are not
// threadgroup-uniform into a per-thread flag:
//   if (i >= n) return; rest;   =>   bool alive = true;
//                                    if (i >= n) alive = false;
//                                    if (alive) { rest; }
// Inside loops without synchronisation the return also breaks out; inside
// loops with synchronisation the thread keeps iterating, inactive.
// Returns the new flag's variable index, or -1 if nothing changed.
// Requires normalize_blocks.
int eliminate_returns(ir::Kernel& k);
constexpr const char* kAliveVarName = ir::kAliveVarName;
}  // namespace mslport::passes
