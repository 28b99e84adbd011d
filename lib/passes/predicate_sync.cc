#include "passes/predicate_sync.h"

#include <algorithm>
#include <set>

#include "ir/analysis/uniformity.h"
#include "ir/initializer_stores.h"
#include "passes/hoist_collectives.h"

namespace mslport::passes {
using namespace ir;
using namespace ir::analysis;

namespace {

// Barriers written in the Metal source. The ones passes insert (`lockstep`:
// lock-step emulation, loop schedule points) are no Metal ordering points:
// under a divergent condition they are split around with masks like a
// collective, never an error.
bool contains_barrier(const Stmt& s) {
  bool found = false;
  walk_stmts(s, [&](const Stmt& st) {
    if (st.kind == Stmt::Kind::Barrier && !st.lockstep) found = true;
    return !found;
  });
  return found;
}

bool contains_inserted_barrier(const Stmt& s) {
  bool found = false;
  walk_stmts(s, [&](const Stmt& st) {
    if (st.kind == Stmt::Kind::Barrier && st.lockstep) found = true;
    return !found;
  });
  return found;
}

// The first barrier written in the Metal source for which `pred` holds.
template <typename Pred>
const Stmt* first_barrier_where(const Stmt& s, Pred pred) {
  const Stmt* found = nullptr;
  walk_stmts(s, [&](const Stmt& st) {
    if (!found && st.kind == Stmt::Kind::Barrier && !st.lockstep && pred(st)) found = &st;
    return !found;
  });
  return found;
}

bool contains_threadgroup_barrier(const Stmt& s) {
  return first_barrier_where(s, [](const Stmt& b) { return !b.simdgroup_scope; }) != nullptr;
}

// A barrier that control flow at level `u` does not let every thread of its
// scope reach: a threadgroup_barrier needs a threadgroup-uniform path, a
// simdgroup_barrier only a SIMD-group-uniform one (MSL 6.9.1: all threads of
// the SIMD group must execute it).
bool needs_more_than(const Stmt& barrier, Uniformity u) {
  return barrier.simdgroup_scope ? u == Uniformity::Thread : u != Uniformity::Threadgroup;
}

// The first such barrier under a condition at level `u`; one decided by
// memory contents (Unknown) is left to the run-time check.
const Stmt* unreachable_barrier(const Stmt& s, Uniformity u) {
  if (u == Uniformity::Unknown) return nullptr;
  return first_barrier_where(s, [&](const Stmt& b) { return needs_more_than(b, u); });
}

// The variables a condition or loop bound around a barrier or collective
// reads, and those their declarations read in turn.
std::set<int> vars_deciding_sync(const Kernel& k) {
  std::set<int> vars;
  auto read = [&](const Expr& e) {
    walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::VarRef) vars.insert(x.index);
      return true;
    });
  };
  walk_stmts(*k.body, [&](const Stmt& st) {
    const bool branches = st.kind == Stmt::Kind::If || st.kind == Stmt::Kind::For || st.kind == Stmt::Kind::While ||
                          st.kind == Stmt::Kind::DoWhile;
    if (branches && st.expr && contains_sync(st)) read(*st.expr);
    return true;
  });
  for (bool grew = true; grew;) {
    const size_t before = vars.size();
    walk_stmts(*k.body, [&](const Stmt& st) {
      if (st.kind == Stmt::Kind::Decl && st.expr && vars.count(st.var)) read(*st.expr);
      return true;
    });
    grew = vars.size() != before;
  }
  return vars;
}

struct Predicator {
  const Module& m;
  Kernel& k;
  int alive;
  DiagEngine& diags;
  UniformityInfo info;
  bool ok = true;
  int mask_count = 0;

  const Type kBool = Type::scalar_of(ScalarKind::Bool);

  ExprPtr and_masks(const std::vector<int>& masks, SourceLoc loc) {
    ExprPtr e;
    for (int m : masks) {
      ExprPtr r = make_var_ref(k, m, loc);
      e = e ? make_binary(BinaryOp::LogAnd, kBool, std::move(e), std::move(r), loc) : std::move(r);
    }
    return e;
  }

