#include "back/openmp/raise/loop_schedule_points.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/analysis/loop_invariance.h"
#include "ir/analysis/purity.h"
#include "ir/analysis/uniformity.h"

namespace mslport::back::openmp {
using namespace ir;
using namespace ir::analysis;

namespace {

// No sync, break, continue, return or simdgroup_matrix anywhere in the body
// (loops inside are fine: they are chosen in turn, or stay in the work-item
// loop).
bool schedulable_body(const Stmt& body) {
  if (contains_sync(body)) return false;
  bool ok = true;
  walk_stmts(body, [&](const Stmt& s) {
    if (s.kind == Stmt::Kind::Break || s.kind == Stmt::Kind::Continue || s.kind == Stmt::Kind::Return) ok = false;
    return ok;
  });
  // simdgroup_matrix operations act for the whole SIMD group at once (the
  // backend keeps one copy of each matrix): leave their loops alone.
  walk_stmt_exprs(body, [&](const Expr& e) {
    if (e.kind == Expr::Kind::SimdMatrixOp || e.type.kind == Type::Kind::SimdMatrix) ok = false;
    return ok;
  });
  return ok;
}

const Expr* strip_casts(const Expr* e) { return &analysis::strip_casts(*e); }

bool is_var(const Expr& e, int var) {
  const Expr* x = strip_casts(&e);
  return x->kind == Expr::Kind::VarRef && x->index == var;
}

// `e` may change from one iteration of a loop with this body to the next.
bool writes_any(const Stmt& body, const Expr& e) { return reads_written(e, writes_of(body)); }

// A stride that is never zero: a positive literal, or a size builtin.
bool positive_stride(const Kernel& k, const Expr& e) {
  const Expr* x = strip_casts(&e);
  if (x->kind == Expr::Kind::IntLit) return x->int_value > 0 && x->int_value < (1 << 20);
  if (x->kind == Expr::Kind::Swizzle) x = strip_casts(x->args[0].get());
  if (x->kind != Expr::Kind::ParamRef || k.params[x->index].kind != Param::Kind::Builtin) return false;
  switch (k.params[x->index].builtin) {
    case BuiltinId::ThreadsPerThreadgroup:
    case BuiltinId::ThreadsPerGrid:
    case BuiltinId::GridSize:
    case BuiltinId::ThreadgroupsPerGrid:
    case BuiltinId::DispatchThreadsPerThreadgroup:
    case BuiltinId::ThreadsPerSimdgroup:
    case BuiltinId::SimdgroupsPerThreadgroup: return true;
    default: return false;
  }
}

// An exclusive upper bound, the same for every thread, of a strided loop's
// per-thread start: 32 for the SIMD lane, the threadgroup's x size for
// thread_position_in_threadgroup(.x), its thread count for
// thread_index_in_threadgroup; null for anything else. The sizes are calls
// the OpenMP printer knows (this pass runs for that backend only).
// A call of one of the functions loop_schedule_points.h names (uint).
ExprPtr make_uint_call(const char* name, std::vector<ExprPtr> args, SourceLoc loc) {
  return make_call(name, Type::scalar_of(ScalarKind::UInt), std::move(args), std::move(loc));
}

ExprPtr start_bound(const Kernel& k, const Expr& start, SourceLoc loc) {
  const Type u32 = Type::scalar_of(ScalarKind::UInt);
  const Expr* x = strip_casts(&start);
  bool lane_x = true;
  if (x->kind == Expr::Kind::Swizzle) {
    lane_x = x->components.size() == 1 && x->components[0] == 0;
    x = strip_casts(x->args[0].get());
  }
  if (x->kind != Expr::Kind::ParamRef || k.params[x->index].kind != Param::Kind::Builtin) return nullptr;
  switch (k.params[x->index].builtin) {
    case BuiltinId::ThreadIndexInSimdgroup: return make_int(u32, 32, loc);
    case BuiltinId::ThreadPositionInThreadgroup: return lane_x ? make_uint_call(kThreadgroupSizeX, {}, loc) : nullptr;
    case BuiltinId::ThreadIndexInThreadgroup: return make_uint_call(kThreadgroupThreads, {}, loc);
    default: return nullptr;
  }
}

struct Scheduler {
  Kernel& k;
  UniformityInfo info;
  int inserted = 0;
  int rewritten = 0;

