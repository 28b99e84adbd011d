// C++/OpenMP backend: one .cpp (+ .h with the typed entry points) per .metal
// module. Threadgroups run in parallel with OpenMP; the work-items of a
// threadgroup become loops between barriers.
#pragma once
#include <string>

#include "ir/ir.h"
#include "passes/pipeline.h"
#include "support/diagnostics.h"

namespace mslport::back::openmp {

struct EmitOptions {
  std::string tool_version;
  // The file name the .cpp includes, e.g. "moe_gate.h". Empty, or a name
  // `#include` cannot spell: the .cpp carries the declarations itself.
  std::string header_name;
  bool line_directives = false;
  // `mslport check --sanitize`: SanitizeCheck bits (sanitize.h). Nonzero
  // routes threadgroup and device memory accesses through the checker of
  // mslport/sanitizer_rt.h; 0 (the default) leaves the output untouched.
  unsigned sanitize = 0;
  // `mslport ir --print-after=...`, tests: the IR around each step (null: none).
  const passes::PipelineOptions* pipeline = nullptr;
};

struct EmitResult {
  std::string cpp_source;
  std::string header_source;
};

bool emit_module(const ir::Module& module, const EmitOptions& options, DiagEngine& diags, EmitResult* out);

}  // namespace mslport::back::openmp
