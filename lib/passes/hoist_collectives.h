#pragma once
#include "ir/ir.h"
#include "support/diagnostics.h"
namespace mslport::passes {
// Gives every SIMD-group collective a statement of its own:
//   out[i] = simd_sum(x) * 2;   =>   float simd_tmp = simd_sum(x); out[i] = simd_tmp * 2;
// so that backends can lower a collective as a unit (it is a synchronisation
// point for the SIMD group). A collective that is evaluated conditionally
// (right of && / ||, in an operand of ?:) gets an `if` of its own; one in a
// loop condition is tested at the top of the loop body instead, one in an
// increment at its end. Requires normalize_blocks.
bool hoist_collectives(ir::Kernel& k, DiagEngine& diags);
// True if the statement holds its collective in the canonical place.
bool is_canonical_collective_stmt(const ir::Stmt& s);
}  // namespace mslport::passes