  // Variables created since `info` was computed (a peeled loop's copy of
  // its body) count as memory-dependent: nothing is decided on them until
  // the analysis runs again.
  Uniformity level(const Expr& e) const { return info.expr_after_rewrite(k, e, Uniformity::Unknown); }
  bool uniform(const Expr& e) const { return level(e) == Uniformity::Threadgroup; }

  // `for (uint v = S; v < N; v += C) B` with S per-thread, N and C uniform
  // (and not written by B), C never zero, v not written by B.
  bool thread_strided(const Stmt& s) const {
    if (s.kind != Stmt::Kind::For || !s.init || s.init->kind != Stmt::Kind::Decl || !s.init->expr || !s.expr || !s.step)
      return false;
    int v = s.init->var;
    const Type& t = k.vars[v].type;
    if (!t.is_scalar() || t.scalar != ScalarKind::UInt) return false;
    const Expr& c = *s.expr;
    if (c.kind != Expr::Kind::Binary || c.binary_op != BinaryOp::Lt || !is_var(*c.args[0], v) ||
        c.args[0]->type.scalar != ScalarKind::UInt || c.args[1]->type.scalar != ScalarKind::UInt ||
        !c.args[1]->type.is_scalar() || !uniform(*c.args[1]) || writes_any(*s.body, *c.args[1]))
      return false;
    const Expr& st = *s.step;
    if (st.kind != Expr::Kind::Assign || !st.assign_op || *st.assign_op != BinaryOp::Add || !is_var(*st.args[0], v))
      return false;
    const Expr& inc = *st.args[1];
    if (!inc.type.is_scalar() || !uniform(inc) || !positive_stride(k, inc) || writes_any(*s.body, inc)) return false;
    return !writes_any(*s.body, *c.args[0]) && schedulable_body(*s.body);
  }

  // Device or constant memory read at `P[v]`, `P[U + v]` or `P[v + U]` in
  // `body`, with P and U threadgroup-uniform, pure and unchanged by `body`
  // (at most two such pointers, the first seen): the address the
  // threadgroup's iteration `it` starts at, `&P[U + start_of_it]`, is then
  // a threadgroup-level value.
  struct StreamedRead {
    const Expr* pointer;
    const Expr* offset;  // null for P[v]
    int element_size;
  };
  struct SeenRead {
    ExprPtr pointer, offset;
  };
  std::vector<SeenRead> streamed_before;  // by the loops rewritten so far
  std::vector<StreamedRead> streamed_reads(const Stmt& body, int v) const {
    std::vector<StreamedRead> found;
    std::set<int> declared;  // in the body: renamed in its copies, not visible before it
    walk_stmts(body, [&](const Stmt& x) {
      if (x.kind == Stmt::Kind::Decl) declared.insert(x.var);
      return true;
    });
    auto plain = [&](const Expr& e) {
      bool ok = uniform(e) && !writes_any(body, e) && is_arithmetic(e);
      walk_exprs(e, [&](const Expr& x) {
        if (x.kind == Expr::Kind::VarRef && declared.count(x.index)) ok = false;
        return ok;
      });
      return ok;
    };
    std::set<const Expr*> written;  // `P[v] = ...`: a hint would fetch the line to read, then own it to write
    walk_stmt_exprs(body, [&](const Expr& e) {
      if (writes_operand(e)) written.insert(e.args[0].get());
      return true;
    });
    walk_stmt_exprs(body, [&](const Expr& e) {
      if (e.kind != Expr::Kind::Index || found.size() >= 2 || !e.type.is_scalar() || written.count(&e)) return true;
      // Every element size. With the hint four iterations ahead the norms'
      // float rows ran 0.83-0.96x on 16 cores; about 16 KB ahead
      // (openmp_rt.h), float hints made fused_norm_add_f32 1.38-1.48x,
      // fused_residual_norm_f32 1.05-1.21x and fused_moe_wsum_norm_add_f32
      // 1.06-1.09x on the 2-core VM; on 16 cores these and bf16_matvec ran
      // 0.93-1.21x against hints for 1- and 2-byte elements only, four
      // iterations ahead (bench/records/2026-11-24-cpu2-prefetch-distance.txt,
      // bench/records/2026-11-24-h100-prefetch-distance.txt).
      const Expr& p = *e.args[0];
      if (!p.type.is_pointer() || (p.type.space != AddressSpace::Device && p.type.space != AddressSpace::Constant))
        return true;
      const auto index_offset = offset_from_var(*e.args[1], v);
      if (!index_offset) return true;
      const Expr* offset = *index_offset;
      if ((offset && !plain(*offset)) || !plain(p)) return true;
      // A buffer argument read at `v` alone: every threadgroup reads the same
      // elements (a mat-vec's x, a norm's weights), mostly from cache.
      if (!offset && p.kind == Expr::Kind::ParamRef) return true;
      auto same = [&](const Expr& fp, const Expr* fo) {
        return same_expr(fp, p) && ((!fo && !offset) || (fo && offset && same_expr(*fo, *offset)));
      };
      for (auto& f : found)
        if (same(*f.pointer, f.offset)) return true;
      // Streamed by an earlier loop (a norm's second pass over its row): in cache.
      for (auto& f : streamed_before)
        if (same(*f.pointer, f.offset.get())) return true;
      found.push_back({&p, offset, scalar_size(e.type.scalar)});
      return true;
    });
    return found;
  }

