// A program-scope constant whose initializer calls a helper (a matrix or
// struct constructor: `constant float3x3 kRGB = float3x3(...);`, an array of
// them) has no value either backend can write as a constant, so each kernel
// that reads it (in its body, a helper it calls, or another such constant)
// computes it once at its start, in a constant local of its name. Two steps:
//
//  * compute_constants_in_kernels, before inline_functions: the locals and
//    their initializers (whose helper calls the inliner then inlines);
//  * read_computed_constants, after it (a helper's reads are the kernel's by
//    then): reads of the constant become reads of the local, and the
//    constant leaves the module.
#pragma once

#include "ir/ir.h"

namespace mslport::passes {

void compute_constants_in_kernels(ir::Module& m);
void read_computed_constants(ir::Module& m);

}  // namespace mslport::passes
