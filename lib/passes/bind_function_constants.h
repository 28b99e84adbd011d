// Step: reads of a function constant the host sets become reads of the
// kernel's FunctionConstant parameter for it (the front end adds one per
// host-set constant the kernel reads: ir/analysis/function_constant_reads.h),
// and a program-scope constant computed from one becomes its expression,
// evaluated where it is read. The host-set and computed constants then leave
// the module: the backends print only constants with a value.
//
// After inline_functions: a helper's reads are the kernel's by then.
#pragma once

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::passes {

bool bind_function_constants(ir::Module& m, DiagEngine& diags);

}  // namespace mslport::passes