  // `mslport::prefetch_ahead(&P[U + it * C], C * size, bound * size)`
  // for each streamed read: the lines the threadgroup reads a few
  // iterations later (loop_schedule_points.h, kPrefetchAhead).
  void add_prefetch_hints(Stmt& loop, const std::vector<StreamedRead>& reads, const Expr& c, const Expr& bound) {
    const Type u32 = Type::scalar_of(ScalarKind::UInt);
    const SourceLoc loc = loop.loc;
    const int it = loop.init->var;
    std::vector<StmtPtr> hints;
    for (auto& r : reads) {
      // Every thread's start is below `bound`: the iteration's reads lie in
      // [U + it * C, U + it * C + bound).
      ExprPtr index = make_binary(BinaryOp::Mul, u32, make_var_ref(k, it, loc), c.clone(), loc);
      if (r.offset) index = make_binary(BinaryOp::Add, u32, r.offset->clone(), std::move(index), loc);
      ExprPtr address = make_address_of_element(r.pointer->clone(), std::move(index), *r.pointer->type.elem);
      auto bytes = [&](const Expr& n) {
        return make_binary(BinaryOp::Mul, u32, n.clone(), make_int(u32, r.element_size, loc), loc);
      };
      std::vector<ExprPtr> args;
      args.push_back(std::move(address));
      args.push_back(bytes(c));
      args.push_back(bytes(bound));
      hints.push_back(make_expr_stmt(make_call(kPrefetchAhead, Type::void_type(), std::move(args), loc)));
    }
    auto& stmts = loop.body->stmts;
    stmts.insert(stmts.begin(), std::make_move_iterator(hints.begin()), std::make_move_iterator(hints.end()));
  }

