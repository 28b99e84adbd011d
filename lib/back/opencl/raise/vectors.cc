// Step: vector accesses in OpenCL C's own form.
//  * v[2] with a constant index -> v.z (OpenCL C 1.2 defines only component
//    selection).
//  * v[i] read with a variable index -> i == 0 ? v.x : i == 1 ? v.y : ...
//    (`v[i]` on a vector is a Clang extension: PoCL and NVIDIA accept it, the
//    OpenCL C 1.2 grammar does not). Both v and i are printed once per lane,
//    so only when evaluating them again changes nothing (ir/analysis/purity.h).
//  * the statements `v[i] = x;` and `v[i] op= x;` (v, i and x pure, x of the
//    lane type for op=) -> v = (T)(i == 0 ? x : v.x, i == 1 ? x : v.y, ...).
//    Other written forms (`v[i]++`, `&v[i]`, an assignment used as a value) and
//    impure ones stay v[i].
//    Same speed on NVIDIA (dequant_matvec_4bit_v4's `packed4[w]`: 489-492
//    GB/s either way, measured side by side on the H100).
//  * float4(i, j, k, l) with non-float lanes: each lane is converted first, as
//    OpenCL vector literals want lanes of the vector's element type.
#include <set>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "ir/analysis/purity.h"

namespace mslport::back::opencl {

namespace {

using ir::analysis::is_repeatable;

bool is_vector_subscript(const ir::Expr& e) { return e.kind == ir::Expr::Kind::Index && e.args[0]->type.is_vector(); }

// The vector subscripts that are written: assigned, incremented or whose
// address is taken.
std::set<const ir::Expr*> written_vector_subscripts(ir::Kernel& k) {
  std::set<const ir::Expr*> out;
  auto note = [&](const ir::Expr& x) {
    const bool writes = ir::writes_operand(x) || (x.kind == ir::Expr::Kind::Unary && x.unary_op == ir::UnaryOp::AddrOf);
    if (writes && is_vector_subscript(*x.args[0])) out.insert(x.args[0].get());
    return true;
  };
  if (k.body) ir::walk_stmt_exprs(*k.body, note);
  return out;
}

// index == lane, the literal of the index's type.
ir::ExprPtr is_lane(const ir::Expr& index, int lane) {
  return ir::make_binary(ir::BinaryOp::Eq, ir::Type::scalar_of(ir::ScalarKind::Bool), index.clone(),
                         ir::make_int(index.type, lane, index.loc), index.loc);
}

// index == lane ? v.lane : (the same from the next lane on)
ir::ExprPtr select_lanes(const ir::Expr& vec, const ir::Expr& index, int lane) {
  auto pick = make_swizzle(vec.clone(), {lane});
  if (lane == vec.type.count - 1) return pick;
  return make_conditional(is_lane(index, lane), std::move(pick), select_lanes(vec, index, lane + 1));
}

// `v[i] = x` / `v[i] op= x` as a statement -> `v = (T)(...)`, or null when
// the statement is not of that form.
ir::ExprPtr assign_whole_vector(const ir::Expr& assign) {
  const ir::Expr& target = *assign.args[0];
  if (!is_vector_subscript(target) || !target.args[1]->type.is_scalar()) return nullptr;
  if (target.args[1]->kind == ir::Expr::Kind::IntLit) return nullptr;  // v.y = x, below
  const ir::Expr& vec = *target.args[0];
  const ir::Expr& index = *target.args[1];
  const ir::Expr& value = *assign.args[1];
  const ir::Type lane_type = ir::Type::scalar_of(vec.type.scalar);
  if (!is_repeatable(vec) || !is_repeatable(index) || !is_repeatable(value) || !value.type.is_scalar()) return nullptr;
  // `ilane += 0.5f` converts after the addition; only same-typed op= is kept.
  if (assign.assign_op && !(value.type == lane_type)) return nullptr;
  auto whole = std::make_unique<ir::Expr>();
  whole->kind = ir::Expr::Kind::VectorConstruct;
  whole->type = vec.type;
  whole->loc = assign.loc;
  for (int lane = 0; lane < vec.type.count; ++lane) {
    ir::ExprPtr fresh = value.clone();
    if (assign.assign_op)
      fresh = ir::make_binary(*assign.assign_op, lane_type, make_swizzle(vec.clone(), {lane}), std::move(fresh),
                              assign.loc);
    else if (!(value.type == lane_type)) fresh = make_cast(lane_type, std::move(fresh));
    whole->args.push_back(make_conditional(is_lane(index, lane), std::move(fresh), make_swizzle(vec.clone(), {lane})));
  }
  return ir::make_assign(vec.clone(), std::move(whole), assign.loc);
}

}  // namespace

void raise_vectors(RaiseContext& ctx, ir::Kernel& k) {
  if (k.body)
    ir::walk_stmts_mut(*k.body, [&](ir::Stmt& s) {
      if (s.kind == ir::Stmt::Kind::ExprStmt && s.expr && s.expr->kind == ir::Expr::Kind::Assign)
        if (auto whole = assign_whole_vector(*s.expr)) s.expr = std::move(whole);
      return true;
    });
  const std::set<const ir::Expr*> written = written_vector_subscripts(k);
  rewrite_kernel_exprs(k, [&](ir::ExprPtr e) -> ir::ExprPtr {
    if (e->kind == ir::Expr::Kind::Index && e->args[0]->type.is_vector() &&
        e->args[1]->kind == ir::Expr::Kind::IntLit && e->args[1]->int_value >= 0 &&
        e->args[1]->int_value < e->args[0]->type.count) {
      int lane = (int)e->args[1]->int_value;
      return make_swizzle(std::move(e->args[0]), {lane});
    }
    if (is_vector_subscript(*e) && !written.count(e.get()) && e->args[1]->type.is_scalar() &&
        is_repeatable(*e->args[0]) && is_repeatable(*e->args[1]))
      return select_lanes(*e->args[0], *e->args[1], 0);
    if (e->kind == ir::Expr::Kind::VectorConstruct && e->type.is_vector()) {
      for (auto& a : e->args) {
        if (a->type.is_scalar() && a->type.scalar != e->type.scalar)
          a = make_cast(ir::Type::scalar_of(e->type.scalar), std::move(a));
        else if (a->type.is_vector() && a->type.scalar != e->type.scalar)
          a = make_cast(ir::Type::vector_of(e->type.scalar, a->type.count), std::move(a));
      }
    }
    return e;
  });
}

}  // namespace mslport::back::opencl