  void set_mask(Stmt& s, const std::vector<int>& masks) {
    Expr* c = s.kind == Stmt::Kind::Decl ? s.expr.get() : s.expr->args[1].get();
    c->mask = and_masks(masks, c->loc);
  }

  // A mask this pass creates is as uniform as what decides it: the masks
  // it is under and its condition (a loop's masks: the loop's level, its
  // break and continue included). So code after a `continue` that SIMD
  // groups take alike stays SIMD-group-uniform, and a simdgroup_barrier
  // there is legal. Other variables made since the analysis are per-thread.
  Uniformity level_of(const Expr& e) { return info.expr_after_rewrite(k, e, Uniformity::Thread); }

  // The `alive` flag does not count: threads that returned take no part in
  // barriers (MSL 6.9.1), so they make no barrier unreachable.
  Uniformity level_of_masks(const std::vector<int>& masks) {
    Uniformity u = Uniformity::Threadgroup;
    for (int v : masks)
      if (v != alive) u = join(u, v < static_cast<int>(info.vars.size()) ? info.vars[v] : Uniformity::Thread);
    return u;
  }

  int new_mask(const char* prefix, Uniformity level, SourceLoc loc) {
    int v = add_var(k, prefix + std::to_string(mask_count++), kBool, loc);
    if (static_cast<int>(info.vars.size()) < v) info.vars.resize(v, Uniformity::Thread);
    if (static_cast<int>(info.vars.size()) == v) info.vars.push_back(level);
    return v;
  }

  // Lowers the statements of a block that every (non-exited) thread
  // executes, under the current masks.
  void uniform_block(Stmt& b, const std::vector<int>& masks) {
    std::vector<StmtPtr> out;
    for (auto& s : b.stmts) uniform_stmt(s, masks, out);
    b.stmts = std::move(out);
  }

  void uniform_stmt(StmtPtr& s, const std::vector<int>& masks, std::vector<StmtPtr>& out) {
    if (!contains_sync(*s)) {
      out.push_back(std::move(s));
      return;
    }
    switch (s->kind) {
      case Stmt::Kind::Block: uniform_block(*s, masks); break;
      case Stmt::Kind::Decl:
      case Stmt::Kind::ExprStmt:
        if (is_canonical_collective_stmt(*s)) set_mask(*s, masks);
        break;
      case Stmt::Kind::If: {
        Uniformity u = level_of(*s->expr);
        if (u == Uniformity::Threadgroup) {
          uniform_block(*s->body, masks);
          if (s->else_body) uniform_block(*s->else_body, masks);
          break;
        }
        bool is_alive_guard = alive >= 0 && s->expr->kind == Expr::Kind::VarRef && s->expr->index == alive;
        if (!is_alive_guard && unreachable_barrier(*s, u)) {
          report_divergent_barrier(*s, u);
          break;
        }
        if (u == Uniformity::Unknown && !contains_collective_stmt(*s) && !contains_inserted_barrier(*s) &&
            contains_threadgroup_barrier(*s)) {
          // Only barriers, under a memory-dependent condition: leave it to the
          // run-time check (or to the hardware, as on Metal). SIMD-group
          // barriers alone are split around like collectives: SIMD groups
          // may take such a branch differently.
          uniform_block(*s->body, masks);
          if (s->else_body) uniform_block(*s->else_body, masks);
          break;
        }
        split_if(*s, masks, out, is_alive_guard);
        return;
      }
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: {
        auto it = info.loop_level.find(s.get());
        Uniformity u = it == info.loop_level.end() ? Uniformity::Threadgroup : it->second;
        // A trip count read from memory may differ between threads too: a
        // loop of SIMD-group functions or SIMD-group barriers is predicated
        // like a divergent one (SIMD groups may leave it at different
        // times); one with threadgroup barriers is left to the run-time check.
        const bool unknown_simd_sync = u == Uniformity::Unknown && !contains_threadgroup_barrier(*s) &&
                                       (contains_collective_stmt(*s) || contains_barrier(*s));
        if (u == Uniformity::Thread || u == Uniformity::Simdgroup || unknown_simd_sync) {
          predicate_loop(*s, u, masks, out);
          return;
        }
        uniform_block(*s->body, masks);
        break;
      }
      default: break;
    }
    out.push_back(std::move(s));
  }