  // for (uint v = S; v < N; v += C) B   =>
  //   uint start = S;
  //   for (uint it = 0; it < (N == 0 ? 0 : (N - 1) / C + 1); it += 1) {
  //     uint v = start + it * C;  if (v < N) B }
  // Same iterations in the same order for every thread (while S + k*C does
  // not wrap around 2^32, where the original loop would misbehave too); the
  // trip count is now uniform, so the loop can be turned inside out.
  //
  // When every S is below a known bound (start_bound), the iterations that
  // every thread completes come first, without the test:
  //   full = N >= bound ? (N - bound) / C + 1 : 0    (64-bit)
  //   for (uint it = 0; it < full; it += 1) { uint v = start + it * C; B }
  //   for (uint it2 = 0; it2 < trips - full; it2 += 1) {
  //     uint v = start + (full + it2) * C; if (v < N) B }
  // it * C + bound <= N there, so v < N for every thread: B runs unmasked
  // (a vector loop with plain loads), and loops in B are under no
  // per-thread condition (they can be turned inside out too). The second
  // loop is the tail: at most ceil(bound / C) iterations.
  // The result is written into `out`.
  void rewrite_strided(StmtPtr& loop, std::vector<StmtPtr>& out) {
    Stmt& s = *loop;
    SourceLoc loc = s.loc;
    const Type u32 = Type::scalar_of(ScalarKind::UInt);
    const Type boolean = Type::scalar_of(ScalarKind::Bool);
    auto cast_to = [&](const Type& t, ExprPtr e) {
      if (e->type == t) return e;
      auto c = std::make_unique<Expr>();
      c->kind = Expr::Kind::Cast;
      c->type = t;
      c->loc = loc;
      c->args.push_back(std::move(e));
      return c;
    };
    const std::string suffix = std::to_string(rewritten++);
    int v = s.init->var;
    int start = add_var(k, "mslport_start" + suffix, u32, loc, true);
    ExprPtr bound = start_bound(k, *s.init->expr, loc);
    out.push_back(make_decl(start, std::move(s.init->expr), loc));
    ExprPtr n = std::move(s.expr->args[1]);
    ExprPtr c = cast_to(u32, std::move(s.step->args[1]));
    auto args = [](auto&&... a) {
      std::vector<ExprPtr> v;
      (v.push_back(std::move(a)), ...);
      return v;
    };
    // N == 0 ? 0 : (N - 1) / C + 1
    ExprPtr trips = make_uint_call(kStridedTrips, args(n->clone(), c->clone()), loc);

    // for (uint it = 0; it < limit; it += 1) { uint v = start + (skip + it) * C; body }
    // (the loop starts at 0: an initialiser is evaluated where the loop is,
    // and under an early return's flag N may only be known per thread.)
    auto iteration_loop = [&](const std::string& name, ExprPtr skip, ExprPtr limit, StmtPtr body, int v) {
      int it = add_var(k, name, u32, loc);
      ExprPtr index = make_var_ref(k, it, loc);
      if (skip) index = make_binary(BinaryOp::Add, u32, std::move(skip), std::move(index), loc);
      std::vector<StmtPtr> stmts;
      stmts.push_back(make_decl(v,
                                make_binary(BinaryOp::Add, u32, make_var_ref(k, start, loc),
                                            make_binary(BinaryOp::Mul, u32, std::move(index), c->clone(), loc), loc),
                                loc));
      stmts.push_back(std::move(body));
      auto f = std::make_unique<Stmt>();
      f->kind = Stmt::Kind::For;
      f->loc = loc;
      f->init = make_decl(it, make_int(u32, 0, loc), loc);
      f->expr = make_binary(BinaryOp::Lt, boolean, make_var_ref(k, it, loc), std::move(limit), loc);
      ExprPtr step = make_assign(make_var_ref(k, it, loc), make_int(u32, 1, loc), loc);
      step->assign_op = BinaryOp::Add;
      f->step = std::move(step);
      f->body = make_block(std::move(stmts), loc);
      return f;
    };
    auto guarded = [&](StmtPtr body) {
      return make_if(make_binary(BinaryOp::Lt, boolean, make_var_ref(k, v, loc), n->clone(), loc), std::move(body),
                     nullptr, loc);
    };
    if (!bound) {
      out.push_back(iteration_loop("mslport_iter" + suffix, nullptr, std::move(trips), guarded(std::move(s.body)), v));
      return;
    }
    // N >= bound ? (N - bound) / C + 1 : 0, in 64 bits. Inline, like the
    // trip count, not a variable: under an early return's flag a variable
    // would be assigned per thread, and the loops need the value at
    // threadgroup level (the compiler hoists the call out of the loop).
    // Read before `bound` moves into the call; the hints go into the full loop.
    const std::vector<StreamedRead> reads = streamed_reads(*s.body, v);
    for (auto& r : reads) streamed_before.push_back({r.pointer->clone(), r.offset ? r.offset->clone() : nullptr});
    ExprPtr span = bound->clone();
    ExprPtr full_trips = make_uint_call(kFullTrips, args(n->clone(), std::move(bound), c->clone()), loc);
    Var loop_var = k.vars[v];
    int v_full = add_var(k, loop_var.name, loop_var.type, loop_var.loc, loop_var.is_const);
    StmtPtr full_body = clone_with_fresh_vars(k, *s.body, {{v, v_full}});
    ExprPtr tail_trips = make_binary(BinaryOp::Sub, u32, std::move(trips), full_trips->clone(), loc);
    out.push_back(iteration_loop("mslport_iter" + suffix, nullptr, full_trips->clone(), std::move(full_body), v_full));
    if (!reads.empty()) add_prefetch_hints(*out.back(), reads, *c, *span);
    out.push_back(iteration_loop("mslport_tail" + suffix, std::move(full_trips), std::move(tail_trips),
                                 guarded(std::move(s.body)), v));
  }

