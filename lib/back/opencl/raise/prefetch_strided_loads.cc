// Step: a SIMD-group-strided loop `for (v = S; v < N; v += 32)` that reads a
// __global buffer at `p[v]` or `p[U + v]` (p, U, N and C unchanged by the
// loop) asks for the next iteration's element first:
//   if (v + C < N) mslport_prefetch_l2(&p[U + (v + C)]);
// On NVIDIA that is a PTX `prefetch.global.L2` (the prelude, under
// MSLPORT_NV_SHFL, which the runtime defines there); elsewhere nothing. A
// warp of the row-per-SIMD-group mat-vecs keeps one weight word per lane in
// flight (the next load waits for the arithmetic, docs/design.md "The
// mat-vecs on NVIDIA"); the hint adds the next one without a register.
// Measured on the H100, the whole NVIDIA bench with and without the hints,
// two rounds each (docs/bench/h100-s7-prefetch.txt): dequant_matvec_4bit_v3
// 984-994 -> 1029-1041 GB/s, 8-bit v3 1292-1315 -> 1351-1364, 4-bit v5 198 ->
// 243, v4 and 2-bit unchanged, the other kernels (not touched) within 2 %.
// With threadgroup-strided loops too, the mat-vecs lost 10-23 % (a hint in the
// loop that stages x into threadgroup memory); hand-edited, two to four
// iterations ahead gained less than one, the whole row up front lost.
//
// Only loops stepping by the SIMD-group width (C = 32), unsigned loop
// variables (v + C wraps rather than overflows), loops with no break or
// return (the next iteration then runs exactly when v + C < N, so the
// prefetched element is one the loop reads), reads outside nested loops, at
// most two buffers per loop.
#include <optional>
#include <vector>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/loop_invariance.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::Stmt;

constexpr int kMaxPrefetchesPerLoop = 2;
constexpr int64_t kSimdWidth = 32;

bool is_var(const Expr& e, int var) { return e.kind == Expr::Kind::VarRef && e.index == var; }

// The loop variable of `for (v = S; v < N; v += C)`, or -1.
int strided_loop_var(const Stmt& loop) {
  if (loop.kind != Stmt::Kind::For || !loop.init || !loop.expr || !loop.step) return -1;
  int v = -1;
  if (loop.init->kind == Stmt::Kind::Decl && loop.init->expr) v = loop.init->var;
  if (loop.init->kind == Stmt::Kind::ExprStmt && loop.init->expr->kind == Expr::Kind::Assign &&
      !loop.init->expr->assign_op && loop.init->expr->args[0]->kind == Expr::Kind::VarRef)
    v = loop.init->expr->args[0]->index;
  if (v < 0) return -1;
  const Expr& c = *loop.expr;
  if (c.kind != Expr::Kind::Binary || c.binary_op != ir::BinaryOp::Lt || !is_var(*c.args[0], v)) return -1;
  const Expr& s = *loop.step;
  if (s.kind != Expr::Kind::Assign || s.assign_op != ir::BinaryOp::Add || !is_var(*s.args[0], v)) return -1;
  if (!c.args[0]->type.is_scalar(ir::ScalarKind::UInt)) return -1;
  // Loops that step by the SIMD-group width: each SIMD group walks its own
  // row. Threadgroup-strided loops measured mixed (staging copies into
  // threadgroup memory and bf16_matvec slower, the fused norms 2-5 % faster).
  const Expr& step = strip_casts(*s.args[1]);
  if (step.kind != Expr::Kind::IntLit || step.int_value != kSimdWidth) return -1;
  return v;
}

bool leaves_early(const Stmt& body) {
  bool found = false;
  ir::walk_stmts(body, [&](const Stmt& s) {
    // A break in a nested loop or switch ends only that one.
    if (is_loop(s) && &s != &body) return false;
    found = found || s.kind == Stmt::Kind::Break || s.kind == Stmt::Kind::Return;
    return !found;
  });
  return found;
}

// `U` of an index `v`, `U + v` or `v + U` (nullptr for `v` alone); none
// when the index is none of these or U changes in the loop.
std::optional<const Expr*> offset_of(const Expr& index, int v, const Writes& w) {
  if (is_var(index, v)) return nullptr;
  if (index.kind == Expr::Kind::Binary && index.binary_op == ir::BinaryOp::Add &&
      index.type.is_scalar(ir::ScalarKind::UInt)) {
    for (int side : {0, 1})
      if (is_var(*index.args[side], v) && invariant(*index.args[1 - side], w)) return index.args[1 - side].get();
  }
  return std::nullopt;
}

