// Step: a SIMD-group-strided loop `for (v = S; v < N; v += 32)` that reads a
// __global buffer at `p[v]` or `p[U + v]` (p, U, N and C unchanged by the
// loop) asks for the next iteration's element first:
//   if (v + C < N) mslport_prefetch_l2(&p[U + (v + C)]);
// On NVIDIA that is a PTX `prefetch.global.L2` (the prelude, under
// MSLPORT_NV_SHFL, which the runtime defines there); elsewhere nothing. A
// warp of the row-per-SIMD-group mat-vecs keeps one weight word per lane in
// flight (the next load waits for the arithmetic, docs/performance.md "What
// limits the mat-vecs on NVIDIA"); the hint adds the next one without a register.
// Measured on the H100, the whole NVIDIA bench with and without the hints,
// two rounds each (bench/records/2026-11-24-h100-nvidia-l2-prefetch.txt):
// dequant_matvec_4bit_v3 984-994 -> 1029-1041 GB/s, 8-bit v3 1292-1315 ->
// 1351-1364, 4-bit v5 198 -> 243, v4 and 2-bit unchanged, the other kernels
// (not touched) within 2 %.
// With threadgroup-strided loops too, the mat-vecs lost 10-23 % (a hint in the
// loop that stages x into threadgroup memory); hand-edited, two to four
// iterations ahead gained less than one, the whole row up front lost.
//
// A loop whose body starts its work with `T w = p[U + v];` at its top level
// and writes no memory (no barrier, collective, nested loop or store) is
// also unrolled kUnroll times with the kUnroll words loaded first:
//   for (v = S; v < N; v += 4 * C) {
//     T w0 = p[U + v]; T w1 = v + C < N ? p[U + (v + C)] : 0; ...
//     if (v + 4 * C < N) mslport_prefetch_l2(&p[U + (v + 4 * C)]);
//     { B with w = w0 }  if (v + C < N) { B with v + C, w = w1 }  ...
//   }
// The iterations and their order are the source's, and each word is one
// the source reads (v + k * C < N). NVIDIA's compiler issues a word's load
// only after the previous word's arithmetic; loaded up front, four are in
// flight per lane. Hand-edited on the H100
// (bench/records/2026-11-24-h100-nvidia-unroll.txt): dequant_matvec_8bit_v3
// 1338-1358 -> 1432-1481 GB/s, 4-bit v3 unchanged (issue-bound), 2x +2 %,
// 8x no better than 4x.
//
// Only loops stepping by the SIMD-group width (C = 32), unsigned loop
// variables (v + C wraps rather than overflows), loops with no break or
// return (the next iteration then runs exactly when v + C < N, so the
// prefetched element is one the loop reads), reads outside nested loops, at
// most two buffers per loop.
#include <optional>
#include <vector>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "ir/analysis/loop_invariance.h"
#include "ir/analysis/purity.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::Stmt;
using ir::analysis::invariant;
using ir::analysis::is_loop;
using ir::analysis::note_writes;
using ir::analysis::strip_casts;
using ir::analysis::Writes;

