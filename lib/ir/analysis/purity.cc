#include "ir/analysis/purity.h"

namespace mslport::ir::analysis {
namespace {

void note(const Expr& x, Effects& fx) {
  switch (x.kind) {
    case Expr::Kind::Assign:
      fx.writes = true;
      fx.writes_memory = fx.writes_memory || written_variable(x) < 0;
      break;
    case Expr::Kind::Unary:
      if (is_increment(x.unary_op)) {
        fx.writes = true;
        fx.writes_memory = fx.writes_memory || written_variable(x) < 0;
      }
      if (x.unary_op == UnaryOp::Deref) fx.reads_memory = true;
      if (address_taken_variable(x) >= 0) fx.takes_address = true;
      break;
    case Expr::Kind::Index: fx.reads_memory = true; break;
    case Expr::Kind::Member: fx.reads_memory = fx.reads_memory || x.arrow; break;
    case Expr::Kind::Call:
      fx.calls = true;
      // An atomic function reads and writes the memory it is given.
      if (x.intrinsic != Intrinsic::None && intrinsic_info(x.intrinsic).effect == IntrinsicEffect::Atomic) {
        fx.writes = fx.writes_memory = fx.reads_memory = fx.writes_memory_atomically = true;
      }
      break;
    case Expr::Kind::Collective:
    case Expr::Kind::SimdMatrixOp: fx.synchronises = true; break;
    default: break;
  }
}

}  // namespace

Effects effects_of(const Expr& e) {
  Effects fx;
  walk_exprs(e, [&](const Expr& x) {
    note(x, fx);
    return true;
  });
  return fx;
}

Effects effects_of(const Stmt& s) {
  Effects fx;
  walk_stmt_exprs(s, [&](const Expr& x) {
    note(x, fx);
    return true;
  });
  return fx;
}

bool has_side_effects(const Expr& e) {
  const Effects fx = effects_of(e);
  return fx.writes || fx.synchronises;
}

bool is_repeatable(const Expr& e) {
  const Effects fx = effects_of(e);
  return !fx.writes && !fx.calls && !fx.synchronises;
}

bool is_arithmetic(const Expr& e) {
  const Effects fx = effects_of(e);
  return !fx.writes && !fx.calls && !fx.synchronises && !fx.reads_memory;
}

}  // namespace mslport::ir::analysis
