#include "passes/uniform_loop_counters.h"

#include <algorithm>
#include <map>
#include <vector>

#include "ir/analysis/uniformity.h"

namespace mslport::passes {
namespace {

using ir::BinaryOp;
using ir::Expr;
using ir::ExprPtr;
using ir::Stmt;
using ir::analysis::Uniformity;

struct Term {
  const Expr* e;
  bool negative;
};

class Rewriter {
 public:
  explicit Rewriter(ir::Kernel& k) : k_(k), info_(ir::analysis::analyze_uniformity(k)) {
    // Variables assigned only by their declaration, with its value: a bound
    // read through one is read through its value.
    ir::walk_stmts(*k.body, [&](const Stmt& s) {
      if (s.kind == Stmt::Kind::Decl && s.expr) values_[s.var] = s.expr.get();
      return true;
    });
    for (int v : ir::vars_assigned(*k.body)) values_.erase(v);
  }

  void run(Stmt& s) {
    ir::walk_stmts_mut(s, [&](Stmt& st) {
      if (st.kind == Stmt::Kind::Block)
        for (auto& c : st.stmts)
          if (c->kind == Stmt::Kind::For) rewrite(*c);
      return true;
    });
  }

 private:
  bool uniform(const Expr& e) const { return info_.expr(k_, e) == Uniformity::Threadgroup; }

  // e as a sum of terms, through + and - and variables assigned once.
  void terms(const Expr& e, bool negative, std::vector<Term>* out, int depth = 0) const {
    if (e.kind == Expr::Kind::Binary && (e.binary_op == BinaryOp::Add || e.binary_op == BinaryOp::Sub) && depth < 16) {
      terms(*e.args[0], negative, out, depth + 1);
      terms(*e.args[1], e.binary_op == BinaryOp::Sub ? !negative : negative, out, depth + 1);
      return;
    }
    if (e.kind == Expr::Kind::VarRef && depth < 16)
      if (auto it = values_.find(e.index); it != values_.end() && it->second->type == e.type) {
        terms(*it->second, negative, out, depth + 1);
        return;
      }
    out->push_back({&e, negative});
  }

  // The varying terms of `a` and `b` are the same (as multisets): the uniform
  // ones of each are returned.
  bool split(const Expr& a, const Expr& b, std::vector<Term>* ua, std::vector<Term>* ub, std::vector<Term>* varying) {
    std::vector<Term> ta, tb;
    terms(a, false, &ta);
    terms(b, false, &tb);
    std::vector<Term> vb;
    for (auto& t : tb) (uniform(*t.e) ? ub : &vb)->push_back(t);
    for (auto& t : ta) {
      if (uniform(*t.e)) {
        ua->push_back(t);
        continue;
      }
      auto match = std::find_if(vb.begin(), vb.end(),
                                [&](const Term& o) { return o.negative == t.negative && ir::same_expr(*o.e, *t.e); });
      if (match == vb.end()) return false;
      vb.erase(match);
      varying->push_back(t);
    }
    return vb.empty() && !varying->empty();
  }

  ExprPtr sum(const std::vector<Term>& ts, const ir::Type& t, ExprPtr first, ir::SourceLoc loc) const {
    ExprPtr out = std::move(first);
    for (const Term& x : ts) {
      ExprPtr term = x.e->clone();
      if (term->type != t) term = ir::make_cast(t, std::move(term));
      if (!out)
        out = x.negative ? ir::make_binary(BinaryOp::Sub, t, ir::make_int(t, 0, loc), std::move(term), loc)
                         : std::move(term);
      else out = ir::make_binary(x.negative ? BinaryOp::Sub : BinaryOp::Add, t, std::move(out), std::move(term), loc);
    }
    return out ? std::move(out) : ir::make_int(t, 0, loc);
  }

  void rewrite(Stmt& loop) {
    if (!loop.init || loop.init->kind != Stmt::Kind::Decl || !loop.init->expr || !loop.expr || !loop.step ||
        !loop.body || !ir::analysis::contains_sync(*loop.body) || uniform(*loop.expr))
      return;
    const int x = loop.init->var;
    const ir::Type type = k_.vars[x].type;
    if (!type.is_scalar() || ir::is_float(type.scalar) || type.scalar == ir::ScalarKind::Bool) return;
    // The condition: x OP E.
    const Expr& cond = *loop.expr;
    if (cond.kind != Expr::Kind::Binary || cond.args[0]->kind != Expr::Kind::VarRef || cond.args[0]->index != x) return;
    switch (cond.binary_op) {
      case BinaryOp::Lt:
      case BinaryOp::Le:
      case BinaryOp::Gt:
      case BinaryOp::Ge:
      case BinaryOp::Ne: break;
      default: return;
    }
    if (cond.args[1]->type != type) return;
    // The increment: x += C, x -= C, ++x, x++ with C uniform; nothing else writes x.
    const Expr& step = *loop.step;
    const bool by_amount = step.kind == Expr::Kind::Assign && step.assign_op &&
                           (*step.assign_op == BinaryOp::Add || *step.assign_op == BinaryOp::Sub) &&
                           uniform(*step.args[1]);
    const bool by_one = step.kind == Expr::Kind::Unary && ir::is_increment(step.unary_op);
    if (!(by_amount || by_one) || ir::written_variable(step) != x || step.args[0]->kind != Expr::Kind::VarRef) return;
    if (ir::vars_assigned(*loop.body).count(x)) return;
    std::vector<Term> start_uniform, end_uniform, varying;
    if (!split(*loop.init->expr, *cond.args[1], &start_uniform, &end_uniform, &varying)) return;

    const ir::SourceLoc loc = loop.loc;
    const int u = ir::add_var(k_, k_.vars[x].name + "_from", type, loc);
    // for (u = A; u OP B; step on u) { x = u + d; body }
    loop.body->stmts.insert(loop.body->stmts.begin(),
                            ir::make_decl(x, sum(varying, type, ir::make_var_ref(k_, u, loc), loc), loc));
    loop.init = ir::make_decl(u, sum(start_uniform, type, nullptr, loc), loc);
    loop.expr->args[0] = ir::make_var_ref(k_, u, loc);
    loop.expr->args[1] = sum(end_uniform, type, nullptr, loc);
    loop.step->args[0] = ir::make_var_ref(k_, u, loc);
  }

  ir::Kernel& k_;
  ir::analysis::UniformityInfo info_;
  std::map<int, const Expr*> values_;
};

}  // namespace

void uniform_loop_counters(ir::Kernel& k) {
  if (!k.body || !ir::analysis::contains_sync(*k.body)) return;
  Rewriter(k).run(*k.body);
}

}  // namespace mslport::passes