  void report_divergent_barrier(const Stmt& s, Uniformity u) {
    const Stmt* bar = unreachable_barrier(s, u);
    diags.error(bar->loc, std::string(bar->simdgroup_scope ? "simdgroup_barrier" : "threadgroup_barrier") +
                              " in divergent control flow: not every thread of the " +
                              (bar->simdgroup_scope ? "SIMD group" : "threadgroup") + " reaches it");
    diags.note(s.expr->loc, std::string("the condition is ") + uniformity_name(u));
    ok = false;
  }

  // Variables this pass assigns for every thread, threads that left too:
  // each holds a threadgroup-uniform value computed from parameters and
  // literals (and other such variables) only, which every thread can
  // evaluate safely and gets alike.
  std::set<int> assigned_everywhere;

  // Only parameters, literals and the variables above: safe for the threads
  // that left to evaluate, and the same for them as for the others.
  bool only_params_and_literals(const Expr& e) const {
    bool other = false;
    walk_exprs(e, [&](const Expr& x) {
      switch (x.kind) {
        case Expr::Kind::VarRef: other = other || !assigned_everywhere.count(x.index); break;
        // A parameter the kernel assigns (`tgpig.z = 0;`) may hold another
        // value in the threads that left before the assignment.
        case Expr::Kind::ParamRef: other = other || written_params.count(x.index); break;
        case Expr::Kind::IntLit:
        case Expr::Kind::FloatLit:
        case Expr::Kind::BoolLit:
        case Expr::Kind::InitList:
        case Expr::Kind::GlobalConstRef:
        case Expr::Kind::Cast:
        case Expr::Kind::Unary:
        case Expr::Kind::Binary:
        case Expr::Kind::Conditional:
        case Expr::Kind::Swizzle: other = other || (x.kind == Expr::Kind::Unary && x.unary_op == UnaryOp::Deref); break;
        case Expr::Kind::Member: other = other || x.arrow; break;
        default: other = true;
      }
      return !other;
    });
    return !other;
  }

  // Taken from the kernel before any statement moves (predicate_sync below):
  // the variables a condition or loop bound around a barrier or collective
  // reads, and those their declarations read in turn (the ones threads that
  // left must agree on); the variables assigned after their declaration;
  // the parameters the kernel writes.
  std::set<int> decides_sync, assigned, written_params;

  static bool contains_collective_stmt(const Stmt& s) {
    bool found = false;
    walk_stmt_exprs(s, [&](const Expr& e) {
      if (e.kind == Expr::Kind::Collective) found = true;
      return !found;
    });
    return found;
  }

  // if (c) T else E  with a divergent c: evaluate c once into a mask, then
  // run T's and E's pieces under it with syncs in between unconditionally.
  void split_if(Stmt& s, const std::vector<int>& masks, std::vector<StmtPtr>& out, bool is_alive_guard) {
    SourceLoc loc = s.loc;
    int m;
    if (is_alive_guard) {
      m = alive;
    } else {
      // Inactive threads must not evaluate the condition (it may index out
      // of bounds for them): mask = outer && cond.
      m = new_mask("mslport_mask", join(level_of_masks(masks), level_of(*s.expr)), loc);
      ExprPtr cond = std::move(s.expr);
      if (!masks.empty()) cond = make_binary(BinaryOp::LogAnd, kBool, and_masks(masks, loc), std::move(cond), loc);
      out.push_back(make_decl(m, std::move(cond), loc));
    }
    std::vector<int> then_masks = masks;
    if (!is_alive_guard || std::find(masks.begin(), masks.end(), alive) == masks.end()) then_masks.push_back(m);
    split_body(*s.body, then_masks, m, false, out);
    if (s.else_body && !s.else_body->stmts.empty()) {
      int n = new_mask("mslport_mask", join(level_of_masks(masks), level_of_masks({m})), loc);
      ExprPtr ncond = make_unary(UnaryOp::Not, kBool, make_var_ref(k, m, loc), loc);
      if (!masks.empty()) ncond = make_binary(BinaryOp::LogAnd, kBool, and_masks(masks, loc), std::move(ncond), loc);
      out.push_back(make_decl(n, std::move(ncond), loc));
      std::vector<int> else_masks = masks;
      else_masks.push_back(n);
      split_body(*s.else_body, else_masks, n, false, out);
    }
  }

