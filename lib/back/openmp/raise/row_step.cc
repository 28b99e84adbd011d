#include "back/openmp/raise/row_step.h"

#include <functional>
#include <utility>

namespace mslport::back::openmp {
namespace {

using ir::BinaryOp;
using ir::BuiltinId;
using ir::Expr;
using ir::Stmt;

bool is_wide_int(const ir::Type& t) {
  return t.is_scalar() && (ir::is_signed_int(t.scalar) || ir::is_unsigned_int(t.scalar)) &&
         ir::scalar_size(t.scalar) >= 4;
}

}  // namespace

std::vector<const Stmt*> statements_every_item_runs(const std::vector<const Stmt*>& loop, int known_true_var) {
  std::vector<const Stmt*> flat;
  bool left = false;
  std::function<void(const Stmt&)> add = [&](const Stmt& s) {
    if (left) return;
    bool leaves = false;
    ir::walk_stmts(s, [&](const Stmt& x) {
      leaves = leaves || x.kind == Stmt::Kind::Return || x.kind == Stmt::Kind::Break || x.kind == Stmt::Kind::Continue;
      return !leaves;
    });
    if (leaves) {
      left = true;
      return;
    }
    if (s.kind == Stmt::Kind::Block) {
      for (auto& c : s.stmts) add(*c);
    } else if (s.kind == Stmt::Kind::If && known_true_var >= 0 && s.expr->kind == Expr::Kind::VarRef &&
               s.expr->index == known_true_var && (!s.else_body || s.else_body->stmts.empty())) {
      add(*s.body);
    } else {
      flat.push_back(&s);
    }
  };
  for (auto* s : loop) add(*s);
  return flat;
}

RowStep::RowStep(const ir::Kernel& k, const StoragePlan& plan, const std::vector<const Stmt*>& loop)
    : k_(k), plan_(plan), loop_(loop) {
  std::map<int, int> writes;
  for (auto* s : loop)
    for (int v : ir::vars_written(*s)) ++writes[v];
  for (auto* s : loop)
    if (s->kind == Stmt::Kind::Decl && s->expr && writes[s->var] == 1 && plan.storage[s->var] == Storage::Local)
      defs_[s->var] = s;
}

std::set<int> RowStep::take_used() const { return std::exchange(used_, {}); }

std::vector<const Stmt*> RowStep::defs_in_order(const std::set<int>& used) const {
  std::vector<const Stmt*> out;
  for (auto* d : loop_)
    if (d->kind == Stmt::Kind::Decl && used.count(d->var)) out.push_back(d);
  return out;
}

std::optional<int64_t> RowStep::of(const Expr& e, int depth) const {
  if (depth > 32) return std::nullopt;
  if (plan_.tg_evaluable(k_, e)) return 0;
  auto step = [&](const Expr& x) { return of(x, depth + 1); };
  auto carried = [&](std::optional<int64_t> s) -> std::optional<int64_t> {
    if (!s || (*s != 0 && !is_wide_int(e.type))) return std::nullopt;
    return s;
  };
  auto all_zero = [&]() -> std::optional<int64_t> {
    for (auto& a : e.args) {
      auto s = step(*a);
      if (!s || *s != 0) return std::nullopt;
    }
    return 0;
  };
  switch (e.kind) {
    case Expr::Kind::IntLit:
    case Expr::Kind::BoolLit:
    case Expr::Kind::FloatLit: return 0;
    case Expr::Kind::ParamRef: {
      const ir::Param& p = k_.params[e.index];
      if (p.kind != ir::Param::Kind::Builtin || !p.type.is_scalar()) return std::nullopt;
      switch (p.builtin) {
        case BuiltinId::ThreadPositionInGrid:
        case BuiltinId::ThreadPositionInThreadgroup:
        case BuiltinId::ThreadIndexInThreadgroup: return 1;
        default: return std::nullopt;  // the SIMD lane wraps every 32
      }
    }
    case Expr::Kind::Swizzle: {
      // thread_position_in_grid.x and friends: x steps, y and z are the row's.
      const Expr& v = *e.args[0];
      if (e.components.size() != 1 || v.kind != Expr::Kind::ParamRef) return all_zero();
      const ir::Param& p = k_.params[v.index];
      if (p.kind != ir::Param::Kind::Builtin ||
          (p.builtin != BuiltinId::ThreadPositionInGrid && p.builtin != BuiltinId::ThreadPositionInThreadgroup))
        return std::nullopt;
      return e.components[0] == 0 ? 1 : 0;
    }
    case Expr::Kind::VarRef: {
      if (plan_.storage[e.index] == Storage::Remat) return carried(step(*plan_.remat_init[e.index]));
      auto it = defs_.find(e.index);
      if (it == defs_.end()) return std::nullopt;
      used_.insert(e.index);
      return carried(step(*it->second->expr));
    }
    case Expr::Kind::Cast: {
      auto s = step(*e.args[0]);
      if (s && *s != 0 && !is_wide_int(e.args[0]->type)) return std::nullopt;
      return carried(s);
    }
    case Expr::Kind::Binary: {
      auto a = step(*e.args[0]), b = step(*e.args[1]);
      if (!a || !b) return std::nullopt;
      if (*a == 0 && *b == 0) return e.binary_op == BinaryOp::Comma ? std::nullopt : std::optional<int64_t>(0);
      switch (e.binary_op) {
        case BinaryOp::Add: return carried(*a + *b);
        case BinaryOp::Sub: return carried(*a - *b);
        case BinaryOp::Mul:
          if (e.args[1]->kind == Expr::Kind::IntLit) return carried(*a * e.args[1]->int_value);
          if (e.args[0]->kind == Expr::Kind::IntLit) return carried(*b * e.args[0]->int_value);
          return std::nullopt;
        case BinaryOp::Shl:
          if (e.args[1]->kind == Expr::Kind::IntLit && e.args[1]->int_value >= 0 && e.args[1]->int_value < 16)
            return carried(*a * (int64_t{1} << e.args[1]->int_value));
          return std::nullopt;
        default: return std::nullopt;
      }
    }
    case Expr::Kind::Unary:
      switch (e.unary_op) {
        case ir::UnaryOp::Plus: return carried(step(*e.args[0]));
        case ir::UnaryOp::Neg: {
          auto s = step(*e.args[0]);
          return s ? carried(-*s) : std::nullopt;
        }
        case ir::UnaryOp::Not:
        case ir::UnaryOp::BitNot: return all_zero();
        default: return std::nullopt;
      }
    case Expr::Kind::Conditional: return all_zero();
    default: return std::nullopt;  // memory, calls, assignments: only when threadgroup-evaluable (above)
  }
}

}  // namespace mslport::back::openmp
