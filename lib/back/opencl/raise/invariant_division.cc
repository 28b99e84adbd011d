// Step: unsigned 32-bit `/` and `%` inside a loop whose divisor stays the
// same through the loop become prelude calls that take a reciprocal worked
// out once, before the loop (mslport_udiv_prepare / mslport_udiv /
// mslport_umod). A division by a register costs NVIDIA GPUs a dozen
// instructions, three of them quarter-rate conversions, and CPUs a
// scalarised divide per lane; the prepared form is a multiply-high, a
// subtract and two shifts. Measured on the H100: dequant_matvec_8bit_v3
// (`col / (group_size / 4)` per 4 weight bytes) 1247 -> 1358 GB/s.
//
// Divisors that are literals are left to the OpenCL compiler, which does
// the same thing itself. The divisor is evaluated earlier than in the
// source, so it must be free of side effects and of anything that could
// trap there (a division, unless by a non-zero literal) and read only
// variables the loop does not write, or memory nothing writes (__constant).
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "ir/analysis/loop_invariance.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::Stmt;
using ir::analysis::invariant;
using ir::analysis::is_loop;
using ir::analysis::note_writes;
using ir::analysis::strip_casts;
using ir::analysis::Writes;

struct Hoister {
  RaiseContext& ctx;
  ir::Kernel& k;

  // Rewrites the divisions in `loop` whose divisor `loop` does not change;
  // returns the declarations of their prepared divisors, to go before it.
  std::vector<ir::StmtPtr> hoist_from(Stmt& loop) {
    Writes w;
    note_writes(loop, w);
    std::vector<ir::StmtPtr> decls;
    std::vector<std::pair<const Expr*, int>> prepared;  // divisor (in a decl) -> var
    auto prepared_var = [&](const Expr& d) {
      for (auto& [e, v] : prepared)
        if (ir::same_expr(*e, d)) return v;
      const ir::Type u4 = ir::Type::vector_of(ir::ScalarKind::UInt, 4);
      int v = ir::add_var(k, ir::name_after_operand(k, d, "mslport_div"), u4, d.loc, /*is_const=*/true);
      std::vector<ir::ExprPtr> args;
      args.push_back(d.clone());
      decls.push_back(ir::make_decl(v, make_call("mslport_udiv_prepare", u4, std::move(args), d.loc), loop.loc));
      prepared.emplace_back(decls.back()->expr->args[0].get(), v);
      ctx.prelude.require("mslport_udiv_prepare");
      return v;
    };
    auto rewrite = [&](ir::ExprPtr e) -> ir::ExprPtr {
      if (e->kind != Expr::Kind::Binary || (e->binary_op != ir::BinaryOp::Div && e->binary_op != ir::BinaryOp::Rem))
        return e;
      constexpr ir::ScalarKind u32 = ir::ScalarKind::UInt;
      if (!e->type.is_scalar(u32) || !e->args[0]->type.is_scalar(u32) || !e->args[1]->type.is_scalar(u32)) return e;
      if (strip_casts(*e->args[1]).kind == Expr::Kind::IntLit || !invariant(*e->args[1], w)) return e;
      const int v = prepared_var(*e->args[1]);
      const char* helper = e->binary_op == ir::BinaryOp::Div ? "mslport_udiv" : "mslport_umod";
      ctx.prelude.require(helper);
      std::vector<ir::ExprPtr> args;
      args.push_back(std::move(e->args[0]));
      args.push_back(ir::make_var_ref(k, v, e->loc));
      return make_call(helper, e->type, std::move(args), e->loc);
    };
    for_each_loop_slot(loop, [&](ir::ExprPtr& slot) { rewrite_expr(slot, rewrite); });
    return decls;
  }

  // Every expression slot of a loop: its init, condition, step and body.
  static void for_each_loop_slot(Stmt& loop, const std::function<void(ir::ExprPtr&)>& f) {
    if (loop.init) for_each_stmt_expr_slot(*loop.init, f);
    if (loop.expr) f(loop.expr);
    if (loop.step) f(loop.step);
    if (loop.body) for_each_stmt_expr_slot(*loop.body, f);
  }

  // Outermost loops first: a divisor is prepared before the outermost loop
  // that leaves it unchanged, so an inner loop does not prepare it again on
  // every outer iteration.
  void block(Stmt& b) {
    for (size_t i = 0; i < b.stmts.size(); ++i) {
      Stmt& s = *b.stmts[i];
      if (is_loop(s)) {
        auto decls = hoist_from(s);
        const size_t n = decls.size();
        b.stmts.insert(b.stmts.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(decls.begin()),
                       std::make_move_iterator(decls.end()));
        i += n;
      }
      nested(*b.stmts[i]);
    }
  }
  void nested(Stmt& s) {
    for (Stmt* c : {s.body.get(), s.else_body.get()}) {
      if (!c) continue;
      if (c->kind == Stmt::Kind::Block) block(*c);
      else nested(*c);
    }
    if (s.kind == Stmt::Kind::Block) block(s);
  }
};

}  // namespace

void raise_invariant_division(RaiseContext& ctx, ir::Kernel& k) {
  Hoister h{ctx, k};
  h.block(*k.body);
}

}  // namespace mslport::back::opencl