  static bool has_loop_exit(const Stmt& s, bool nested) {
    switch (s.kind) {
      case Stmt::Kind::Break:
      case Stmt::Kind::Continue: return !nested;
      case Stmt::Kind::Return: return true;
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: return has_loop_exit(*s.body, true);
      default: break;
    }
    for (auto& c : s.stmts)
      if (has_loop_exit(*c, nested)) return true;
    if (s.body && has_loop_exit(*s.body, nested)) return true;
    if (s.else_body && has_loop_exit(*s.else_body, nested)) return true;
    return false;
  }

  // A loop whose trip count differs between threads, holding a collective:
  // every thread iterates while any thread of the threadgroup still does,
  // the body under the per-thread loop mask:
  //   for (i = a; c; i += s) B   =>   i = a;  bool lm = c;
  //                                   while (__mslport_threadgroup_any(lm)) {
  //                                     [B under lm];  if (lm) { i += s; lm = c; } }
  // A simdgroup_barrier in it is kept unmasked, so every thread reaches it
  // in every round (more threads than Metal's SIMD group: harmless, inactive
  // ones do nothing between two of them); a threadgroup_barrier is an error,
  // as is a simdgroup_barrier when the trip count differs within a SIMD group
  // (`u`, the loop's level).
  void predicate_loop(Stmt& loop, Uniformity u, const std::vector<int>& masks, std::vector<StmtPtr>& out) {
    SourceLoc loc = loop.loc;
    // Whatever the loop's level, a threadgroup_barrier in a loop predicated
    // like this one is reached a different number of times per thread.
    const Stmt* bar =
        first_barrier_where(loop, [&](const Stmt& b) { return !b.simdgroup_scope || needs_more_than(b, u); });
    if (bar) {
      diags.error(bar->loc, bar->simdgroup_scope
                                ? "simdgroup_barrier in a loop whose trip count differs between the threads of a "
                                  "SIMD group"
                                : "threadgroup_barrier in a loop whose trip count differs between threads");
      diags.note(loc, "the loop");
      ok = false;
      return;
    }
    if (contains_return(*loop.body)) {
      diags.error(loc,
                  "return in a loop whose trip count differs between threads and which holds a SIMD-group "
                  "function is not supported yet");
      ok = false;
      return;
    }
    int guard = masks.empty() ? -1 : masks.back();
    if (loop.init) {
      auto init = make_block({}, loc);
      init->stmts.push_back(std::move(loop.init));
      if (guard < 0) {
        for (auto& x : init->stmts) out.push_back(std::move(x));
      } else {
        split_body(*init, masks, guard, false, out);
      }
    }
    const Uniformity mask_level = join(level_of_masks(masks), u);
    int lm = new_mask("mslport_loop_mask", mask_level, loc);
    auto cond = [&]() -> ExprPtr { return loop.expr ? loop.expr->clone() : make_bool(true, loc); };
    ExprPtr first = loop.kind == Stmt::Kind::DoWhile ? make_bool(true, loc) : cond();
    if (!masks.empty()) first = make_binary(BinaryOp::LogAnd, kBool, and_masks(masks, loc), std::move(first), loc);
    out.push_back(make_decl(lm, std::move(first), loc));
    if (has_loop_exit(*loop.body, false)) {
      int it = new_mask("mslport_iter_mask", mask_level, loc);
      out.push_back(make_decl(it, make_bool(false, loc), loc));
      exits_block(*loop.body, lm, it);
      loop.body->stmts.insert(loop.body->stmts.begin(),
                              make_expr_stmt(make_assign(make_var_ref(k, it, loc), make_var_ref(k, lm, loc), loc)));
    }
    std::vector<int> inner = masks;
    inner.push_back(lm);
    std::vector<StmtPtr> body;
    split_body(*loop.body, inner, lm, false, body);
    std::vector<StmtPtr> tail;
    if (loop.step) tail.push_back(make_expr_stmt(std::move(loop.step)));
    tail.push_back(make_expr_stmt(make_assign(make_var_ref(k, lm, loc), cond(), loc)));
    body.push_back(make_if(make_var_ref(k, lm, loc), make_block(std::move(tail), loc), nullptr, loc));
    std::vector<ExprPtr> vote;
    vote.push_back(make_var_ref(k, lm, loc));
    auto any = make_intrinsic_call(Intrinsic::ThreadgroupAny, kBool, std::move(vote), loc);
    auto w = std::make_unique<Stmt>();
    w->kind = Stmt::Kind::While;
    w->loc = loc;
    w->expr = std::move(any);
    w->body = make_block(std::move(body), loc);
    out.push_back(std::move(w));
  }

