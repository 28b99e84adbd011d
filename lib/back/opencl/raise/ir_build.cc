#include "back/opencl/raise/ir_build.h"

namespace mslport::back::opencl {

using ir::Expr;
using ir::ExprPtr;

ExprPtr make_swizzle(ExprPtr base, std::vector<int> lanes) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Swizzle;
  e->type = lanes.size() == 1 ? ir::Type::scalar_of(base->type.scalar)
                              : ir::Type::vector_of(base->type.scalar, (int)lanes.size());
  e->components = std::move(lanes);
  e->loc = base->loc;
  e->args.push_back(std::move(base));
  return e;
}

ExprPtr make_float(double v, ir::SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::FloatLit;
  e->type = ir::Type::scalar_of(ir::ScalarKind::Float);
  e->float_value = v;
  e->loc = std::move(loc);
  return e;
}

ExprPtr make_conditional(ExprPtr cond, ExprPtr then_value, ExprPtr else_value) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::Kind::Conditional;
  e->type = then_value->type;
  e->loc = then_value->loc;
  e->args.push_back(std::move(cond));
  e->args.push_back(std::move(then_value));
  e->args.push_back(std::move(else_value));
  return e;
}

void rewrite_expr(ExprPtr& slot, const ExprRewrite& f) {
  if (!slot) return;
  for (auto& a : slot->args) rewrite_expr(a, f);
  if (slot->mask) rewrite_expr(slot->mask, f);
  slot = f(std::move(slot));
}

void for_each_stmt_expr_slot(ir::Stmt& s, const std::function<void(ExprPtr&)>& f) {
  ir::walk_stmts_mut(s, [&](ir::Stmt& st) {
    if (st.expr) f(st.expr);
    if (st.step) f(st.step);
    return true;
  });
}

void rewrite_kernel_exprs(ir::Kernel& k, const ExprRewrite& f) {
  if (!k.body) return;
  for_each_stmt_expr_slot(*k.body, [&](ExprPtr& slot) { rewrite_expr(slot, f); });
}

int member_struct_index(const Expr& member) {
  const ir::Type& base = member.args.at(0)->type;
  if (member.arrow) return base.is_pointer() && base.elem ? base.elem->struct_index : -1;
  return base.struct_index;
}

}  // namespace mslport::back::opencl
