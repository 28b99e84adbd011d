// Structural checks on the IR, run between the front end and the passes and
// again after them (Tint/naga style): a failure here is a bug in mslport,
// reported as "internal error" with the offending node's location.
#pragma once
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::ir {
bool verify_kernel(const Module& m, const Kernel& k, DiagEngine& diags);
bool verify_function(const Module& m, const Function& f, DiagEngine& diags);
bool verify_module(const Module& m, DiagEngine& diags);
}  // namespace mslport::ir
