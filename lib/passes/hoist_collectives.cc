#include "passes/hoist_collectives.h"

#include "ir/analysis/uniformity.h"

namespace mslport::passes {
using namespace ir;
using namespace ir::analysis;

bool is_canonical_collective_stmt(const Stmt& s) {
  if (s.kind == Stmt::Kind::Decl && s.expr && s.expr->kind == Expr::Kind::Collective) return true;
  if (s.kind == Stmt::Kind::ExprStmt && s.expr->kind == Expr::Kind::Assign && !s.expr->assign_op &&
      s.expr->args[0]->kind == Expr::Kind::VarRef && s.expr->args[1]->kind == Expr::Kind::Collective)
    return true;
  return false;
}

namespace {
struct Hoister {
  Kernel& k;
  DiagEngine& diags;
  bool ok = true;

  // Post-order: inner collectives first, so their temporaries come first.
  void hoist(ExprPtr& e, std::vector<StmtPtr>& out, bool keep_here) {
    if (!e) return;
    bool conditional =
        e->kind == Expr::Kind::Conditional ||
        (e->kind == Expr::Kind::Binary && (e->binary_op == BinaryOp::LogAnd || e->binary_op == BinaryOp::LogOr));
    if (conditional)
      for (size_t i = 1; i < e->args.size(); ++i)
        if (contains_collective(*e->args[i])) return hoist_conditional(e, out);
    for (auto& a : e->args) hoist(a, out, false);
    if (e->kind == Expr::Kind::Collective && !keep_here) {
      std::string name = std::string(collective_name(e->collective_op)) + "_tmp";
      int v = add_var(k, name, e->type, e->loc);
      auto loc = e->loc;
      out.push_back(make_decl(v, std::move(e), loc));
      e = make_var_ref(k, v, loc);
    }
  }

  // A collective that only some threads evaluate (an operand of `?:`, or
  // right of `&&` / `||`) moves into an `if` of its own, which
  // predicate_sync then treats like any other branch (Metal: only the lanes
  // that evaluate it take part):
  //   c ? a : b   =>   T t; if (c) { t = a; } else { t = b; }
  //   a && b      =>   bool t = a; if (t) { t = b; }
  //   a || b      =>   bool t = a; if (!t) { t = b; }
  void hoist_conditional(ExprPtr& e, std::vector<StmtPtr>& out) {
    const SourceLoc loc = e->loc;
    const Type kBool = Type::scalar_of(ScalarKind::Bool);
    hoist(e->args[0], out, false);
    int t = add_var(k, "mslport_cond", e->type, loc);
    auto branch = [&](ExprPtr value) {
      std::vector<StmtPtr> b;
      hoist(value, b, false);
      if (value->type != e->type) value = make_cast(e->type, std::move(value));
      b.push_back(make_expr_stmt(make_assign(make_var_ref(k, t, loc), std::move(value), loc)));
      return make_block(std::move(b), loc);
    };
    if (e->kind == Expr::Kind::Conditional) {
      out.push_back(make_decl(t, nullptr, loc));
      auto then_body = branch(std::move(e->args[1]));
      auto else_body = branch(std::move(e->args[2]));
      out.push_back(make_if(std::move(e->args[0]), std::move(then_body), std::move(else_body), loc));
    } else {
      ExprPtr first = std::move(e->args[0]);
      if (first->type != e->type) first = make_cast(e->type, std::move(first));
      out.push_back(make_decl(t, std::move(first), loc));
      ExprPtr cond = make_var_ref(k, t, loc);
      if (e->binary_op == BinaryOp::LogOr) cond = make_unary(UnaryOp::Not, kBool, std::move(cond), loc);
      out.push_back(make_if(std::move(cond), branch(std::move(e->args[1])), nullptr, loc));
    }
    e = make_var_ref(k, t, loc);
  }

