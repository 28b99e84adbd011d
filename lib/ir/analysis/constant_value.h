// The value of a scalar expression that needs no run-time input: literals,
// program-scope constants, lanes of constant vectors (`size.x` with
// `constant uint3 size = uint3(4, 20, 1)`), conversions and arithmetic.
// A program-scope scalar whose initializer reads a lane of a constant
// vector is no constant expression in OpenCL C (`((uint3)(4u, 20u,
// 1u)).x`) nor in C++ (the runtime's vectors are not literal types), so
// the front end gives such a constant its value.
#pragma once

#include "ir/ir.h"

namespace mslport::ir::analysis {

// A literal of e's type (IntLit, BoolLit or FloatLit) with e's value, or
// null when e reads anything that varies, or computes in half or bfloat, or
// divides by zero. Integer results wrap to the type's width, float results
// round to float, as the targets compute them.
ExprPtr constant_scalar(const Module& m, const Expr& e);

}  // namespace mslport::ir::analysis