  void rewrite_block(Stmt& b, bool under_memory_condition) {
    std::vector<StmtPtr> out;
    for (auto& c : b.stmts) {
      if (!under_memory_condition && thread_strided(*c)) {
        auto it = info.loop_level.find(c.get());
        Uniformity u = it == info.loop_level.end() ? Uniformity::Threadgroup : it->second;
        if (u == Uniformity::Thread || u == Uniformity::Simdgroup) {
          size_t first = out.size();
          rewrite_strided(c, out);
          for (size_t i = first; i < out.size(); ++i)  // loops nested in them
            if (out[i]->kind == Stmt::Kind::For) rewrite_block(*out[i]->body, under_memory_condition);
          continue;
        }
      }
      if (c->kind == Stmt::Kind::Block) rewrite_block(*c, under_memory_condition);
      if (c->kind == Stmt::Kind::For) rewrite_block(*c->body, under_memory_condition);
      if (c->kind == Stmt::Kind::If) {
        bool m = under_memory_condition || level(*c->expr) == Uniformity::Unknown;
        rewrite_block(*c->body, m);
        if (c->else_body) rewrite_block(*c->else_body, m);
      }
      out.push_back(std::move(c));
    }
    b.stmts = std::move(out);
  }

  bool literal_bound(const Stmt& s) const {
    if (!s.expr || s.expr->kind != Expr::Kind::Binary || s.expr->args.size() != 2) return false;
    for (auto& a : s.expr->args) {
      const Expr* x = strip_casts(a.get());
      if (x->kind == Expr::Kind::IntLit || x->kind == Expr::Kind::GlobalConstRef) return true;
    }
    return false;
  }

  // Per statement, found once before visit(): schedulable_body, and whether
  // it accesses a buffer at a per-thread index. Asked at every level of a
  // chain of else-ifs, a walk per question made the chain quadratic. The
  // points visit() inserts go to the top of a body it has decided on, so
  // they never change the answer for a statement asked about later.
  std::unordered_map<const Stmt*, bool> schedulable_, per_thread_access_;

  void find_facts(const Stmt& s) {
    bool schedulable = s.kind != Stmt::Kind::Break && s.kind != Stmt::Kind::Continue && s.kind != Stmt::Kind::Return &&
                       s.kind != Stmt::Kind::Barrier;
    bool access = false;
    for (const Expr* e : {s.expr.get(), s.step.get()}) {
      if (!e) continue;
      walk_exprs(*e, [&](const Expr& x) {
        // simdgroup_matrix operations act for the whole SIMD group at once
        // (the backend keeps one copy of each matrix): leave their loops alone.
        if (x.kind == Expr::Kind::Collective || x.kind == Expr::Kind::SimdMatrixOp ||
            x.type.kind == Type::Kind::SimdMatrix)
          schedulable = false;
        if (x.kind == Expr::Kind::Index && x.args[0]->type.kind == Type::Kind::Pointer &&
            level(*x.args[1]) != Uniformity::Threadgroup)
          access = true;
        return true;
      });
    }
    auto child = [&](const StmtPtr& c) {
      if (!c) return;
      find_facts(*c);
      schedulable = schedulable && schedulable_[c.get()];
      access = access || per_thread_access_[c.get()];
    };
    for (auto& c : s.stmts) child(c);
    child(s.init);
    child(s.body);
    child(s.else_body);
    schedulable_[&s] = schedulable;
    per_thread_access_[&s] = access;
  }
  bool schedulable(const Stmt& body) const { return schedulable_.at(&body); }

  bool chosen(const Stmt& s) const {
    if (s.kind != Stmt::Kind::For || !schedulable(*s.body) || literal_bound(s)) return false;
    if (s.step && contains_collective(*s.step)) return false;
    auto it = info.loop_level.find(&s);
    Uniformity u = it == info.loop_level.end() ? Uniformity::Threadgroup : it->second;
    // Only where every thread reaches the loop: under a per-thread condition
    // (`if (tid == 0) { for (...) }`) the loop would run once per iteration
    // over all the threads with one of them active (moe_gate's top-k: 2.4x
    // slower when these were chosen).
    return u == Uniformity::Threadgroup;
  }