  // `break` and `continue` of a predicated loop (not those of loops inside
  // it) become flags: `break` clears the loop mask `lm`, ending the thread's
  // iterations, both clear the iteration mask `it`, and the statements after
  // a statement that may exit run under `if (it)`:
  //   v = x[i]; if (v < 0) break; s += simd_sum(v);
  //   =>  it = lm; v = x[i]; if (v < 0) { lm = false; it = false; }
  //       if (it) { s += simd_sum(v); }
  // Returns whether the block may exit.
  bool exits_block(Stmt& b, int lm, int it) {
    std::vector<StmtPtr> in = std::move(b.stmts);
    std::vector<StmtPtr> out;
    for (size_t i = 0; i < in.size(); ++i) {
      const bool exits = exits_stmt(in[i], lm, it);
      SourceLoc loc = in[i]->loc;
      out.push_back(std::move(in[i]));
      if (!exits) continue;
      if (i + 1 < in.size()) {
        auto rest = make_block({}, in[i + 1]->loc);
        for (size_t j = i + 1; j < in.size(); ++j) rest->stmts.push_back(std::move(in[j]));
        exits_block(*rest, lm, it);
        out.push_back(make_if(make_var_ref(k, it, loc), std::move(rest), nullptr, loc));
      }
      b.stmts = std::move(out);
      return true;
    }
    b.stmts = std::move(out);
    return false;
  }

  bool exits_stmt(StmtPtr& s, int lm, int it) {
    SourceLoc loc = s->loc;
    auto clear = [&](int v) {
      return make_expr_stmt(make_assign(make_var_ref(k, v, loc), make_bool(false, loc), loc));
    };
    switch (s->kind) {
      case Stmt::Kind::Break:
      case Stmt::Kind::Continue: {
        std::vector<StmtPtr> v;
        if (s->kind == Stmt::Kind::Break) v.push_back(clear(lm));
        v.push_back(clear(it));
        s = make_block(std::move(v), loc);
        return true;
      }
      case Stmt::Kind::Block: return exits_block(*s, lm, it);
      case Stmt::Kind::If: {
        const bool a = exits_block(*s->body, lm, it);
        const bool b = s->else_body && exits_block(*s->else_body, lm, it);
        return a || b;
      }
      default: return false;  // a loop's own break and continue are its own
    }
  }

