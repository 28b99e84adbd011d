// What each work-item runs: the statements of a loop body, with the
// storage of each variable (a local, the threadgroup's per-work-item array,
// a recomputed value) and the copies' substitutions (a store staged for a
// streamed row, the alive flag known true).
#include "back/openmp/print/body_printer.h"
#include "back/openmp/raise/loop_schedule_points.h"

namespace mslport::back::openmp::print_detail {

void BodyPrinter::guarded_stmts(const Stmts& stmts, size_t from, const Scope& scope) {
  for (size_t i = from; i < stmts.size(); ++i) {
    const Stmt& s = *stmts[i];
    if (!is_guard_return(s)) {
      wi_stmt(s, scope);
      continue;
    }
    line_directive(s.loc);
    if (s.body->stmts.size() == 1) {  // just `return`: run the rest when the condition fails
      if (i + 1 == stmts.size()) return;
      line("if (!(" + ex(*s.expr, true) + ")) {");
      ++indent_;
      guarded_stmts(stmts, i + 1, scope);
      --indent_;
      line("}");
      return;
    }
    line("if (" + ex(*s.expr, true) + ") {");
    ++indent_;
    for (size_t j = 0; j + 1 < s.body->stmts.size(); ++j) wi_stmt(*s.body->stmts[j], scope);
    --indent_;
    if (i + 1 == stmts.size()) {
      line("}");
      return;
    }
    line("} else {");
    ++indent_;
    guarded_stmts(stmts, i + 1, scope);
    --indent_;
    line("}");
    return;
  }
}

void BodyPrinter::wi_stmt(const Stmt& s, const Scope& scope) {
  line_directive(s.loc);
  switch (s.kind) {
    case Stmt::Kind::Block:
      line(s.comment.empty() ? "{" : "{  // " + s.comment);  // a helper's inlined body is named
      wi_block_contents(s, scope);
      line("}");
      break;
    case Stmt::Kind::Decl: {
      const ir::Var& v = k_.vars[s.var];
      // Declared at the top of the loop (LoopValues).
      if (plan_.storage[s.var] == Storage::Remat || (!s.expr && plan_.declared_in_loop.count(s.var))) break;
      if (plan_.storage[s.var] == Storage::PerThread) {
        if (!s.expr) break;
        if (s.expr->kind == Expr::Kind::InitList) {
          std::string tmp = "mslport_init" + std::to_string(counter_++);
          line("const " + p_.declarator(v.type, tmp) + " = " + ex(*s.expr, true) + ";");
          line("std::memcpy(&" + p_.var_ref(s.var, true) + ", &" + tmp + ", sizeof " + tmp + ");");
        } else {
          line(p_.var_ref(s.var, true) + " = " + ex(*s.expr, true) + ";");
        }
        break;
      }
      std::string d = p_.var_declarator(v);
      line(s.expr ? d + " = " + ex(*s.expr, true) + ";" : d + ";");
      break;
    }
    case Stmt::Kind::ExprStmt:
      // A threadgroup's prefetch hint in a loop that stayed per work-item:
      // once per work-item it would ask for the same lines 256 times.
      if (is_prefetch_hint(s)) break;
      if (scope.staged) {  // a streaming copy's store: into the row buffer
        if (auto it = scope.staged->find(&s); it != scope.staged->end()) {
          line("mslport_stage" + std::to_string(it->second) + "[lx] = " + ex(*s.expr->args[1], true) + ";");
          break;
        }
      }
      // The defining assignment of a recomputed variable: each loop that
      // reads it computes it (LoopValues).
      if (s.expr->kind == Expr::Kind::Assign && !s.expr->assign_op && s.expr->args[0]->kind == Expr::Kind::VarRef &&
          plan_.storage[s.expr->args[0]->index] == Storage::Remat)
        break;
      line(ex(*s.expr, true) + ";");
      break;
    case Stmt::Kind::If:
      if (s.expr->kind == Expr::Kind::VarRef && s.expr->index == p_.known_true() &&
          (!s.else_body || s.else_body->stmts.empty())) {
        line("{  // if (" + k_.vars[s.expr->index].name + "): true in this copy");
        wi_block_contents(*s.body, scope);
        line("}");
        break;
      }
      {
        line("if (" + ex(*s.expr, true) + ") {");
        wi_block_contents(*s.body, scope);
        // An else-if chain stays at one level: printed nested, a chain of
        // 5,000 made an output of 200 MB (each level indented further).
        const Stmt* last = &s;
        while (last->else_body && last->else_body->stmts.size() == 1 &&
               last->else_body->stmts[0]->kind == Stmt::Kind::If) {
          const Stmt& next = *last->else_body->stmts[0];
          if (next.expr->kind == Expr::Kind::VarRef && next.expr->index == p_.known_true()) break;
          line_directive(next.loc);
          line("} else if (" + ex(*next.expr, true) + ") {");
          wi_block_contents(*next.body, scope);
          last = &next;
        }
        if (last->else_body && !last->else_body->stmts.empty()) {
          line("} else {");
          wi_block_contents(*last->else_body, scope);
        }
        line("}");
        break;
      }
    case Stmt::Kind::For: {
      std::string init;
      bool init_inline = !s.init || s.init->kind == Stmt::Kind::Decl || s.init->kind == Stmt::Kind::ExprStmt;
      if (s.init && s.init->kind == Stmt::Kind::Decl && plan_.storage[s.init->var] != Storage::PerThread) {
        const ir::Var& v = k_.vars[s.init->var];
        init = p_.declarator(v.type, v.name) + (s.init->expr ? " = " + ex(*s.init->expr, true) : "");
      } else if (s.init && s.init->kind == Stmt::Kind::Decl) {
        init = s.init->expr ? p_.var_ref(s.init->var, true) + " = " + ex(*s.init->expr, true) : "";
      } else if (s.init && s.init->kind == Stmt::Kind::ExprStmt) {
        init = ex(*s.init->expr, true);
      }
      if (!init_inline) {
        line("{");
        ++indent_;
        wi_stmt(*s.init, scope);
      }
      line("for (" + init + "; " + (s.expr ? ex(*s.expr, true) : "") + "; " + (s.step ? ex(*s.step, true) : "") +
           ") {");
      wi_block_contents(*s.body, scope);
      line("}");
      if (!init_inline) {
        --indent_;
        line("}");
      }
      break;
    }
    case Stmt::Kind::While:
      line("while (" + ex(*s.expr, true) + ") {");
      wi_block_contents(*s.body, scope);
      line("}");
      break;
    case Stmt::Kind::DoWhile:
      line("do {");
      wi_block_contents(*s.body, scope);
      line("} while (" + ex(*s.expr, true) + ");");
      break;
    case Stmt::Kind::Return: line("return;"); break;
    case Stmt::Kind::Break: line("break;"); break;
    case Stmt::Kind::Continue: line("continue;"); break;
    case Stmt::Kind::Barrier:
      diags_.error(s.loc, "internal error: barrier inside a work-item loop");
      ok_ = false;
      break;
  }
}

}  // namespace mslport::back::openmp::print_detail
