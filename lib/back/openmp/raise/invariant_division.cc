// Why: AVX2/AVX-512 have no integer divide, so mslport::udiv converts each
// lane to double, multiplies by a reciprocal and corrects the quotient with
// 64-bit products, and LLVM does not hoist the reciprocal out of the
// vectorised work-item loops. The quantised mat-vecs divide once per
// 32-bit weight word (`col / (group_size / 8)`); with the divisor prepared
// per threadgroup the 4-bit mat-vec measured 1.35x on the 2-core VM.
#include "back/openmp/raise/invariant_division.h"

#include <map>
#include <set>
#include <vector>

#include "ir/analysis/uniformity.h"

namespace mslport::back::openmp {
namespace {

using ir::Expr;
using ir::Stmt;

struct Preparer {
  ir::Kernel& k;
  ir::analysis::UniformityInfo info = ir::analysis::analyze_uniformity(k);
  std::map<int, const Expr*> single_defs;  // var -> initialiser, for top-level `T v = init;` never written again
  std::vector<std::pair<ir::ExprPtr, int>> prepared;  // divisor (substituted) -> its prepared variable
  std::vector<ir::StmtPtr> decls;

  void find_single_defs() {
    std::set<int> written;
    ir::walk_stmt_exprs(*k.body, [&](const Expr& e) {
      if (int v = ir::written_variable(e); v >= 0) written.insert(v);
      if (int v = ir::address_taken_variable(e); v >= 0) written.insert(v);
      return true;
    });
    for (auto& s : k.body->stmts)
      if (s->kind == Stmt::Kind::Decl && s->expr && !written.count(s->var)) single_defs[s->var] = s->expr.get();
  }

  // `e` with its single-definition variables replaced by their initialisers,
  // or nullptr when `e` does not qualify (see the header).
  ir::ExprPtr invariant_copy(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::IntLit:
      case Expr::Kind::BoolLit:
      case Expr::Kind::FloatLit:
      case Expr::Kind::GlobalConstRef: return e.clone();
      case Expr::Kind::ParamRef: {
        const ir::Param& p = k.params.at(e.index);
        const bool constant_scalar = ir::is_dispatch_constant(p) && e.type.is_scalar();
        const bool uniform_builtin =
            p.kind == ir::Param::Kind::Builtin &&
            ir::analysis::builtin_uniformity(p.builtin) == ir::analysis::Uniformity::Threadgroup;
        return constant_scalar || uniform_builtin ? e.clone() : nullptr;
      }
      case Expr::Kind::VarRef: {
        auto it = single_defs.find(e.index);
        if (it == single_defs.end()) return nullptr;
        auto init = invariant_copy(*it->second);
        if (init && !(init->type == e.type)) return nullptr;
        return init;
      }
      case Expr::Kind::Binary:
        if (e.binary_op == ir::BinaryOp::Comma) return nullptr;
        if ((e.binary_op == ir::BinaryOp::Div || e.binary_op == ir::BinaryOp::Rem) &&
            !(e.args[1]->kind == Expr::Kind::IntLit && e.args[1]->int_value != 0))
          return nullptr;  // could trap where the source would not have divided
        break;
      case Expr::Kind::Unary:
        if (e.unary_op == ir::UnaryOp::Deref || e.unary_op == ir::UnaryOp::AddrOf || ir::is_increment(e.unary_op))
          return nullptr;
        break;
      case Expr::Kind::Cast:
      case Expr::Kind::Conditional: break;
      default: return nullptr;  // calls, memory, assignments
    }
    ir::ExprPtr copy = e.clone();
    for (auto& a : copy->args) {
      a = invariant_copy(*a);
      if (!a) return nullptr;
    }
    return copy;
  }

  int prepared_var(ir::ExprPtr d) {
    for (auto& [e, v] : prepared)
      if (ir::same_expr(*e, *d)) return v;
    const ir::Type u4 = ir::Type::vector_of(ir::ScalarKind::UInt, 4);
    const int v = ir::add_var(k, ir::name_after_operand(k, *d, "mslport_div"), u4, d->loc, /*is_const=*/true);
    std::vector<ir::ExprPtr> args;
    args.push_back(d->clone());
    decls.push_back(ir::make_decl(v, ir::make_call(kUdivPrepare, u4, std::move(args), d->loc), d->loc));
    prepared.emplace_back(std::move(d), v);
    return v;
  }

  // Rewrites `e` in place when it is a qualifying division.
  void rewrite(Expr& e) {
    if (e.kind != Expr::Kind::Binary || (e.binary_op != ir::BinaryOp::Div && e.binary_op != ir::BinaryOp::Rem)) return;
    constexpr ir::ScalarKind u32 = ir::ScalarKind::UInt;
    if (!e.type.is_scalar(u32) || !e.args[0]->type.is_scalar(u32) || !e.args[1]->type.is_scalar(u32)) return;
    const Expr* d = e.args[1].get();
    while (d->kind == Expr::Kind::Cast) d = d->args[0].get();
    if (d->kind == Expr::Kind::IntLit) return;
    if (info.expr(k, *e.args[0]) == ir::analysis::Uniformity::Threadgroup) return;
    if (info.expr(k, *e.args[1]) != ir::analysis::Uniformity::Threadgroup) return;
    auto divisor = invariant_copy(*e.args[1]);
    if (!divisor) return;
    const int v = prepared_var(std::move(divisor));
    e.spelling = e.binary_op == ir::BinaryOp::Div ? kUdivPrepared : kUmodPrepared;
    e.kind = Expr::Kind::Call;
    e.args[1] = ir::make_var_ref(k, v, e.args[1]->loc);
  }
};

}  // namespace

void prepare_invariant_divisors(ir::Kernel& k) {
  Preparer p{k};
  p.find_single_defs();
  ir::walk_stmts_mut(*k.body, [&](Stmt& s) {
    auto visit = [&](ir::ExprPtr& slot) {
      if (slot)
        ir::walk_exprs_mut(*slot, [&](Expr& e) {
          p.rewrite(e);
          return true;
        });
    };
    visit(s.expr);
    visit(s.step);
    return true;
  });
  // Before everything: the divisors read only values fixed for the dispatch.
  k.body->stmts.insert(k.body->stmts.begin(), std::make_move_iterator(p.decls.begin()),
                       std::make_move_iterator(p.decls.end()));
}

}  // namespace mslport::back::openmp
