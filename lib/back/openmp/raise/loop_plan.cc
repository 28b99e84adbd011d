#include "back/openmp/raise/loop_plan.h"

#include <functional>

#include "back/openmp/raise/loop_schedule_points.h"
#include "ir/analysis/purity.h"
#include "ir/analysis/uniformity.h"
#include "ir/intrinsics.h"
#include "passes/hoist_collectives.h"
#include "passes/predicate_sync.h"

namespace mslport::back::openmp {
namespace {

using ir::Expr;
using ir::SourceLoc;
using ir::Stmt;
using ir::analysis::builtin_uniformity;
using ir::analysis::contains_return;
using ir::analysis::Uniformity;
using Stmts = std::vector<const Stmt*>;
using Exprs = std::vector<const Expr*>;

bool reads_var(const Stmts& stmts, int var) {
  bool found = false;
  for (auto* s : stmts)
    ir::walk_stmt_exprs(*s, [&](const Expr& x) {
      found = found || (x.kind == Expr::Kind::VarRef && x.index == var);
      return !found;
    });
  return found;
}

bool writes_var(const Stmts& stmts, int var) {
  for (auto* s : stmts)
    if (ir::vars_written(*s).count(var)) return true;
  return false;
}

// The first barrier or SIMD-group function in `s` (for the divergence finding's note).
const Stmt* first_sync(const Stmt* s) {
  const Stmt* found = nullptr;
  if (s)
    ir::walk_stmts(*s, [&](const Stmt& x) {
      if (found) return false;
      if ((x.kind == Stmt::Kind::Barrier && !x.lockstep) || passes::is_canonical_collective_stmt(x)) found = &x;
      return !found;
    });
  return found;
}

// Where the loops being planned sit: what the enclosing copies decided.
struct Context {
  int known_true = -1;             // the alive flag, in an all-alive copy
  bool all_alive_copy = false;     // inside an AllAlive choice: no second split
  bool simd_group_major = false;   // inside a SimdGroupMajor loop's first copy: lz, ly and sx are open
  bool no_simd_chunks = false;     // inside its second copy (x sizes that are no multiple of 32)
  std::vector<const Expr*> trips;  // trip counts of the counted threadgroup loops around
};

class Planner {
 public:
  Planner(const ir::Kernel& k, const StoragePlan& storage, const LoopPlanOptions& options, SanitizerSites& sites,
          DiagEngine& diags)
      : k_(k), plan_(storage), options_(options), sites_(sites), diags_(diags) {}

  bool build(LoopPlan* out);

 private:
  // ---- the values a loop declares (loop_values.h)
  LoopValues loop_values(const Stmts& stmts, const Exprs& exprs) const {
    return openmp::loop_values(k_, plan_, stmts, exprs);
  }
  bool uses_simd_lanes(const Stmts& stmts) const { return openmp::uses_simd_lanes(k_, plan_, stmts); }

  // ---- loops
  bool loop_is_simd(const Stmts& stmts, bool allow_simd, bool returns_as_if_else) const;
  WorkItemLoop loop(const Stmts& stmts, const Exprs& exprs, bool allow_simd, RowEnd end, LoopShape shape,
                    bool returns_as_if_else) const;
  FirstItem first_item(const Stmts& defs, const Exprs& exprs) const;
  std::unique_ptr<LoopChoice> work_item_loop(const Stmts& stmts, bool returns_as_if_else, const Context& ctx);
  std::unique_ptr<LoopChoice> x_loop(const Stmts& stmts, RowEnd end, bool returns_as_if_else, const Context& ctx);
  bool tracks_all_alive() const {
    return alive_var_ >= 0 && !options_.sanitize && plan_.storage[alive_var_] == Storage::PerThread;
  }

  // ---- regions and threadgroup-level statements
  Region region(const Stmts& stmts, const Context& ctx);
  bool prefix_guarded(const std::optional<PrefixGuard>& g, const Context& ctx, Region* out);
  void tg_block(const Stmt& b, const Context& ctx, std::vector<TgNode>* out);
  TgNode tg_stmt(const Stmt& s, const Context& ctx);
  TgNode uniform_loop(const Stmt& s, const Context& ctx);
  bool runs_simd_group_major(const Stmt& loop, const Context& ctx) const;
  std::optional<const Expr*> counted_trips(const Stmt& s) const;
  Condition condition(const Expr& cond, const SourceLoc& where, const Stmt* body);
  TgNode collective(const Stmt& s);

