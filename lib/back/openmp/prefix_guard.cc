#include "back/openmp/prefix_guard.h"

#include "passes/uniformity.h"

namespace mslport::back::openmp {

using ir::BinaryOp;
using ir::BuiltinId;
using ir::Expr;
using ir::Kernel;
using ir::Param;
using ir::Stmt;
using ir::UnaryOp;

namespace {

// The builtin `e` reads when it is the flat or x index of the work-item in
// its threadgroup: 1 = flat, 2 = x, 0 = neither.
int thread_id_kind(const Kernel& k, const Expr& e) {
  if (e.kind != Expr::Kind::ParamRef || !e.type.is_scalar(ir::ScalarKind::UInt)) return 0;
  const Param& p = k.params[e.index];
  if (p.kind != Param::Kind::Builtin || !p.type.is_scalar()) return 0;
  if (p.builtin == BuiltinId::ThreadIndexInThreadgroup) return 1;
  if (p.builtin == BuiltinId::ThreadPositionInThreadgroup) return 2;
  return 0;
}

bool address_taken(const Kernel& k, int var) {
  bool taken = false;
  if (k.body)
    ir::walk_stmt_exprs(*k.body, [&](const Expr& x) {
      taken = taken || ir::address_taken_variable(x) == var;
      return !taken;
    });
  return taken;
}

// The same value for every work-item, before the loop as inside it.
bool invariant_bound(const Kernel& k, const WorkItemPlan& plan, const Expr& e, const Stmt& body) {
  switch (e.kind) {
    case Expr::Kind::IntLit: case Expr::Kind::BoolLit: return true;
    case Expr::Kind::VarRef:
      return plan.storage[e.index] == Storage::Uniform && !ir::vars_written(body).count(e.index) &&
             !address_taken(k, e.index);
    case Expr::Kind::ParamRef: {
      const Param& p = k.params[e.index];
      if (p.kind == Param::Kind::Builtin) return passes::builtin_uniformity(p.builtin) == passes::Uniformity::Threadgroup;
      return p.kind == Param::Kind::ConstantRef || p.kind == Param::Kind::ConstantValue;
    }
    case Expr::Kind::Unary:
      if (e.unary_op != UnaryOp::Neg && e.unary_op != UnaryOp::Plus && e.unary_op != UnaryOp::Not &&
          e.unary_op != UnaryOp::BitNot)
        return false;
      break;
    case Expr::Kind::Binary:
      if (e.binary_op == BinaryOp::Comma) return false;
      break;
    case Expr::Kind::Member:
      if (e.arrow) return false;
      break;
    case Expr::Kind::Cast: case Expr::Kind::Conditional: case Expr::Kind::Swizzle: break;
    default: return false;  // calls, memory, assignments, collectives
  }
  for (const auto& a : e.args)
    if (!a || !invariant_bound(k, plan, *a, body)) return false;
  return true;
}

}  // namespace

std::optional<PrefixGuard> match_prefix_guard(const Kernel& k, const WorkItemPlan& plan, const Stmt& s) {
  if (s.kind != Stmt::Kind::If || !s.expr || !s.body || (s.else_body && !s.else_body->stmts.empty())) return {};
  const Expr& c = *s.expr;
  if (c.kind != Expr::Kind::Binary || (c.binary_op != BinaryOp::Lt && c.binary_op != BinaryOp::Gt)) return {};
  // `id < n`, or `n > id`.
  const Expr& id = c.binary_op == BinaryOp::Lt ? *c.args[0] : *c.args[1];
  const Expr& n = c.binary_op == BinaryOp::Lt ? *c.args[1] : *c.args[0];
  const int kind = thread_id_kind(k, id);
  if (!kind || !n.type.is_scalar(ir::ScalarKind::UInt) || !invariant_bound(k, plan, n, *s.body)) return {};
  PrefixGuard g;
  g.flat = kind == 1;
  g.bound = &n;
  g.body = s.body.get();
  return g;
}

}  // namespace mslport::back::openmp
