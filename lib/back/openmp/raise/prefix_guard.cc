#include "back/openmp/raise/prefix_guard.h"

#include <set>

#include "ir/analysis/uniformity.h"

namespace mslport::back::openmp {

using ir::BinaryOp;
using ir::BuiltinId;
using ir::Expr;
using ir::Kernel;
using ir::Param;
using ir::Stmt;
using ir::UnaryOp;

namespace {

// Which index `e` is (prefix_guard.h), if any.
std::optional<PrefixGuard::Index> thread_index(const Kernel& k, const Expr& e) {
  if (!e.type.is_scalar(ir::ScalarKind::UInt)) return {};
  const Expr* ref = &e;
  bool x_of_vector = false;
  if (e.kind == Expr::Kind::Swizzle && e.components.size() == 1 && e.components[0] == 0) {
    ref = e.args[0].get();
    x_of_vector = true;
  }
  if (ref->kind != Expr::Kind::ParamRef) return {};
  const Param& p = k.params[ref->index];
  if (p.kind != Param::Kind::Builtin || p.type.is_scalar() == x_of_vector) return {};
  if (p.builtin == BuiltinId::ThreadIndexInThreadgroup && !x_of_vector) return PrefixGuard::Index::Flat;
  if (p.builtin == BuiltinId::ThreadPositionInThreadgroup) return PrefixGuard::Index::X;
  if (p.builtin == BuiltinId::ThreadPositionInGrid) return PrefixGuard::Index::GridX;
  return {};
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

// The same value for every work-item, before the loop as inside it
// (`written`: the variables the guarded statements write).
bool invariant_bound(const Kernel& k, const StoragePlan& plan, const Expr& e, const std::set<int>& written) {
  switch (e.kind) {
    case Expr::Kind::IntLit:
    case Expr::Kind::BoolLit: return true;
    case Expr::Kind::VarRef:
      return plan.storage[e.index] == Storage::Uniform && !written.count(e.index) && !address_taken(k, e.index);
    case Expr::Kind::ParamRef: {
      const Param& p = k.params[e.index];
      if (p.kind == Param::Kind::Builtin)
        return ir::analysis::builtin_uniformity(p.builtin) == ir::analysis::Uniformity::Threadgroup;
      return ir::is_dispatch_constant(p);
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
    case Expr::Kind::Cast:
    case Expr::Kind::Conditional:
    case Expr::Kind::Swizzle: break;
    default: return false;  // calls, memory, assignments, collectives
  }
  for (const auto& a : e.args)
    if (!a || !invariant_bound(k, plan, *a, written)) return false;
  return true;
}

// `id op n` with `op` (Lt, or Ge for the return form) or its mirror.
std::optional<PrefixGuard> match_bound(const Kernel& k, const StoragePlan& plan, const Stmt& test, BinaryOp op,
                                       BinaryOp mirrored, std::vector<const Stmt*> body) {
  const Expr& c = *test.expr;
  if (c.kind != Expr::Kind::Binary || (c.binary_op != op && c.binary_op != mirrored)) return {};
  const Expr& id = c.binary_op == op ? *c.args[0] : *c.args[1];
  const Expr& n = c.binary_op == op ? *c.args[1] : *c.args[0];
  const auto index = thread_index(k, id);
  std::set<int> written;
  for (const Stmt* b : body)
    for (int v : ir::vars_written(*b)) written.insert(v);
  if (!index || !n.type.is_scalar(ir::ScalarKind::UInt) || !invariant_bound(k, plan, n, written)) return {};
  PrefixGuard g;
  g.index = *index;
  g.bound = &n;
  g.body = std::move(body);
  g.test = &test;
  return g;
}

}  // namespace

std::optional<PrefixGuard> match_prefix_guard(const Kernel& k, const StoragePlan& plan, const Stmt& s) {
  if (s.kind != Stmt::Kind::If || !s.expr || !s.body || (s.else_body && !s.else_body->stmts.empty())) return {};
  std::vector<const Stmt*> body;
  for (auto& b : s.body->stmts) body.push_back(b.get());
  return match_bound(k, plan, s, BinaryOp::Lt, BinaryOp::Gt, std::move(body));
}

std::optional<PrefixGuard> match_prefix_return(const Kernel& k, const StoragePlan& plan,
                                               const std::vector<const Stmt*>& region) {
  if (region.size() < 2) return {};
  const Stmt& s = *region[0];
  if (s.kind != Stmt::Kind::If || !s.expr || !s.body || (s.else_body && !s.else_body->stmts.empty()) ||
      s.body->stmts.size() != 1 || s.body->stmts[0]->kind != Stmt::Kind::Return)
    return {};
  return match_bound(k, plan, s, BinaryOp::Ge, BinaryOp::Le,
                     std::vector<const Stmt*>(region.begin() + 1, region.end()));
}

}  // namespace mslport::back::openmp
