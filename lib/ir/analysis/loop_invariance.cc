#include "ir/analysis/loop_invariance.h"

namespace mslport::ir::analysis {

const Expr& strip_casts(const Expr& e) { return e.kind == Expr::Kind::Cast ? strip_casts(*e.args[0]) : e; }

bool is_loop(const Stmt& s) {
  return s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::While || s.kind == Stmt::Kind::DoWhile;
}

void note_writes(const Stmt& loop, Writes& w) {
  for (int v : vars_written(loop)) w.vars.insert(v);
  walk_stmt_exprs(loop, [&](const Expr& e) {
    if (writes_operand(e) && e.args[0]->kind == Expr::Kind::ParamRef) w.params.insert(e.args[0]->index);
    // Taking an address lets the loop write the variable through a pointer.
    if (e.kind == Expr::Kind::Unary && e.unary_op == UnaryOp::AddrOf) {
      const Expr* x = e.args[0].get();
      while (x->kind == Expr::Kind::Index || x->kind == Expr::Kind::Member || x->kind == Expr::Kind::Swizzle)
        x = x->args[0].get();
      if (x->kind == Expr::Kind::VarRef) w.vars.insert(x->index);
      if (x->kind == Expr::Kind::ParamRef) w.params.insert(x->index);
    }
    return true;
  });
}

Writes writes_of(const Stmt& loop) {
  Writes w;
  note_writes(loop, w);
  return w;
}

bool reads_written(const Expr& e, const Writes& w) {
  bool found = false;
  walk_exprs(e, [&](const Expr& x) {
    found = found || (x.kind == Expr::Kind::VarRef && w.vars.count(x.index)) ||
            (x.kind == Expr::Kind::ParamRef && w.params.count(x.index));
    return !found;
  });
  return found;
}

bool constant_argument(const Expr& p) {
  const Expr& x = strip_casts(p);
  return x.kind == Expr::Kind::ParamRef && x.type.is_pointer() && x.type.space == AddressSpace::Constant;
}

bool invariant(const Expr& e, const Writes& w) {
  using K = Expr::Kind;
  auto all_args = [&] {
    for (auto& a : e.args)
      if (!invariant(*a, w)) return false;
    return true;
  };
  switch (e.kind) {
    case K::IntLit:
    case K::BoolLit:
    case K::FloatLit:
    case K::GlobalConstRef: return true;
    case K::VarRef: return !w.vars.count(e.index);
    case K::ParamRef: return !w.params.count(e.index);
    case K::Cast:
    case K::Swizzle: return all_args();
    case K::Unary:
      switch (e.unary_op) {
        case UnaryOp::Neg:
        case UnaryOp::Plus:
        case UnaryOp::Not:
        case UnaryOp::BitNot: return all_args();
        case UnaryOp::Deref: return constant_argument(*e.args[0]) && all_args();
        default: return false;
      }
    case K::Member: return (!e.arrow || constant_argument(*e.args[0])) && all_args();
    case K::Binary:
      switch (e.binary_op) {
        case BinaryOp::Comma: return false;
        case BinaryOp::Div:
        case BinaryOp::Rem: {
          const Expr& d = strip_casts(*e.args[1]);
          if (d.kind != K::IntLit || d.int_value == 0) return false;
          return all_args();
        }
        default: return all_args();
      }
    case K::Conditional: return all_args();
    default: return false;  // calls, loads from memory a kernel may write, assignments, ...
  }
}

}  // namespace mslport::ir::analysis