  const ir::Kernel& k_;
  const StoragePlan& plan_;
  const LoopPlanOptions& options_;
  SanitizerSites& sites_;
  DiagEngine& diags_;
  bool ok_ = true;
  int alive_var_ = -1;
  std::set<int> write_only_;             // streaming_stores.h's write_only_buffers
  RowPrefetchFacts row_prefetch_facts_;  // row_prefetch.h's facts about the kernel
  bool streams_ = false;
};

// ----------------------------------------------------------------- loops --

bool Planner::loop_is_simd(const Stmts& stmts, bool allow_simd, bool returns_as_if_else) const {
  // Work-items of one barrier interval are unordered in Metal (a race-free
  // kernel has no dependence between them), so the loop over them may run
  // as SIMD lanes, like a GPU's. Loops that leave early stay scalar.
  bool simd = allow_simd;
  // Vectorised, every access to a private array at a per-lane index is a
  // gather or a scatter, and `omp simd` makes the compiler vectorise
  // whatever its cost model says: dequant_matvec_4bit_v5, which rebuilds and
  // reads a 16-entry table per lane, ran 2x slower that way than scalar.
  simd = simd && !indexes_private_array_per_lane(k_, plan_, stmts);
  // An atomic is a read-modify-write of memory other work-items share: the
  // loop's lanes must not be assumed independent.
  for (auto* s : stmts) simd = simd && !ir::analysis::effects_of(*s).writes_memory_atomically;
  if (!returns_as_if_else)
    for (auto* s : stmts) simd = simd && !contains_return(*s);
  return simd;
}

WorkItemLoop Planner::loop(const Stmts& stmts, const Exprs& exprs, bool allow_simd, RowEnd end, LoopShape shape,
                           bool returns_as_if_else) const {
  WorkItemLoop l;
  l.shape = shape;
  l.end = end;
  // Sanitizing: the checker's calls must run in order.
  l.simd = loop_is_simd(stmts, allow_simd, returns_as_if_else) && !options_.sanitize;
  l.values = loop_values(stmts, exprs);
  // Sanitizing, the checker sees every lane's own computation.
  if ((shape == LoopShape::SimdGroups || shape == LoopShape::SimdGroupLanes) && !options_.sanitize)
    l.hoisted = take_simd_group_values(k_, plan_, &l.values);
  l.stmts = stmts;
  l.returns_as_if_else = returns_as_if_else;
  return l;
}

FirstItem Planner::first_item(const Stmts& defs, const Exprs& exprs) const {
  FirstItem f;
  f.defs = defs;
  f.values = loop_values(defs, exprs);
  return f;
}

std::unique_ptr<LoopChoice> Planner::work_item_loop(const Stmts& stmts, bool returns_as_if_else, const Context& ctx) {
  auto choice = std::make_unique<LoopChoice>();
  // Statements under eliminate_returns' `if (alive)` get a second copy of
  // their loops for when no work-item of the group has returned: there the
  // test is known true and the loads under it are plain vector loads, not
  // masked ones (measured on AVX-512: weighted_sum_stacked_f32 19 -> 29
  // GB/s). Not where the statements themselves end work-items, and not
  // when sanitizing (the checker wants the one copy).
  if (tracks_all_alive() && !ctx.all_alive_copy && reads_var(stmts, alive_var_) && !writes_var(stmts, alive_var_)) {
    Context alive = ctx, other = ctx;
    alive.all_alive_copy = other.all_alive_copy = true;
    alive.known_true = alive_var_;
    choice->kind = LoopChoice::Kind::AllAlive;
    choice->first = work_item_loop(stmts, returns_as_if_else, alive);
    choice->second = work_item_loop(stmts, returns_as_if_else, other);
    return choice;
  }
  if (ctx.simd_group_major) {
    choice->loop = loop(stmts, {}, true, RowEnd::GroupWidth, LoopShape::SimdGroupLanes, returns_as_if_else);
    return choice;
  }
  // When the statements use the SIMD lane or SIMD-group index, threadgroups
  // whose x size is a multiple of 32 get the loop split per SIMD group,
  // where the lane is the induction variable minus a constant: `a[lane + 32
  // * k]` becomes a contiguous vector load instead of a gather (wi % 32
  // hides the stride from the compiler). Other sizes take the plain loop.
  if (!uses_simd_lanes(stmts) || options_.sanitize || ctx.no_simd_chunks)
    return x_loop(stmts, RowEnd::GroupWidth, returns_as_if_else, ctx);
  choice->kind = LoopChoice::Kind::SimdWidth;
  choice->first = std::make_unique<LoopChoice>();
  choice->first->loop = loop(stmts, {}, true, RowEnd::GroupWidth, LoopShape::SimdGroups, returns_as_if_else);
  choice->second = std::make_unique<LoopChoice>();
  choice->second->loop = loop(stmts, {}, true, RowEnd::GroupWidth, LoopShape::Rows, returns_as_if_else);
  return choice;
}

std::unique_ptr<LoopChoice> Planner::x_loop(const Stmts& stmts, RowEnd end, bool returns_as_if_else,
                                            const Context& ctx) {
  std::vector<StreamedStore> streamed;
  if (!options_.sanitize && loop_is_simd(stmts, true, returns_as_if_else))
    streamed = find_streamed_stores(k_, plan_, write_only_, stmts, ctx.known_true);
  PrefetchedReads reads;
  if (!options_.sanitize) reads = find_prefetched_reads(k_, plan_, stmts, ctx.known_true, row_prefetch_facts_);
  // Index expressions a row's first work-item evaluates for its reads.
  Exprs read_indices;
  for (const PrefetchedRead& r : reads.reads) read_indices.push_back(r.read->args[1].get());
  // The plain loop; with reads to prefetch, each row (ly, lz) first asks for
  // the lines this thread's next threadgroups read.
  auto plain = [&] {
    auto c = std::make_unique<LoopChoice>();
    if (reads.reads.empty()) {
      c->loop = loop(stmts, {}, true, end, LoopShape::Rows, returns_as_if_else);
      return c;
    }
    c->kind = LoopChoice::Kind::RowLoops;
    c->prefetches = reads;
    c->prefetch_item = first_item(reads.index_defs, read_indices);
    c->loop = loop(stmts, {}, true, end, LoopShape::RowOpen, returns_as_if_else);
    return c;
  };
  if (streamed.empty()) return plain();
  streams_ = true;
  auto choice = std::make_unique<LoopChoice>();
  choice->kind = LoopChoice::Kind::Streamed;
  choice->items = end;
  choice->trips = ctx.trips;
  auto& rows = choice->first = std::make_unique<LoopChoice>();
  rows->kind = LoopChoice::Kind::RowLoops;
  rows->streams = streamed;
  // Where each row's stores start: the store's index with lx = 0. (Taken
  // from the loop as a last value instead, `omp simd lastprivate`,
  // swiglu_fused ran 1.2x slower.)
  for (const StreamedStore& store : streamed)
    rows->stream_items.push_back(first_item(store.index_defs, {store.stmt->expr->args[0]->args[1].get()}));
  rows->prefetches = reads;
  if (!reads.reads.empty()) rows->prefetch_item = first_item(reads.index_defs, read_indices);
  rows->loop = loop(stmts, {}, true, end, LoopShape::RowOpen, returns_as_if_else);
  choice->second = plain();
  return choice;
}

// --------------------------------------------------------------- regions --

Region Planner::region(const Stmts& stmts, const Context& ctx) {
  Region r;
  // Kept for work_item_loop's copies: recounted after every loop that can
  // end work-items, read as one flag by the others.
  r.recount_all_alive = tracks_all_alive() && writes_var(stmts, alive_var_);
  // Only declarations of variables each work-item loop recomputes or
  // declares itself: nothing to run.
  bool empty = true;
  for (auto* s : stmts)
    empty = empty && s->kind == Stmt::Kind::Decl &&
            (plan_.storage[s->var] == Storage::Remat || (!s->expr && plan_.declared_in_loop.count(s->var)));
  if (empty) return r;
  bool has_return = false;
  for (auto* s : stmts) has_return = has_return || contains_return(*s);
  if (!has_return) {
    if (stmts.size() == 1 && prefix_guarded(match_prefix_guard(k_, plan_, *stmts[0]), ctx, &r)) return r;
    r.kind = Region::Kind::Loops;
    r.loops = work_item_loop(stmts, false, ctx);
    return r;
  }
  // `if (c) { ...; return; } rest` at the top of the region becomes
  // `if (c) { ... } else { rest }`: a plain loop the compiler can vectorise.
  int returns = 0, guards = 0;
  for (auto* s : stmts) {
    ir::walk_stmts(*s, [&](const Stmt& x) {
      returns += x.kind == Stmt::Kind::Return;
      return true;
    });
    guards += is_guard_return(*s);
  }
  if (returns == 1 && guards == 1 && prefix_guarded(match_prefix_return(k_, plan_, stmts), ctx, &r)) return r;
  if (returns == guards) {
    r.kind = Region::Kind::Loops;
    r.loops = work_item_loop(stmts, true, ctx);
    return r;
  }
  // Otherwise a `return` ends only this work-item: its statements run in a
  // function called per work-item.
  r.kind = Region::Kind::PerWorkItem;
  r.stmts = stmts;
  r.values = loop_values(stmts, {});
  return r;
}

bool Planner::prefix_guarded(const std::optional<PrefixGuard>& g, const Context& ctx, Region* out) {
  // Sanitizing, the checker sees every work-item's test; one SIMD group at a
  // time, the group's own loop is already open.
  if (options_.sanitize || !g || ctx.simd_group_major) return false;
  // SIMD lanes want work_item_loop's per-SIMD-group copy; eliminate_returns'
  // flag wants its two copies: both keep the test.
  if ((tracks_all_alive() && reads_var(g->body, alive_var_)) || uses_simd_lanes(g->body)) return false;
  static const RowEnd kEnd[] = {RowEnd::BelowFlat, RowEnd::BelowX, RowEnd::BelowGridX};
  out->kind = Region::Kind::PrefixGuarded;
  out->guard = g;
  out->loops = x_loop(g->body, kEnd[int(g->index)], false, ctx);
  return true;
}

// -------------------------------------------------- threadgroup statements --

void Planner::tg_block(const Stmt& b, const Context& ctx, std::vector<TgNode>* out) {
  Stmts run;
  auto flush = [&] {
    if (run.empty()) return;
    TgNode n;
    n.kind = TgNode::Kind::Region;
    n.region = region(run, ctx);
    out->push_back(std::move(n));
    run.clear();
  };
  for (auto& s : b.stmts) {
    if (plan_.is_tg_level(s.get())) {
      flush();
      out->push_back(tg_stmt(*s, ctx));
    } else {
      run.push_back(s.get());
    }
  }
  flush();
}

Condition Planner::condition(const Expr& cond, const SourceLoc& where, const Stmt* body) {
  Condition c;
  c.expr = &cond;
  if (plan_.tg_evaluable(k_, cond)) return c;
  if (cond.kind == Expr::Kind::Call && cond.intrinsic == ir::Intrinsic::ThreadgroupAny) {
    // Any thread still iterating keeps the whole threadgroup iterating.
    c.kind = Condition::Kind::Any;
    c.loop = loop({}, {cond.args[0].get()}, false, RowEnd::GroupWidth, LoopShape::Rows, false);
    return c;
  }
  c.kind = Condition::Kind::Agree;
  c.loop = loop({}, {&cond}, false, RowEnd::GroupWidth, LoopShape::Rows, false);
  if (options_.sanitize) {
    const Stmt* sync = first_sync(body);
    const SourceLoc& sync_loc = sync && sync->kind != Stmt::Kind::Barrier && sync->expr
                                    ? (sync->kind == Stmt::Kind::Decl ? sync->expr->loc : sync->expr->args[1]->loc)
                                    : (sync ? sync->loc : where);
    c.site = sites_.site(where);
    if (sync) c.sync_site = sites_.site(sync_loc);
  }
  return c;
}

TgNode Planner::collective(const Stmt& s) {
  TgNode n;
  n.kind = TgNode::Kind::Collective;
  n.stmt = &s;
  const Expr& c = s.kind == Stmt::Kind::Decl ? *s.expr : *s.expr->args[1];
  Exprs exprs;
  for (auto& a : c.args) exprs.push_back(a.get());
  exprs.push_back(c.mask.get());
  n.gather = loop({}, exprs, true, RowEnd::GroupWidth, LoopShape::Rows, false);
  n.scatter = loop({}, {}, true, RowEnd::GroupWidth, LoopShape::Rows, false);
  const bool shuffle =
      c.collective_op == ir::CollectiveOp::SimdBroadcast || c.collective_op == ir::CollectiveOp::SimdShuffle ||
      c.collective_op == ir::CollectiveOp::SimdShuffleDown || c.collective_op == ir::CollectiveOp::SimdShuffleUp ||
      c.collective_op == ir::CollectiveOp::SimdShuffleXor;
  // Sanitizing: a shuffle must not read an inactive lane.
  if (options_.sanitize && shuffle && c.args.size() > 1) n.shuffle_site = sites_.site(c.loc);
  return n;
}

TgNode Planner::tg_stmt(const Stmt& s, const Context& ctx) {
  TgNode n;
  n.stmt = &s;
  switch (s.kind) {
    case Stmt::Kind::Block:
      n.kind = TgNode::Kind::Block;
      tg_block(s, ctx, &n.body);
      return n;
    case Stmt::Kind::Decl:
      if (passes::is_canonical_collective_stmt(s)) return collective(s);
      if (plan_.storage[s.var] == Storage::Uniform) return n;
      n.kind = TgNode::Kind::Skipped;
      if (s.expr) {
        // A per-thread value declared at threadgroup level.
        n.kind = TgNode::Kind::Region;
        n.region = region({&s}, ctx);
      }
      return n;
    case Stmt::Kind::ExprStmt:
      if (passes::is_canonical_collective_stmt(s)) return collective(s);
      if (plan_.tg_evaluable(k_, *s.expr)) return n;
      // A hint whose address is per thread after all (a variable assigned
      // under an early return's flag) is not worth a loop over work-items.
      n.kind = TgNode::Kind::Skipped;
      if (!is_prefetch_hint(s)) {
        n.kind = TgNode::Kind::Region;
        n.region = region({&s}, ctx);
      }
      return n;
    case Stmt::Kind::If:
      n.kind = TgNode::Kind::If;
      n.cond = condition(*s.expr, s.loc, s.body.get());
      tg_block(*s.body, ctx, &n.body);
      if (s.else_body) tg_block(*s.else_body, ctx, &n.else_body);
      return n;
    case Stmt::Kind::For:
    case Stmt::Kind::While:
    case Stmt::Kind::DoWhile: {
      const bool init_tg =
          !s.init || (s.init->kind == Stmt::Kind::Decl && plan_.storage[s.init->var] == Storage::Uniform);
      const bool cond_tg = !s.expr || plan_.tg_evaluable(k_, *s.expr);
      const bool step_tg = !s.step || plan_.tg_evaluable(k_, *s.step);
      if (init_tg && cond_tg && step_tg) {
        if (!runs_simd_group_major(s, ctx)) return uniform_loop(s, ctx);
        // Each SIMD group through every iteration, then the next: one
        // contiguous stream per group (a mat-vec's row) instead of eight
        // interleaved, and the group's values stay in cache between
        // iterations. Metal orders SIMD groups only at barriers, and the
        // lanes of each still run the iterations in lock-step.
        n.kind = TgNode::Kind::SimdGroupMajor;
        Context major = ctx, plain = ctx;
        major.simd_group_major = true;
        plain.no_simd_chunks = true;
        n.body.push_back(uniform_loop(s, major));
        n.else_body.push_back(uniform_loop(s, plain));
        return n;
      }
      // General form: per-thread loop variable, condition checked uniform.
      bool has_exit = false;
      ir::walk_stmts(*s.body, [&](const Stmt& x) {
        if (x.kind == Stmt::Kind::For || x.kind == Stmt::Kind::While || x.kind == Stmt::Kind::DoWhile) return false;
        if (x.kind == Stmt::Kind::Continue && plan_.is_tg_level(&x)) has_exit = true;
        return true;
      });
      if (has_exit) {
        diags_.error(s.loc,
                     "'continue' in a loop with barriers whose condition depends on per-thread values is "
                     "not supported by the OpenMP backend yet");
        ok_ = false;
      }
      n.kind = TgNode::Kind::SyncLoop;
      if (s.init) n.init.push_back(tg_stmt(*s.init, ctx));
      if (s.expr) n.cond = condition(*s.expr, s.loc, s.body.get());
      tg_block(*s.body, ctx, &n.body);
      if (s.step && !step_tg) n.step_loop = loop({}, {s.step.get()}, true, RowEnd::GroupWidth, LoopShape::Rows, false);
      return n;
    }
    default:  // return, break, continue, barrier
      return n;
  }
}

TgNode Planner::uniform_loop(const Stmt& s, const Context& ctx) {
  TgNode n;
  n.kind = TgNode::Kind::UniformLoop;
  n.stmt = &s;
  Context inner = ctx;
  if (auto trips = counted_trips(s)) inner.trips.push_back(*trips);
  tg_block(*s.body, inner, &n.body);
  return n;
}

bool Planner::runs_simd_group_major(const Stmt& loop, const Context& ctx) const {
  // A threadgroup-level loop whose iterations are only work-item loops over
  // SIMD lanes (a schedule point put them there: loop_schedule_points.h)
  // can run one SIMD group at a time through all its iterations.
  if (options_.sanitize || ctx.simd_group_major || ctx.no_simd_chunks || loop.kind != Stmt::Kind::For) return false;
  Stmts region;
  std::function<bool(const Stmt&)> collect = [&](const Stmt& b) {
    for (auto& s : b.stmts) {
      if (s->kind == Stmt::Kind::Barrier && s->lockstep) continue;  // the schedule point itself
      if (s->kind == Stmt::Kind::Block && plan_.is_tg_level(s.get())) {
        if (!collect(*s)) return false;
        continue;
      }
      if (plan_.is_tg_level(s.get()) || contains_return(*s)) return false;
      region.push_back(s.get());
    }
    return true;
  };
  if (!collect(*loop.body) || region.empty() || !uses_simd_lanes(region)) return false;
  return !(tracks_all_alive() && writes_var(region, alive_var_));
}

std::optional<const Expr*> Planner::counted_trips(const Stmt& s) const {
  // for (T v = 0; v < N; v += 1) or ++v / v++, v not written in the body:
  // N, for a streaming copy's estimate of what a launch writes.
  if (s.kind != Stmt::Kind::For || !s.init || s.init->kind != Stmt::Kind::Decl || !s.init->expr ||
      s.init->expr->kind != Expr::Kind::IntLit || s.init->expr->int_value != 0 || !s.expr || !s.step)
    return std::nullopt;
  const int v = s.init->var;
  auto is_v = [&](const Expr& e) { return e.kind == Expr::Kind::VarRef && e.index == v; };
  const Expr& c = *s.expr;
  if (c.kind != Expr::Kind::Binary || c.binary_op != ir::BinaryOp::Lt || !is_v(*c.args[0])) return std::nullopt;
  const Expr& st = *s.step;
  const bool plus_one =
      (st.kind == Expr::Kind::Assign && st.assign_op == ir::BinaryOp::Add && is_v(*st.args[0]) &&
       st.args[1]->kind == Expr::Kind::IntLit && st.args[1]->int_value == 1) ||
      (st.kind == Expr::Kind::Unary && (st.unary_op == ir::UnaryOp::PreInc || st.unary_op == ir::UnaryOp::PostInc) &&
       is_v(*st.args[0]));
  if (!plus_one || ir::vars_written(*s.body).count(v)) return std::nullopt;
  return c.args[1].get();
}

bool Planner::build(LoopPlan* out) {
  write_only_ = write_only_buffers(k_);
  row_prefetch_facts_ = row_prefetch_facts(k_);
  for (size_t i = 0; i < k_.vars.size(); ++i)
    if (k_.vars[i].name == ir::kAliveVarName) alive_var_ = int(i);
  out->alive_var = alive_var_;
  out->all_alive_var = tracks_all_alive() ? alive_var_ : -1;
  const Context top;
  if (plan_.has_sync) {
    tg_block(*k_.body, top, &out->body);
  } else {
    Stmts all;
    for (auto& s : k_.body->stmts) all.push_back(s.get());
    if (!all.empty()) {
      TgNode n;
      n.kind = TgNode::Kind::Region;
      n.region = region(all, top);
      out->body.push_back(std::move(n));
    }
  }
  out->streams = streams_;
  // Threadgroup-uniform builtins, once per threadgroup.
  ir::walk_stmt_exprs(*k_.body, [&](const Expr& e) {
    ir::walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::ParamRef && k_.params[x.index].kind == ir::Param::Kind::Builtin &&
          builtin_uniformity(k_.params[x.index].builtin) == Uniformity::Threadgroup)
        out->threadgroup_builtins.insert(x.index);
      return true;
    });
    return false;
  });
  return ok_;
}

}  // namespace

bool is_guard_return(const Stmt& s) {
  if (s.kind != Stmt::Kind::If || (s.else_body && !s.else_body->stmts.empty()) || s.body->stmts.empty() ||
      s.body->stmts.back()->kind != Stmt::Kind::Return)
    return false;
  for (size_t i = 0; i + 1 < s.body->stmts.size(); ++i)
    if (contains_return(*s.body->stmts[i])) return false;
  return true;
}

bool plan_loops(const ir::Kernel& k, const StoragePlan& storage, const LoopPlanOptions& options, SanitizerSites& sites,
                DiagEngine& diags, LoopPlan* out) {
  Planner p(k, storage, options, sites, diags);
  return p.build(out);
}

}  // namespace mslport::back::openmp