  // Emits the body's statements: runs of plain statements under
  // `if (guard)`, sync statements unguarded (with masks).
  void split_body(Stmt& body, const std::vector<int>& masks, int guard, bool, std::vector<StmtPtr>& out) {
    std::vector<StmtPtr> run;
    auto flush = [&]() {
      if (run.empty()) return;
      SourceLoc loc = run.front()->loc;
      out.push_back(make_if(make_var_ref(k, guard, loc), make_block(std::move(run), loc), nullptr, loc));
      run.clear();
    };
    for (auto& s : body.stmts) {
      // Declarations must outlive the pieces they are split into.
      if (s->kind == Stmt::Kind::Decl) {
        k.vars[s->var].is_const = false;
        ExprPtr init = std::move(s->expr);
        SourceLoc loc = s->loc;
        int v = s->var;
        out.insert(out.begin(), make_decl(v, nullptr, loc));
        if (!init) continue;
        const bool collective = init->kind == Expr::Kind::Collective;
        // `const int n = args.n;`, `const int r0 = tgpig.x * 2;`: a uniform
        // value of parameters is assigned for every thread, so that a
        // condition or a loop bound that reads it stays uniform for the
        // threads that left too (they then agree on the barriers in it).
        const bool everywhere = !collective && decides_sync.count(v) && !assigned.count(v) &&
                                level_of(*init) == Uniformity::Threadgroup && only_params_and_literals(*init);
        if (init->kind == Expr::Kind::InitList) {
          // `float acc[2] = {0.f, 0.f};`: C cannot assign a brace list, so
          // the elements are stored one by one where the declaration was.
          if (everywhere) {
            flush();
            assigned_everywhere.insert(v);
          }
          for (auto& x : initializer_stores(m, k, *make_var_ref(k, v, loc), std::move(init)))
            (everywhere ? out : run).push_back(std::move(x));
          continue;
        }
        auto assign = make_expr_stmt(make_assign(make_var_ref(k, v, loc), std::move(init), loc));
        if (everywhere) {
          flush();
          assigned_everywhere.insert(v);
          out.push_back(std::move(assign));
        } else if (collective) {
          flush();
          set_mask(*assign, masks);
          out.push_back(std::move(assign));
        } else {
          run.push_back(std::move(assign));
        }
        continue;
      }
      if (!contains_sync(*s)) {
        run.push_back(std::move(s));
        continue;
      }
      flush();
      switch (s->kind) {
        case Stmt::Kind::ExprStmt:
          set_mask(*s, masks);
          out.push_back(std::move(s));
          break;
        case Stmt::Kind::Barrier: out.push_back(std::move(s)); break;
        case Stmt::Kind::Block: split_body(*s, masks, guard, false, out); break;
        case Stmt::Kind::If: {
          // Nested conditions are divergent too: the active set is already a subset.
          bool nested_alive = alive >= 0 && s->expr->kind == Expr::Kind::VarRef && s->expr->index == alive;
          Uniformity u = level_of(*s->expr);
          if (!nested_alive && unreachable_barrier(*s, u)) {
            report_divergent_barrier(*s, u);
            break;
          }
          if (!nested_alive && u == Uniformity::Threadgroup && only_params_and_literals(*s->expr)) {
            // A uniform condition inside a divergent region (`if (K > 3)`
            // after an early return): stays a branch every thread takes the
            // same way, its bodies under the mask, like a uniform loop
            // below. Only conditions on parameters and literals: threads
            // that left must not evaluate `w[row]` for a row past the end,
            // nor read a variable only the others assigned (they would
            // disagree on the branch, and on the barriers in it).
            std::vector<StmtPtr> inner;
            split_body(*s->body, masks, guard, false, inner);
            s->body->stmts = std::move(inner);
            if (s->else_body) {
              std::vector<StmtPtr> inner_else;
              split_body(*s->else_body, masks, guard, false, inner_else);
              s->else_body->stmts = std::move(inner_else);
            }
            out.push_back(std::move(s));
            break;
          }
          split_if(*s, masks, out, nested_alive);
          break;
        }
        default: {
          // A uniform loop inside a divergent region: iterate for every thread,
          // body under the mask.
          auto it = info.loop_level.find(s.get());
          Uniformity u = it == info.loop_level.end() ? Uniformity::Threadgroup : it->second;
          // With a break or continue, even one every thread takes alike: the
          // threads outside the mask would not take it, and keep iterating.
          if (u == Uniformity::Threadgroup && contains_return(*s)) {
            diags.error(s->loc,
                        "return inside a loop with a SIMD-group function in divergent control flow is "
                        "not supported yet");
            ok = false;
            break;
          }
          if (u != Uniformity::Threadgroup || has_loop_exit(*s->body, false)) {
            predicate_loop(*s, u, masks, out);
            break;
          }
          std::vector<StmtPtr> inner;
          split_body(*s->body, masks, guard, false, inner);
          s->body->stmts = std::move(inner);
          out.push_back(std::move(s));
          break;
        }
      }
    }
    flush();
  }
};
}  // namespace

bool predicate_sync(const Module& m, Kernel& k, int alive_var, DiagEngine& diags) {
  if (!k.body || !contains_sync(*k.body)) return true;
  Predicator p{m, k, alive_var, diags, analyze_uniformity(k)};
  p.decides_sync = vars_deciding_sync(k);
  p.assigned = vars_assigned(*k.body);
  p.written_params = params_written(k);
  std::vector<int> masks;
  if (alive_var >= 0) masks.push_back(alive_var);
  p.uniform_block(*k.body, masks);
  return p.ok;
}
}  // namespace mslport::passes
