// Step: Metal's bool vectors (bool2, bool3, bool4) in OpenCL C, which has
// none. A boolN is a charN holding 1 (true) or 0 (false) in every lane, as a
// value and in memory alike: Metal lays a bool vector out as a byte per lane,
// bool3 padded to 4 bytes, and so does OpenCL a charN (memory_types gives
// every bool vector type its charN). Only the operators that make a bool
// vector need rewriting: OpenCL's vector comparisons and `!`, `&&`, `||` give
// -1 or 0 per lane, in a signed integer vector of the operands' lane size.
//  * `a < b`, `m == n`, `m && n`, `!m` (a bool vector result) ->
//    -convert_charN(op): op as OpenCL computes it, its -1/0 lanes negated to
//    1/0. (half and bfloat compute in float after memory_types, so their
//    comparisons give int lanes.)
//  * boolN(v) of a numeric vector -> -convert_charN(v != 0): nonzero lanes
//    (NaN included) are true, as Metal converts a number to bool.
//  * boolN(x) of a scalar -> (charN)((bool)x).
// A numeric vector from a bool vector (`float4(m)`) is OpenCL's convert_T
// of the 0/1 lanes as it is. any, all and select test a lane's sign bit in
// OpenCL: builtin_calls passes them -m.
// Before memory_types, which reads the Metal types of the operands left here.
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::ExprPtr;
using ir::ScalarKind;
using ir::Type;

bool is_bool_vector(const Type& t) { return t.is_vector() && t.scalar == ScalarKind::Bool; }

// The lanes OpenCL gives a comparison or logical operator of operands with
// Metal lanes `k`: -1/0 in the signed integer of their size.
ScalarKind opencl_truth_lanes(ScalarKind k) {
  if (k == ScalarKind::Half || k == ScalarKind::BFloat) return ScalarKind::Int;  // computed in float
  switch (ir::scalar_size(k)) {
    case 1: return ScalarKind::Char;
    case 2: return ScalarKind::Short;
    case 8: return ScalarKind::Long;
    default: return ScalarKind::Int;
  }
}

// -convert_charN(op): op's -1/0 lanes as the 1/0 of a bool vector.
ExprPtr truth_to_bools(ExprPtr op) {
  const Type bools = Type::vector_of(ScalarKind::Char, op->type.count);
  const ir::SourceLoc loc = op->loc;
  if (op->type != bools) op = make_cast(bools, std::move(op));
  return ir::make_unary(ir::UnaryOp::Neg, bools, std::move(op), loc);
}

ExprPtr lower(ExprPtr e) {
  if (!is_bool_vector(e->type)) return e;
  const int n = e->type.count;
  const ir::SourceLoc loc = e->loc;
  switch (e->kind) {
    case Expr::Kind::Binary: {
      using B = ir::BinaryOp;
      const B op = e->binary_op;
      if (op != B::Lt && op != B::Gt && op != B::Le && op != B::Ge && op != B::Eq && op != B::Ne && op != B::LogAnd &&
          op != B::LogOr)
        return e;
      const Type& operand = e->args[0]->type.is_vector() ? e->args[0]->type : e->args[1]->type;
      e->type = Type::vector_of(opencl_truth_lanes(operand.scalar), n);
      return truth_to_bools(std::move(e));
    }
    case Expr::Kind::Unary:
      if (e->unary_op != ir::UnaryOp::Not) return e;
      e->type = Type::vector_of(ScalarKind::Char, n);
      return truth_to_bools(std::move(e));
    case Expr::Kind::Cast: {
      ExprPtr x = std::move(e->args[0]);
      if (is_bool_vector(x->type)) return x;
      if (x->type.is_scalar()) {
        if (!x->type.is_bool()) x = make_cast(Type::scalar_of(ScalarKind::Bool), std::move(x));
        return make_cast(Type::vector_of(ScalarKind::Char, n), std::move(x));
      }
      // v != 0, against the zero of v's lanes (OpenCL widens the scalar).
      const ScalarKind lane = x->type.scalar;
      ExprPtr zero = ir::is_float(lane) ? make_float(0.0, loc) : ir::make_int(Type::scalar_of(ScalarKind::Int), 0, loc);
      zero->type = Type::scalar_of(lane);
      ExprPtr ne = ir::make_binary(ir::BinaryOp::Ne, Type::vector_of(opencl_truth_lanes(lane), n), std::move(x),
                                   std::move(zero), loc);
      return truth_to_bools(std::move(ne));
    }
    default: return e;
  }
}

}  // namespace

void raise_bool_vectors(RaiseContext&, ir::Kernel& k) { rewrite_kernel_exprs(k, lower); }

}  // namespace mslport::back::opencl
