// The shared lowering of Metal's execution model, run by both backends on
// their own copy of the module. See docs/architecture.md for what it guarantees.
#pragma once

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::passes {

struct LowerOptions {
  // OpenCL 1.2 launches whole work-groups even for Metal's dispatchThreads:
  // start each kernel with `if (!__mslport_in_grid()) return;` (a Call with
  // that spelling, type bool) before early returns are lowered.
  bool guard_grid = false;
  // C++/OpenMP: insert_loop_schedule_points, so kernel loops inside
  // work-item loops are turned inside out and the work-item loops vectorise.
  bool schedule_loops = false;
};

// Runs, in order: verify, hoist_collectives, [insert_loop_schedule_points], eliminate_returns,
// insert_lockstep_barriers, predicate_sync, verify_sync_placement. Returns false on errors.
bool lower_execution_model(ir::Module& m, ir::Kernel& k, DiagEngine& diags, const LowerOptions& options = {});

}  // namespace mslport::passes