// A read `p[U + v]` and its U (nullptr for `p[v]`).
struct StridedRead {
  const Expr* read;
  const Expr* offset;
};

struct Prefetcher {
  RaiseContext& ctx;
  ir::Kernel& k;

  // The reads `p[U + v]` of `body` outside nested loops, at most
  // kMaxPrefetchesPerLoop distinct buffers.
  std::vector<StridedRead> strided_reads(const Stmt& body, int v, const Writes& w) {
    std::vector<StridedRead> reads;
    std::vector<const Expr*> written;  // assignment targets: stores, not reads
    ir::walk_stmts(body, [&](const Stmt& s) {
      if (is_loop(s)) return false;
      auto visit = [&](const Expr& e) {
        if (e.kind == Expr::Kind::Assign) written.push_back(e.args[0].get());
        if (e.kind != Expr::Kind::Index || reads.size() >= kMaxPrefetchesPerLoop) return true;
        const Expr& base = *e.args[0];
        if (!base.type.is_pointer() || base.type.space != ir::AddressSpace::Device) return true;
        if (!(base.kind == Expr::Kind::VarRef || base.kind == Expr::Kind::ParamRef) || !invariant(base, w))
          return true;
        const auto offset = offset_of(*e.args[1], v, w);
        if (!offset) return true;
        for (const Expr* t : written)
          if (t == &e) return true;
        for (const StridedRead& r : reads)
          if (r.read->args[0]->kind == base.kind && r.read->args[0]->index == base.index) return true;
        reads.push_back({&e, *offset});
        return true;
      };
      if (s.expr) ir::walk_exprs(*s.expr, visit);
      if (s.step) ir::walk_exprs(*s.step, visit);
      return true;
    });
    return reads;
  }

  void add_prefetches(Stmt& loop) {
    const int v = strided_loop_var(loop);
    if (v < 0 || !loop.body || leaves_early(*loop.body)) return;
    Writes w;
    note_writes(*loop.body, w);
    const Expr& n = *loop.expr->args[1];
    const Expr& step = *loop.step->args[1];
    if (w.vars.count(v) || !invariant(n, w) || !invariant(step, w)) return;
    // v + C, the next iteration's v
    auto next = [&] {
      return ir::make_binary(ir::BinaryOp::Add, loop.expr->args[0]->type, ir::make_var_ref(k, v, loop.step->loc),
                         step.clone(), loop.step->loc);
    };
    std::vector<ir::StmtPtr> hints;
    for (const auto& [read, offset] : strided_reads(*loop.body, v, w)) {
      ir::ExprPtr index = next();
      if (offset) index = ir::make_binary(ir::BinaryOp::Add, read->args[1]->type, offset->clone(), std::move(index), read->loc);
      std::vector<ir::ExprPtr> args;
      args.push_back(make_address_of_element(read->args[0]->clone(), std::move(index), read->type));
      hints.push_back(
          ir::make_expr_stmt(make_call("mslport_prefetch_l2", ir::Type::void_type(), std::move(args), read->loc)));
    }
    if (hints.empty()) return;
    // if (v + C < N) { the hints }
    auto in_range =
        ir::make_binary(ir::BinaryOp::Lt, ir::Type::scalar_of(ir::ScalarKind::Bool), next(), n.clone(), loop.expr->loc);
    auto guarded = ir::make_if(std::move(in_range), ir::make_block(std::move(hints), loop.loc), nullptr, loop.loc);
    ctx.prelude.require("mslport_prefetch_l2");
    if (loop.body->kind != Stmt::Kind::Block) {
      std::vector<ir::StmtPtr> one;
      one.push_back(std::move(loop.body));
      loop.body = ir::make_block(std::move(one), loop.loc);
    }
    loop.body->stmts.insert(loop.body->stmts.begin(), std::move(guarded));
  }

  void visit(Stmt& s) {
    if (s.kind == Stmt::Kind::For) add_prefetches(s);
    for (auto& c : s.stmts) visit(*c);
    for (Stmt* c : {s.init.get(), s.body.get(), s.else_body.get()})
      if (c) visit(*c);
  }
};

}  // namespace

void raise_prefetch_strided_loads(RaiseContext& ctx, ir::Kernel& k) {
  Prefetcher p{ctx, k};
  if (k.body) p.visit(*k.body);
}

}  // namespace mslport::back::opencl