  // A loop whose condition or increment holds a collective tests its
  // condition at the top of the body instead, where the collective can
  // have a statement of its own (`continue` still reaches the increment):
  //   for (init; c; step) B    =>   init; for (;; step) { if (!c) break; B }
  //   do B while (c);          =>   for (bool first = true;; first = false) {
  //                                   if (!first) { if (!c) break; } B }
  void move_condition_into_body(Stmt& s) {
    const SourceLoc loc = s.loc;
    const Type kBool = Type::scalar_of(ScalarKind::Bool);
    std::vector<StmtPtr> test;
    if (s.expr) {
      std::vector<StmtPtr> brk;
      auto b = std::make_unique<Stmt>();
      b->kind = Stmt::Kind::Break;
      b->loc = loc;
      brk.push_back(std::move(b));
      test.push_back(make_if(make_unary(UnaryOp::Not, kBool, std::move(s.expr), loc), make_block(std::move(brk), loc),
                             nullptr, loc));
    }
    if (s.kind == Stmt::Kind::DoWhile && !test.empty()) {
      int first = add_var(k, "mslport_first_iteration", kBool, loc);
      auto guarded = make_if(make_unary(UnaryOp::Not, kBool, make_var_ref(k, first, loc), loc),
                             make_block(std::move(test), loc), nullptr, loc);
      test.clear();
      test.push_back(std::move(guarded));
      s.init = make_decl(first, make_bool(true, loc), loc);
      s.step = make_assign(make_var_ref(k, first, loc), make_bool(false, loc), loc);
    }
    s.kind = Stmt::Kind::For;
    auto& body = s.body->stmts;
    body.insert(body.begin(), std::make_move_iterator(test.begin()), std::make_move_iterator(test.end()));
  }

  void block(Stmt& b) {
    std::vector<StmtPtr> out;
    for (auto& s : b.stmts) {
      stmt(*s, out);
      out.push_back(std::move(s));
    }
    b.stmts = std::move(out);
  }

  void stmt(Stmt& s, std::vector<StmtPtr>& before) {
    switch (s.kind) {
      case Stmt::Kind::Block: block(s); break;
      case Stmt::Kind::Decl: {
        bool canonical = s.expr && s.expr->kind == Expr::Kind::Collective;
        if (canonical) {
          for (auto& a : s.expr->args) hoist(a, before, false);
        } else {
          hoist(s.expr, before, false);
        }
        break;
      }
      case Stmt::Kind::ExprStmt: {
        if (is_canonical_collective_stmt(s)) {
          for (auto& a : s.expr->args[1]->args) hoist(a, before, false);
        } else if (s.expr->kind == Expr::Kind::Assign && s.expr->args[1]->kind == Expr::Kind::Collective &&
                   !s.expr->assign_op) {
          hoist(s.expr->args[0], before, false);
          hoist(s.expr->args[1], before, false);
        } else {
          hoist(s.expr, before, false);
        }
        break;
      }
      case Stmt::Kind::If:
        hoist(s.expr, before, false);
        block(*s.body);
        if (s.else_body) block(*s.else_body);
        break;
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile:
        if (s.init) {
          std::vector<StmtPtr> init_before;
          stmt(*s.init, init_before);
          for (auto& x : init_before) before.push_back(std::move(x));
        }
        if (s.step && contains_collective(*s.step)) {
          // The increment becomes the last statement of the body, where a
          // `continue` would skip it.
          bool has_continue = false;
          walk_stmts(*s.body, [&](const Stmt& x) {
            has_continue = has_continue || x.kind == Stmt::Kind::Continue;
            return !has_continue && x.kind != Stmt::Kind::For && x.kind != Stmt::Kind::While &&
                   x.kind != Stmt::Kind::DoWhile;
          });
          if (has_continue) {
            diags.error(s.step->loc,
                        "SIMD-group function in the increment of a loop with 'continue' is not "
                        "supported yet");
            ok = false;
          } else {
            s.body->stmts.push_back(make_expr_stmt(std::move(s.step)));
          }
        }
        if (s.expr && contains_collective(*s.expr)) move_condition_into_body(s);
        block(*s.body);
        break;
      default: break;
    }
  }
};
}  // namespace

bool hoist_collectives(Kernel& k, DiagEngine& diags) {
  if (!k.body) return true;
  Hoister h{k, diags};
  h.block(*k.body);
  return h.ok;
}
}  // namespace mslport::passes
