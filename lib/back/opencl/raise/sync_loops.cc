// Step: a loop whose condition synchronises (the threadgroup-wide vote of
// passes::kThreadgroupAny, a call with barriers) evaluates it at the top
// and at the end of each iteration instead of in the loop header:
//
//   while (mslport_threadgroup_any(m, s)) body
//     =>  for (bool mslport_go = mslport_threadgroup_any(m, s); mslport_go; mslport_go = mslport_threadgroup_any(m, s))
//     body
//
// Same meaning (a `continue` still re-evaluates the condition), but PoCL 3.1
// crashed (unbounded recursion) building work-group functions with barriers
// in a loop header.
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

bool synchronises(const ir::Expr& e) {
  bool found = false;
  ir::walk_exprs(e, [&](const ir::Expr& x) {
    if (x.kind == ir::Expr::Kind::Call && x.spelling == "mslport_threadgroup_any") found = true;
    return !found;
  });
  return found;
}

}  // namespace

void raise_sync_loops(RaiseContext& ctx, ir::Kernel& k) {
  ir::walk_stmts_mut(*k.body, [&](ir::Stmt& s) {
    const bool is_while = s.kind == ir::Stmt::Kind::While, is_do = s.kind == ir::Stmt::Kind::DoWhile;
    if ((!is_while && !is_do) || !s.expr || !synchronises(*s.expr)) return true;
    const ir::SourceLoc loc = s.loc;
    int go = ir::add_var(k, "mslport_go", ir::Type::scalar_of(ir::ScalarKind::Bool), loc);
    ir::ExprPtr cond = std::move(s.expr);
    // do { } while (c): the first iteration runs unconditionally.
    s.init = ir::make_decl(go, is_do ? ir::make_bool(true, loc) : cond->clone(), loc);
    s.step = ir::make_assign(ir::make_var_ref(k, go, loc), std::move(cond), loc);
    s.expr = ir::make_var_ref(k, go, loc);
    s.kind = ir::Stmt::Kind::For;
    return true;
  });
}

}  // namespace mslport::back::opencl
