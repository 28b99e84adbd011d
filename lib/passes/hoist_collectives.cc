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
    bool conditional = e->kind == Expr::Kind::Conditional ||
                       (e->kind == Expr::Kind::Binary &&
                        (e->binary_op == BinaryOp::LogAnd || e->binary_op == BinaryOp::LogOr));
    for (size_t i = 0; i < e->args.size(); ++i) {
      if (conditional && i > 0 && e->args[i] && contains_collective(*e->args[i])) {
        diags.error(e->args[i]->loc,
                    "SIMD-group function evaluated conditionally (inside '?:', '&&' or '||') is not supported yet");
        ok = false;
        continue;
      }
      hoist(e->args[i], out, false);
    }
    if (e->kind == Expr::Kind::Collective && !keep_here) {
      std::string name = std::string(collective_name(e->collective_op)) + "_tmp";
      int v = add_var(k, name, e->type, e->loc);
      auto loc = e->loc;
      out.push_back(make_decl(v, std::move(e), loc));
      e = make_var_ref(k, v, loc);
    }
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
        for (ExprPtr* p : {&s.expr, &s.step}) {
          if (*p && contains_collective(**p)) {
            diags.error((*p)->loc, "SIMD-group function in a loop condition or increment is not supported yet");
            ok = false;
          }
        }
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
