// The shared lowering of Metal's execution model, run by both backends on
// their own copy of the module. See docs/architecture.md for what it guarantees.
#pragma once

#include "ir/ir.h"
#include "passes/pipeline.h"
#include "support/diagnostics.h"

namespace mslport::passes {

struct LowerOptions {
  // OpenCL 1.2 launches whole work-groups even for Metal's dispatchThreads:
  // start each kernel with `if (!__mslport_in_grid()) return;` (a Call with
  // that spelling, type bool) before early returns are lowered.
  bool guard_grid = false;
};

// The shared lowering, in the order below, in two halves so that a backend
// can run steps of its own between them (back/*/raise/raise.cc):
//  1. lower_statements: verify, normalize_blocks, [grid_guard],
//     hoist_collectives: every collective a statement of its own;
//  2. lower_synchronisation: eliminate_returns, lockstep_barriers,
//     predicate_sync, then verify_sync_placement (the IR verifier and the
//     check that no synchronisation is left in divergent code).
// Each returns false when a step reported errors.
bool lower_statements(Pipeline& p, ir::Module& m, ir::Kernel& k, const LowerOptions& options);
bool lower_synchronisation(Pipeline& p, ir::Module& m, ir::Kernel& k);
// Both halves, unobserved (tests of the shared passes).
bool lower_execution_model(ir::Module& m, ir::Kernel& k, DiagEngine& diags, const LowerOptions& options = {});

}  // namespace mslport::passes