  // `if (K > 3) moe += w[3] * expert3[tid]`: a threadgroup-uniform
  // condition every thread reaches, guarding per-thread buffer accesses. In
  // a work-item loop the compiler turns the condition into a mask on the
  // loads (vectorised code runs both sides), and masked loads of buffers
  // the condition says not to touch are slow: AVX-512 suppresses the faults
  // of a 64-byte buffer read 8 MB past its end in microcode (measured:
  // moe_combine_residual with 8 of 16 experts bound, 1.4 GB/s). A schedule
  // point in each branch makes the If run once per threadgroup instead,
  // with work-item loops inside.
  bool uniform_branch(const Stmt& s) const {
    if (s.kind != Stmt::Kind::If || !schedulable(*s.body) || (s.else_body && !schedulable(*s.else_body))) return false;
    if (info.control_of(&s) != Uniformity::Threadgroup || level(*s.expr) != Uniformity::Threadgroup) return false;
    return per_thread_access_.at(s.body.get()) || (s.else_body && per_thread_access_.at(s.else_body.get()));
  }

  void insert_point(Stmt& body, SourceLoc loc) {
    auto b = std::make_unique<Stmt>();
    b->kind = Stmt::Kind::Barrier;
    b->loc = loc;
    b->lockstep = true;
    body.stmts.insert(body.stmts.begin(), std::move(b));
    ++inserted;
  }

  // A loop nested in a chosen loop is turned inside out only if no
  // per-thread access in it steps by one along its variable: `v += eo[k *
  // dim + i]` (contiguous across threads) yes; a per-thread dot product
  // `dot += h[d] * w_row[d]` no: it vectorises better along d than across
  // threads whose rows are far apart (moe_gate 14 ms -> 1.27 s when it was).
  bool steps_along_itself(const Stmt& loop) const {
    int var = loop.init && loop.init->kind == Stmt::Kind::Decl ? loop.init->var : -1;
    if (var < 0) return true;
    bool found = false;
    walk_stmt_exprs(*loop.body, [&](const Expr& e) {
      walk_exprs(e, [&](const Expr& x) {
        if (x.kind != Expr::Kind::Index) return true;
        if (level(*x.args[0]) == Uniformity::Threadgroup && level(*x.args[1]) == Uniformity::Threadgroup)
          return true;  // the same element for every thread
        std::vector<const Expr*> terms{x.args[1].get()};
        while (!terms.empty() && !found) {
          const Expr* t = strip_casts(terms.back());
          terms.pop_back();
          if (t->kind == Expr::Kind::Binary && t->binary_op == BinaryOp::Add) {
            terms.push_back(t->args[0].get());
            terms.push_back(t->args[1].get());
          } else {
            found = t->kind == Expr::Kind::VarRef && t->index == var;
          }
        }
        return !found;
      });
      return !found;
    });
    return found;
  }

  bool in_chosen_loop = false;

  void visit(Stmt& s, bool under_memory_condition) {
    switch (s.kind) {
      case Stmt::Kind::Block:
        for (auto& c : s.stmts) visit(*c, under_memory_condition);
        break;
      case Stmt::Kind::If: {
        if (!under_memory_condition && uniform_branch(s)) {
          insert_point(*s.body, s.loc);
          if (s.else_body && !s.else_body->stmts.empty()) insert_point(*s.else_body, s.loc);
        }
        bool m = under_memory_condition || level(*s.expr) == Uniformity::Unknown;
        visit(*s.body, m);
        if (s.else_body) visit(*s.else_body, m);
        break;
      }
      case Stmt::Kind::For:
        if (!under_memory_condition && chosen(s) && (!in_chosen_loop || !steps_along_itself(s))) {
          insert_point(*s.body, s.loc);
          bool outer = in_chosen_loop;
          in_chosen_loop = true;
          visit(*s.body, under_memory_condition);
          in_chosen_loop = outer;
        }
        break;
      default: break;
    }
  }
};

}  // namespace

bool is_prefetch_hint(const Stmt& s) {
  return s.kind == Stmt::Kind::ExprStmt && s.expr->kind == Expr::Kind::Call && s.expr->spelling == kPrefetchAhead;
}

int insert_loop_schedule_points(Kernel& k) {
  if (!k.body) return 0;
  Scheduler s{k, analyze_uniformity(k)};
  s.rewrite_block(*k.body, false);
  if (s.rewritten) s.info = analyze_uniformity(k);  // the new variables
  s.find_facts(*k.body);
  s.visit(*k.body, false);
  return s.inserted;
}

}  // namespace mslport::back::openmp
