// A helper function that calls itself last (a tail call) becomes a loop:
//
//     void next(int n) { ...; if (extra > 0) { next(extra); } }
//
// is built as
//
//     void next(int n) { while (true) { ...; if (extra > 0) { n = extra; continue; } break; } }
//
// Metal allows recursion (MSL 1.5.4 no longer lists it among the C++
// features it leaves out), and libraries use it for walks whose depth the
// data decides (MLX's LoopedElemToLoc::next). The backends inline every
// helper function, which a recursive call would never end; a tail call
// needs no frame of its own, so it is the loop above. Other recursion is
// refused at the call.
#include "front/tail_calls.h"

#include "front/builder.h"

namespace mslport::front {

namespace {

bool is_self_call(const ir::Expr* e) { return e && e->kind == ir::Expr::Kind::UserCall && e->index == kSelfCall; }

// The statement `s` calls the function being built, as its last act: a call
// statement, or `return f(...)`.
const ir::Expr* tail_call_of(const ir::Stmt& s) {
  if (s.kind == ir::Stmt::Kind::ExprStmt && is_self_call(s.expr.get())) return s.expr.get();
  if (s.kind == ir::Stmt::Kind::Return && is_self_call(s.expr.get())) return s.expr.get();
  return nullptr;
}

struct Rewriter {
  FrontContext& ctx;
  ir::Function& f;
  bool ok = true;
  int rewritten = 0;

  // The assignments a tail call stands for: every argument into a fresh
  // variable first (they may read the parameters they replace), then into
  // the parameters, then on to the next round of the loop.
  ir::StmtPtr jump(const ir::Expr& call) {
    ir::Kernel& k = f.def;
    std::vector<ir::StmtPtr> out;
    std::vector<std::pair<int, int>> moves;  // parameter, variable holding its next value
    for (size_t i = 0; i < call.args.size() && i < k.params.size(); ++i) {
      const ir::Expr& a = *call.args[i];
      const ir::Param& p = k.params[i];
      const bool same = a.kind == ir::Expr::Kind::ParamRef && a.index == (int)i;
      if (same) continue;
      if (p.kind != ir::Param::Kind::Value) {
        ctx.error(call.loc, "tail call to '" + f.display_name + "' with another object for the reference parameter '" +
                                p.name + "': only a call on the same object becomes a loop");
        ok = false;
        return nullptr;
      }
      int v = ir::add_var(k, p.name + "_next", p.type, call.loc, true);
      out.push_back(ir::make_decl(v, a.clone(), call.loc));
      moves.push_back({(int)i, v});
    }
    for (auto [param, var] : moves)
      out.push_back(ir::make_expr_stmt(
          ir::make_assign(ir::make_param_ref(k, param, call.loc), ir::make_var_ref(k, var, call.loc), call.loc)));
    auto next = std::make_unique<ir::Stmt>();
    next->kind = ir::Stmt::Kind::Continue;
    next->loc = call.loc;
    out.push_back(std::move(next));
    ++rewritten;
    return ir::make_block(std::move(out), call.loc);
  }

  // Rewrites the tail calls of `s`, a statement after which the function
  // returns (`tail`), outside any loop of the function's own.
  void tail(ir::StmtPtr& s) {
    if (!s) return;
    if (const ir::Expr* call = tail_call_of(*s)) {
      if (auto j = jump(*call)) s = std::move(j);
      return;
    }
    switch (s->kind) {
      case ir::Stmt::Kind::Block: block(*s, true); break;
      case ir::Stmt::Kind::If:
        tail(s->body);
        tail(s->else_body);
        break;
      default: break;
    }
  }

  // A block's statements: the last one is in tail position when the block
  // is, and so is any statement a `return;` follows.
  void block(ir::Stmt& b, bool is_tail) {
    for (size_t i = 0; i < b.stmts.size(); ++i) {
      auto& s = b.stmts[i];
      const bool before_return =
          i + 1 < b.stmts.size() && b.stmts[i + 1]->kind == ir::Stmt::Kind::Return && !b.stmts[i + 1]->expr;
      if ((is_tail && i + 1 == b.stmts.size()) || before_return) {
        tail(s);
      } else if (s && s->kind == ir::Stmt::Kind::Return && is_self_call(s->expr.get())) {
        tail(s);  // `return f(...)` anywhere outside a loop
      } else if (s && s->kind == ir::Stmt::Kind::Block) {
        block(*s, false);
      } else if (s && s->kind == ir::Stmt::Kind::If) {
        if (s->body && s->body->kind == ir::Stmt::Kind::Block) block(*s->body, false);
        if (s->else_body && s->else_body->kind == ir::Stmt::Kind::Block) block(*s->else_body, false);
      }
    }
  }
};

}  // namespace

bool self_tail_calls_to_loop(FrontContext& ctx, ir::Function& f) {
  if (!f.def.body) return true;
  bool any = false;
  ir::walk_stmt_exprs(*f.def.body, [&](const ir::Expr& x) {
    any = any || is_self_call(&x);
    return !any;
  });
  if (!any) return true;
  Rewriter r{ctx, f};
  r.block(*f.def.body, true);
  if (!r.ok) return false;
  // Whatever call is left is not a tail call.
  bool left = false;
  ir::walk_stmt_exprs(*f.def.body, [&](const ir::Expr& x) {
    if (is_self_call(&x) && !left) {
      ctx.error(x.loc,
                "recursive call to '" + f.display_name +
                    "' that is not a tail call (its last act, outside its loops): this recursion is not supported yet");
      left = true;
    }
    return !left;
  });
  if (left) return false;
  // The loop: the body once more from the top after each tail call; out
  // when it falls through its end.
  ir::SourceLoc loc = f.def.body->loc;
  auto& stmts = f.def.body->stmts;
  const bool ends_in_jump = !stmts.empty() && stmts.back()->kind == ir::Stmt::Kind::Block &&
                            !stmts.back()->stmts.empty() &&
                            stmts.back()->stmts.back()->kind == ir::Stmt::Kind::Continue;
  if (!ends_in_jump) {
    auto done = std::make_unique<ir::Stmt>();
    done->kind = ir::Stmt::Kind::Break;
    done->loc = loc;
    stmts.push_back(std::move(done));
  }
  auto loop = std::make_unique<ir::Stmt>();
  loop->kind = ir::Stmt::Kind::While;
  loop->loc = loc;
  loop->expr = ir::make_bool(true, loc);
  loop->body = std::move(f.def.body);
  std::vector<ir::StmtPtr> body;
  body.push_back(std::move(loop));
  f.def.body = ir::make_block(std::move(body), loc);
  return true;
}

}  // namespace mslport::front
