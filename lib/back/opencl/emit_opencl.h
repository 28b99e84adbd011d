// OpenCL C 1.2 backend: one self-contained .cl per .metal module plus the
// host-side binding description (docs/architecture.md, "OpenCL binding description").
#pragma once
#include <string>

#include "ir/ir.h"
#include "passes/pipeline.h"
#include "support/diagnostics.h"

namespace mslport::back::opencl {

struct EmitOptions {
  std::string tool_version;      // goes into the generated-file header
  bool line_directives = false;  // #line back to the .metal source
  // `mslport ir --print-after=...`, tests: the IR around each step (null: none).
  const passes::PipelineOptions* pipeline = nullptr;
};

struct EmitResult {
  std::string cl_source;
  std::string bindings_json;
};

// Lowers (a copy of) the module for OpenCL and prints it. Returns false on
// errors (reported to diags); outputs are only meaningful on success.
bool emit_module(const ir::Module& module, const EmitOptions& options, DiagEngine& diags, EmitResult* out);

}  // namespace mslport::back::opencl
