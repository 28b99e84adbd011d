// Raising for the C++/OpenMP backend: rewrites (a copy of) the front end's
// IR step by step and plans the threadgroup function of each kernel, so
// that print/ only prints. raise.cc runs the steps in order; each step is a
// file of this folder.
#pragma once

#include <string>
#include <vector>

#include "back/openmp/raise/loop_plan.h"
#include "back/openmp/raise/sanitize.h"
#include "back/openmp/raise/storage.h"
#include "ir/ir.h"
#include "passes/pipeline.h"
#include "support/diagnostics.h"

namespace mslport::back::openmp {

struct RaiseOptions {
  unsigned sanitize = 0;                              // SanitizeCheck bits; 0: the plain output
  const passes::PipelineOptions* pipeline = nullptr;  // printing / verifying around each step
};

struct RaisedKernel {
  std::string metal_name;  // the runner looks the kernel up by it (module.kernels[i].name is the C++ one)
  StoragePlan storage;     // where each variable lives, what runs once per threadgroup
  LoopPlan loops;          // how each loop over the work-items runs
  SanitizerSites sites;    // sanitizing: the source locations the checker reports
};

struct RaisedModule {
  ir::Module module;
  std::vector<RaisedKernel> kernels;  // parallel to module.kernels
};

// Runs every step on a copy of `source`. Returns false when a step reported errors.
bool raise_module(const ir::Module& source, const RaiseOptions& options, DiagEngine& diags, RaisedModule* out);

}  // namespace mslport::back::openmp