constexpr int kMaxPrefetchesPerLoop = 2;
constexpr int kUnroll = 4;
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
  const auto offset = ir::offset_from_var(index, v);
  if (offset && *offset && !invariant(**offset, w)) return std::nullopt;
  return offset;
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
        if (!(base.kind == Expr::Kind::VarRef || base.kind == Expr::Kind::ParamRef) || !invariant(base, w)) return true;
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

  // The index in `body` of the top-level `T w = p[U + v];` that `read` is
  // the initialiser of, when the body may be unrolled with that word loaded
  // first (see the file comment); -1 otherwise.
  int unrollable_load(const Stmt& body, const Expr* read) const {
    if (body.kind != Stmt::Kind::Block) return -1;
    bool straight = true;  // no nested loop, barrier or continue
    ir::walk_stmts(body, [&](const Stmt& s) {
      if ((is_loop(s) && &s != &body) || s.kind == Stmt::Kind::Barrier || s.kind == Stmt::Kind::Continue)
        straight = false;
      return straight;
    });
    const ir::analysis::Effects fx = ir::analysis::effects_of(body);
    if (!straight || fx.writes_memory || fx.takes_address || fx.synchronises) return -1;
    for (size_t i = 0; i < body.stmts.size(); ++i) {
      const Stmt& s = *body.stmts[i];
      if (s.kind != Stmt::Kind::Decl || s.expr.get() != read) continue;
      // An integer word of the initialiser's own type (the later words are 0
      // past the end).
      const ir::Type& t = k.vars[static_cast<size_t>(s.var)].type;
      if (t == read->type && t.is_scalar() && !ir::is_float(t.scalar) && t.scalar != ir::ScalarKind::Bool)
        return static_cast<int>(i);
    }
    return -1;
  }

  // The loop unrolled kUnroll times, its words loaded first (file comment).
  void unroll_with_loads_first(Stmt& loop, int v, int load_at, const StridedRead& r) {
    const ir::SourceLoc loc = loop.loc;
    const ir::Type u32 = loop.expr->args[0]->type;
    const ir::Type boolean = ir::Type::scalar_of(ir::ScalarKind::Bool);
    const Expr& n = *loop.expr->args[1];
    const Expr& step = *loop.step->args[1];
    const Stmt& load = *loop.body->stmts[static_cast<size_t>(load_at)];
    const ir::Type word = k.vars[load.var].type;
    // v + k * C
    auto ahead = [&](int copies) -> ir::ExprPtr {
      if (copies == 0) return ir::make_var_ref(k, v, loc);
      return ir::make_binary(ir::BinaryOp::Add, u32, ir::make_var_ref(k, v, loc),
                             ir::make_binary(ir::BinaryOp::Mul, u32, ir::make_int(u32, copies, loc), step.clone(), loc),
                             loc);
    };
    auto in_range = [&](int copies) {
      return ir::make_binary(ir::BinaryOp::Lt, boolean, ahead(copies), n.clone(), loc);
    };
    auto element = [&](int copies) {
      ir::ExprPtr index = ahead(copies);
      if (r.offset)
        index = ir::make_binary(ir::BinaryOp::Add, r.read->args[1]->type, r.offset->clone(), std::move(index), loc);
      return index;
    };
    std::vector<ir::StmtPtr> out;
    std::vector<int> words;
    for (int c = 0; c < kUnroll; ++c) {
      const int w = ir::add_var(k, k.vars[load.var].name + "_w" + std::to_string(c), word, loc, /*is_const=*/true);
      words.push_back(w);
      ir::ExprPtr value = make_index(r.read->args[0]->clone(), element(c), r.read->type);
      if (c > 0) value = make_conditional(in_range(c), std::move(value), ir::make_int(word, 0, loc));
      out.push_back(ir::make_decl(w, std::move(value), loc));
    }
    {
      std::vector<ir::ExprPtr> args;
      args.push_back(make_address_of_element(r.read->args[0]->clone(), element(kUnroll), r.read->type));
      std::vector<ir::StmtPtr> hint;
      hint.push_back(ir::make_expr_stmt(make_call("mslport_prefetch_l2", ir::Type::void_type(), std::move(args), loc)));
      out.push_back(ir::make_if(in_range(kUnroll), ir::make_block(std::move(hint), loc), nullptr, loc));
    }
    // Copies 1.. from the source's body (fresh variables, v + k * C for v),
    // then the body itself as copy 0.
    std::vector<ir::StmtPtr> copies(kUnroll);
    std::vector<int> vars(kUnroll, v);
    for (int c = 1; c < kUnroll; ++c) {
      vars[static_cast<size_t>(c)] = ir::add_var(k, k.vars[v].name + "_" + std::to_string(c), u32, loc, true);
      copies[static_cast<size_t>(c)] = ir::clone_with_fresh_vars(k, *loop.body, {{v, vars[static_cast<size_t>(c)]}});
    }
    copies[0] = std::move(loop.body);
    for (int c = 0; c < kUnroll; ++c) {
      ir::StmtPtr& copy = copies[static_cast<size_t>(c)];
      copy->stmts[static_cast<size_t>(load_at)]->expr = ir::make_var_ref(k, words[static_cast<size_t>(c)], loc);
      std::vector<ir::StmtPtr> stmts;
      if (c > 0) stmts.push_back(ir::make_decl(vars[static_cast<size_t>(c)], ahead(c), loc));
      stmts.push_back(std::move(copy));
      ir::StmtPtr block = ir::make_block(std::move(stmts), loc);
      out.push_back(c == 0 ? std::move(block) : ir::make_if(in_range(c), std::move(block), nullptr, loc));
    }
    ir::ExprPtr wide =
        ir::make_binary(ir::BinaryOp::Mul, step.type, ir::make_int(step.type, kUnroll, loc), step.clone(), loc);
    loop.body = ir::make_block(std::move(out), loc);
    loop.step->args[1] = std::move(wide);
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
    const std::vector<StridedRead> reads = strided_reads(*loop.body, v, w);
    if (reads.size() == 1) {
      const int load_at = unrollable_load(*loop.body, reads[0].read);
      if (load_at >= 0) {
        ctx.prelude.require("mslport_prefetch_l2");
        unroll_with_loads_first(loop, v, load_at, reads[0]);
        return;
      }
    }
    std::vector<ir::StmtPtr> hints;
    for (const auto& [read, offset] : reads) {
      ir::ExprPtr index = next();
      if (offset)
        index = ir::make_binary(ir::BinaryOp::Add, read->args[1]->type, offset->clone(), std::move(index), read->loc);
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
