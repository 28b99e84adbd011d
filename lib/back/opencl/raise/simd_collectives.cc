// Step: SIMD-group collectives (simd_sum, simd_max, simd_shuffle_down, ...)
// for OpenCL C 1.2 without sub-groups. Each becomes a call to a prelude
// helper (see Prelude::simd_helper for the emulation itself):
//
//   simd_sum(x) with mask m  ->  mslport_simd_sum_float(x, m, mslport_simd_scratch, mslport_grid)
//
// which every work-item of the work-group executes: the shared passes put
// collectives in threadgroup-uniform control flow and turn divergence into
// the mask (the active-lane predicate); only active lanes evaluate the
// operands and take the result. The kernel gets a `__local uint*` scratch
// argument of bytes_per_thread x threads_per_threadgroup bytes, which also
// serves passes::kThreadgroupAny (the vote that keeps loops whose trip count
// differs between threads in step).
#include <algorithm>

#include "back/opencl/cl_types.h"
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "ir/analysis/purity.h"
#include "passes/predicate_sync.h"

namespace mslport::back::opencl {
namespace {

// A literal needs no guard; anything else may be unsafe in an inactive lane
// (an index out of bounds, a division by zero, a local it never assigned).
bool safe_in_inactive_lane(const ir::Expr& e) {
  return e.kind == ir::Expr::Kind::IntLit || e.kind == ir::Expr::Kind::FloatLit || e.kind == ir::Expr::Kind::BoolLit;
}

ir::Type scratch_type() {
  return ir::Type::pointer_to(ir::Type::scalar_of(ir::ScalarKind::UInt), ir::AddressSpace::Threadgroup, false);
}

ir::ExprPtr zero_of(const ir::Type& t) {
  if (t.is_bool()) return ir::make_bool(false);
  ir::ExprPtr zero =
      ir::is_float(t.scalar) ? make_float(0.0) : ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), 0);
  return zero->type == t ? std::move(zero) : make_cast(t, std::move(zero));
}

}  // namespace

void raise_simd_collectives(RaiseContext& ctx, ir::Kernel& k, ClKernel& cl) {
  using ir::CollectiveOp;
  int scratch = -1;
  int widest = 4;  // bytes of the widest value exchanged
  // The collective as a helper call that every work-item makes.
  auto to_call = [&](ir::ExprPtr e) -> ir::ExprPtr {
    if (scratch < 0) scratch = ir::add_var(k, "mslport_simd_scratch", scratch_type(), k.loc);
    const CollectiveOp op = e->collective_op;
    const bool vote = Prelude::is_vote(op);
    const ir::Type& value = e->args.at(0)->type;
    const std::string helper =
        ctx.prelude.simd_helper(op, vote ? "int" : cl_type_name(ctx.module, value),
                                (value.is_scalar() || value.is_vector()) && ir::is_float(value.scalar));
    if (!vote) widest = std::max(widest, ir::type_size(ctx.module, value));

    std::vector<ir::ExprPtr> args = std::move(e->args);
    // Metal evaluates the operands only in active lanes; here every work-item
    // calls the helper, so inactive ones get `mask ? x : 0` instead.
    if (e->mask && ir::analysis::is_repeatable(*e->mask)) {
      for (auto& a : args) {
        if (safe_in_inactive_lane(*a)) continue;
        auto c = std::make_unique<ir::Expr>();
        c->kind = ir::Expr::Kind::Conditional;
        c->type = a->type;
        c->loc = a->loc;
        c->args.push_back(e->mask->clone());
        c->args.push_back(std::move(a));
        c->args.push_back(zero_of(c->type));
        a = std::move(c);
      }
    }
    if (Prelude::is_fill(op) && args.size() == 3)  // no modulo: the group's width
      args.push_back(ir::make_int(ir::Type::scalar_of(ir::ScalarKind::UInt), 0, e->loc));
    args.push_back(e->mask ? std::move(e->mask) : ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), 1, e->loc));
    args.push_back(ir::make_var_ref(k, scratch, e->loc));
    args.push_back(ir::make_var_ref(k, cl.grid_var, e->loc));
    return make_call(helper, e->type, std::move(args), e->loc);
  };

  // `v = collective(x) [mask]` (the shape the shared passes leave) assigns
  // only in active lanes:  T r = helper(...);  if (mask) v = r;
  // A Decl's initialiser needs no care: inactive lanes never read that local.
  ir::walk_stmts_mut(*k.body, [&](ir::Stmt& block) {
    if (block.kind != ir::Stmt::Kind::Block) return true;
    std::vector<ir::StmtPtr> out;
    for (auto& s : block.stmts) {
      ir::Expr* a = s->kind == ir::Stmt::Kind::ExprStmt ? s->expr.get() : nullptr;
      if (!a || a->kind != ir::Expr::Kind::Assign || a->assign_op || a->args[0]->kind != ir::Expr::Kind::VarRef ||
          a->args[1]->kind != ir::Expr::Kind::Collective || !a->args[1]->mask) {
        out.push_back(std::move(s));
        continue;
      }
      ir::ExprPtr target = std::move(a->args[0]);
      ir::ExprPtr c = std::move(a->args[1]);
      ir::ExprPtr mask = c->mask->clone();
      const ir::SourceLoc loc = s->loc;
      int result = ir::add_var(k, std::string(ir::collective_name(c->collective_op)) + "_result", c->type, loc);
      if (!ir::analysis::is_repeatable(*mask)) {  // evaluate the mask once
        int m = ir::add_var(k, "mslport_active", mask->type, loc);
        out.push_back(ir::make_decl(m, std::move(c->mask), loc));
        c->mask = ir::make_var_ref(k, m, loc);
        mask = ir::make_var_ref(k, m, loc);
      }
      out.push_back(ir::make_decl(result, to_call(std::move(c)), loc));
      std::vector<ir::StmtPtr> then;
      then.push_back(ir::make_expr_stmt(ir::make_assign(std::move(target), ir::make_var_ref(k, result, loc), loc)));
      out.push_back(ir::make_if(std::move(mask), ir::make_block(std::move(then), loc), nullptr, loc));
    }
    block.stmts = std::move(out);
    return true;
  });
  // Everything else (Decl initialisers, unmasked collectives), and the
  // threadgroup-wide vote of loops whose trip count differs between threads.
  rewrite_kernel_exprs(k, [&](ir::ExprPtr e) -> ir::ExprPtr {
    if (e->kind == ir::Expr::Kind::Collective) return to_call(std::move(e));
    if (e->kind == ir::Expr::Kind::Call && e->intrinsic == ir::Intrinsic::ThreadgroupAny) {
      if (scratch < 0) scratch = ir::add_var(k, "mslport_simd_scratch", scratch_type(), k.loc);
      ctx.prelude.require("mslport_threadgroup_any");
      e->spelling = "mslport_threadgroup_any";
      e->args.push_back(ir::make_var_ref(k, scratch, e->loc));
    }
    return e;
  });
  if (scratch < 0) return;
  ClArg a;
  a.kind = ClArg::Kind::SimdScratch;
  a.var = scratch;
  a.bytes_per_thread = (widest + 3) / 4 * 4 + 4;  // the value, then the active flag (an int)
  auto grid = std::find_if(cl.args.begin(), cl.args.end(), [](const ClArg& x) { return x.kind == ClArg::Kind::Grid; });
  cl.args.insert(grid, a);
}

}  // namespace mslport::back::opencl
