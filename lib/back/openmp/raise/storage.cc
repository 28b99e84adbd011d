#include "back/openmp/raise/storage.h"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>

#include "back/openmp/raise/loop_schedule_points.h"
#include "back/openmp/raise/sanitize.h"
#include "passes/hoist_collectives.h"

namespace mslport::back::openmp {
using namespace ir;
using ir::analysis::Uniformity;

namespace {

// Facts about each statement with everything nested in it, found in one
// walk: asked at every level, a walk per statement made a chain of 5,000
// else-ifs quadratic.
struct Nested {
  std::unordered_map<const Stmt*, bool> sync;       // a barrier or collective (ir::analysis::contains_sync)
  std::unordered_map<const Stmt*, bool> ret;        // a return
  std::unordered_map<const Stmt*, bool> loop_exit;  // a break/continue that leaves it to its enclosing loop
  std::unordered_map<const Stmt*, bool> assigns;    // declares (below it) or writes one of the uniform variables

  template <typename F>
  static void children(const Stmt& s, F f) {
    for (auto& c : s.stmts)
      if (c) f(*c);
    if (s.init) f(*s.init);
    if (s.body) f(*s.body);
    if (s.else_body) f(*s.else_body);
  }

  void find(const Stmt& s) {
    bool has_sync = s.kind == Stmt::Kind::Barrier || (s.expr && ir::analysis::contains_collective(*s.expr)) ||
                    (s.step && ir::analysis::contains_collective(*s.step));
    bool has_ret = s.kind == Stmt::Kind::Return;
    children(s, [&](const Stmt& c) {
      find(c);
      has_sync = has_sync || sync[&c];
      has_ret = has_ret || ret[&c];
    });
    sync[&s] = has_sync;
    ret[&s] = has_ret;
    bool exits = false;
    switch (s.kind) {
      case Stmt::Kind::Break:
      case Stmt::Kind::Continue: exits = true; break;
      case Stmt::Kind::Block:
        for (auto& c : s.stmts) exits = exits || loop_exit[c.get()];
        break;
      case Stmt::Kind::If: exits = loop_exit[s.body.get()] || (s.else_body && loop_exit[s.else_body.get()]); break;
      default: break;
    }
    loop_exit[&s] = exits;
  }

  void find_assigns(const Stmt& s, const std::unordered_set<int>& vars) {
    bool found = false;
    for (const Expr* e : {s.expr.get(), s.step.get()})
      if (e && !vars.empty())
        walk_exprs(*e, [&](const Expr& x) {
          int v = written_variable(x);
          found = found || (v >= 0 && vars.count(v));
          return !found;
        });
    children(s, [&](const Stmt& c) {
      find_assigns(c, vars);
      found = found || (c.kind == Stmt::Kind::Decl && vars.count(c.var)) || assigns[&c];
    });
    assigns[&s] = found;
  }
};

struct Planner {
  const Kernel& k;
  StoragePlan& plan;
  std::unordered_set<int> uniform_vars;
  std::unordered_set<int> guarded;  // assigned under a non-uniform condition or per work-item
  Nested nested;

  void mark(const Stmt& s, bool parent_tg, bool in_tg_loop_body) {
    bool tg = false;
    if (s.kind == Stmt::Kind::Block) tg = parent_tg;
    if (nested.sync[&s] || (plan.has_sync && nested.ret[&s]) || nested.assigns[&s]) tg = true;
    if (s.kind == Stmt::Kind::Decl && parent_tg && plan.uniformity.vars[s.var] == Uniformity::Threadgroup &&
        !guarded.count(s.var) && !(s.expr && s.expr->kind == Expr::Kind::Collective))
      tg = true;
    if (in_tg_loop_body && nested.loop_exit[&s]) tg = true;
    // Once per iteration of the threadgroup's loop, not per work-item; a
    // sanitizer's barrier or SIMD-group event where its barrier is.
    if (parent_tg && (is_prefetch_hint(s) || is_sanitizer_sync_event(s))) tg = true;
    if (tg) plan.tg_level.insert(&s);
    switch (s.kind) {
      case Stmt::Kind::Block:
        for (auto& c : s.stmts) mark(*c, tg, in_tg_loop_body);
        break;
      case Stmt::Kind::If:
        mark(*s.body, tg, in_tg_loop_body);
        if (s.else_body) mark(*s.else_body, tg, in_tg_loop_body);
        break;
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile:
        if (s.init) mark(*s.init, tg, false);
        mark(*s.body, tg, tg);
        break;
      default: break;
    }
  }

  // ---- storage: in which work-item loops is each variable used?
  int next_region = 0;
  std::vector<std::set<int>> regions;
  std::unordered_set<int> bare_decls;
  std::vector<bool> forced;

  void note_refs_expr(const Expr& e, int r) {
    walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::VarRef) regions[x.index].insert(r);
      return true;
    });
  }
  void note_refs(const Stmt& s, int r) {
    walk_stmts(s, [&](const Stmt& st) {
      if (st.kind == Stmt::Kind::Decl) regions[st.var].insert(r);
      return true;
    });
    walk_stmt_exprs(s, [&](const Expr& e) {
      note_refs_expr(e, r);
      return false;
    });
  }
  void tg_block(const Stmt& b) {
    int cur = -1;
    for (auto& s : b.stmts) {
      if (!plan.is_tg_level(s.get())) {
        if (cur < 0) cur = next_region++;
        // A bare declaration (predicate_sync hoists them out of the masked
        // pieces) is no use of the variable: it may still live in one loop.
        if (s->kind == Stmt::Kind::Decl && !s->expr) {
          bare_decls.insert(s->var);
          continue;
        }
        note_refs(*s, cur);
      } else {
        cur = -1;
        tg_stmt(*s);
      }
    }
  }
  void tg_stmt(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::Block: tg_block(s); break;
      case Stmt::Kind::Decl:
      case Stmt::Kind::ExprStmt:
        if (passes::is_canonical_collective_stmt(s)) {
          const Expr& c = s.kind == Stmt::Kind::Decl ? *s.expr : *s.expr->args[1];
          int r = next_region++;
          for (auto& a : c.args) note_refs_expr(*a, r);
          if (c.mask) note_refs_expr(*c.mask, r);
          int target = s.kind == Stmt::Kind::Decl ? s.var : s.expr->args[0]->index;
          forced[target] = true;
        } else if (s.expr) {
          note_refs_expr(*s.expr, next_region++);
        }
        break;
      case Stmt::Kind::If:
        note_refs_expr(*s.expr, next_region++);
        tg_block(*s.body);
        if (s.else_body) tg_block(*s.else_body);
        break;
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile:
        if (s.init) {
          if (plan.is_tg_level(s.init.get())) tg_stmt(*s.init);
          else note_refs(*s.init, next_region++);
        }
        if (s.expr) note_refs_expr(*s.expr, next_region++);
        tg_block(*s.body);
        if (s.step) note_refs_expr(*s.step, next_region++);
        break;
      default: break;
    }
  }
};

// Per-thread variables kept in arrays that can be recomputed instead (see
// Storage::Remat): declared once with an initialiser, never written again,
// the initialiser built from literals, parameters (pointer arithmetic on
// buffers included), thread ids and variables that are themselves
// single-definition (uniform or Remat), with no memory access, call or
// integer division by a non-literal.
void choose_remat(const Kernel& k, StoragePlan& plan) {
  plan.remat_init.assign(k.vars.size(), nullptr);
  // The defining expression: the declaration's initialiser, or the one plain
  // assignment to a variable declared without one (predicate_sync splits
  // declarations under masks that way).
  std::vector<const Expr*> def(k.vars.size(), nullptr);
  std::vector<int> writes(k.vars.size(), 0);
  std::vector<bool> top_level(k.vars.size(), false);
  for (auto& s : k.body->stmts)
    if (s->kind == Stmt::Kind::Decl) top_level[s->var] = true;
  walk_stmts(*k.body, [&](const Stmt& s) {
    if (s.kind == Stmt::Kind::Decl && s.expr) {
      ++writes[s.var];
      def[s.var] = s.expr.get();
    }
    return true;
  });
  walk_stmt_exprs(*k.body, [&](const Expr& e) {
    int v = written_variable(e);
    if (v >= 0) {
      ++writes[v];
      if (e.kind == Expr::Kind::Assign && !e.assign_op && e.args[0]->kind == Expr::Kind::VarRef)
        def[v] = e.args[1].get();
      else writes[v] += 2;
    }
    if (int v = address_taken_variable(e); v >= 0) writes[v] += 2;
    return true;
  });
  auto single_def = [&](int v) {
    return writes[v] == 1 && def[v] && (k.vars[v].type.is_scalar() || k.vars[v].type.is_pointer());
  };
  // Recomputed values run for every work-item, also those whose own code
  // would not have reached the definition: no operation that can trap.
  auto nonzero_literal = [](const Expr* d) {
    while (d->kind == Expr::Kind::Cast) d = d->args[0].get();
    return d->kind == Expr::Kind::IntLit && d->int_value != 0;
  };
  // Loop variables of threadgroup-level `for` loops that only the loop's
  // step writes, and for each variable the loops its definition is in: a
  // value defined inside such a loop from its variable (`i = start + it *
  // C`) can be recomputed anywhere in the body, where `it` is in scope and
  // unchanged (the step runs after the body).
  std::vector<bool> loop_stable(k.vars.size(), false);
  std::vector<std::vector<int>> enclosing(k.vars.size());
  std::vector<int> loop_stack;
  std::function<void(const Stmt&)> scan = [&](const Stmt& s) {
    if (s.kind == Stmt::Kind::Decl && s.expr) enclosing[s.var] = loop_stack;
    int lv = -1;
    if (s.kind == Stmt::Kind::For && s.init && s.init->kind == Stmt::Kind::Decl && s.init->expr) {
      lv = s.init->var;
      bool written = false;
      walk_stmt_exprs(*s.body, [&](const Expr& e) {
        written = written || written_variable(e) == lv;
        return !written;
      });
      loop_stable[lv] = !written && s.step && written_variable(*s.step) == lv;
    }
    for (auto& c : s.stmts)
      if (c) scan(*c);
    if (s.init) scan(*s.init);
    if (lv >= 0) loop_stack.push_back(lv);
    if (s.body) scan(*s.body);
    if (lv >= 0) loop_stack.pop_back();
    if (s.else_body) scan(*s.else_body);
  };
  scan(*k.body);
  std::vector<bool> remat(k.vars.size(), false);
  int candidate = -1;  // the variable whose definition `pure` is looking at
  auto in_its_loop = [&](int loop_var) {
    const std::vector<int>& loops = enclosing[candidate];
    return loop_stable[loop_var] && std::find(loops.begin(), loops.end(), loop_var) != loops.end();
  };
  auto pure = [&](const Expr& init) {
    bool ok = true;
    walk_exprs(init, [&](const Expr& x) {
      if (!ok) return false;
      switch (x.kind) {
        case Expr::Kind::IntLit:
        case Expr::Kind::FloatLit:
        case Expr::Kind::BoolLit:
        case Expr::Kind::Cast:
        case Expr::Kind::Conditional:
        case Expr::Kind::Swizzle:
        case Expr::Kind::VectorConstruct:
        case Expr::Kind::GlobalConstRef: break;
        case Expr::Kind::Unary:
          ok = x.unary_op == UnaryOp::Neg || x.unary_op == UnaryOp::Plus || x.unary_op == UnaryOp::Not ||
               x.unary_op == UnaryOp::BitNot;
          break;
        case Expr::Kind::Binary:
          ok = x.binary_op != BinaryOp::Comma;
          if ((x.binary_op == BinaryOp::Div || x.binary_op == BinaryOp::Rem) && !is_float(x.type.scalar))
            ok = nonzero_literal(x.args[1].get());
          break;
        case Expr::Kind::Member: ok = !x.args[0]->type.is_pointer(); break;
        case Expr::Kind::Call:  // the rewritten loops' trip counts: pure, never trap
          ok = x.spelling == kStridedTrips || x.spelling == kFullTrips || x.spelling == kThreadgroupSizeX ||
               x.spelling == kThreadgroupThreads;
          break;
        case Expr::Kind::ParamRef: ok = true; break;  // a buffer pointer itself, not what it points to
        case Expr::Kind::VarRef:
          // Uniform inputs declared at the kernel's top level are in scope
          // in every work-item loop.
          ok = (single_def(x.index) &&
                (remat[x.index] || (plan.storage[x.index] == Storage::Uniform && top_level[x.index]))) ||
               (plan.storage[x.index] == Storage::Uniform && in_its_loop(x.index));
          break;
        default: ok = false;
      }
      return ok;
    });
    return ok;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t v = 0; v < k.vars.size(); ++v) {
      if (remat[v] || plan.storage[v] != Storage::PerThread || !single_def(int(v))) continue;
      candidate = int(v);
      if (!pure(*def[v])) continue;
      remat[v] = true;
      changed = true;
    }
  }
  for (size_t v = 0; v < k.vars.size(); ++v)
    if (remat[v]) {
      plan.storage[v] = Storage::Remat;
      plan.remat_init[v] = def[v];
    }
}

}  // namespace

bool StoragePlan::tg_evaluable(const Kernel& k, const Expr& e) const {
  bool ok = true;
  walk_exprs(e, [&](const Expr& x) {
    if (x.kind == Expr::Kind::VarRef && storage[x.index] != Storage::Uniform) ok = false;
    if (x.kind == Expr::Kind::ParamRef && k.params[x.index].kind == Param::Kind::Builtin &&
        ir::analysis::builtin_uniformity(k.params[x.index].builtin) != Uniformity::Threadgroup)
      ok = false;
    if (x.kind == Expr::Kind::Collective) ok = false;
    return ok;
  });
  return ok;
}

StoragePlan plan_storage(const Kernel& k) {
  StoragePlan plan;
  plan.has_sync = k.body && ir::analysis::contains_sync(*k.body);
  plan.uniformity = ir::analysis::analyze_uniformity(k);
  plan.storage.assign(k.vars.size(), Storage::Local);
  if (!k.body) return plan;
  Planner p{k, plan};
  // A variable assigned under a condition that is not threadgroup-uniform
  // (eliminate_returns' `if (alive)`: uniform among the threads still
  // running, but the others must not run the assignment) stays per thread.
  // So does a variable written inside an expression that runs per
  // work-item (`a[j] = x[4 * i + k++]`: k's value is the same in every
  // thread, but each thread increments it): one copy would be incremented
  // once per work-item of the loop that runs the statement.
  std::unordered_set<int>& guarded = p.guarded;
  std::function<void(const Stmt&, bool)> note_guarded = [&](const Stmt& s, bool under) {
    // What ir::vars_written counts: declarations and written variables.
    if (under && s.kind == Stmt::Kind::Decl) guarded.insert(s.var);
    for (const Expr* e : {s.expr.get(), s.step.get()}) {
      if (!e) continue;
      Uniformity level = plan.uniformity.expr(k, *e);
      if (s.kind == Stmt::Kind::Decl && e == s.expr.get())
        level = ir::analysis::join(level, plan.uniformity.vars[s.var]);
      if (!under && level == Uniformity::Threadgroup) continue;
      walk_exprs(*e, [&](const Expr& x) {
        if (int v = written_variable(x); v >= 0) guarded.insert(v);
        return true;
      });
    }
    const bool divergent = s.kind == Stmt::Kind::If && plan.uniformity.expr(k, *s.expr) != Uniformity::Threadgroup;
    Nested::children(s, [&](const Stmt& c) {
      note_guarded(c, under || (divergent && (&c == s.body.get() || &c == s.else_body.get())));
    });
  };
  note_guarded(*k.body, false);
  p.nested.find(*k.body);
  // Uniform variables make the statements that assign them threadgroup
  // level, which can put more declarations at threadgroup level: iterate.
  for (int iter = 0; iter < 16; ++iter) {
    plan.tg_level.clear();
    p.nested.find_assigns(*k.body, p.uniform_vars);
    p.mark(*k.body, plan.has_sync, false);
    std::unordered_set<int> next;
    walk_stmts(*k.body, [&](const Stmt& s) {
      if (s.kind == Stmt::Kind::Decl && plan.is_tg_level(&s) &&
          plan.uniformity.vars[s.var] == Uniformity::Threadgroup &&
          !(s.expr && s.expr->kind == Expr::Kind::Collective) && !guarded.count(s.var))
        next.insert(s.var);
      return true;
    });
    if (next == p.uniform_vars) break;
    p.uniform_vars = std::move(next);
  }
  p.regions.assign(k.vars.size(), {});
  p.forced.assign(k.vars.size(), false);
  if (plan.has_sync) p.tg_block(*k.body);
  for (size_t v = 0; v < k.vars.size(); ++v) {
    if (p.uniform_vars.count((int)v)) plan.storage[v] = Storage::Uniform;
    else if (p.forced[v] || p.regions[v].size() > 1) plan.storage[v] = Storage::PerThread;
    else plan.storage[v] = Storage::Local;
  }
  choose_remat(k, plan);
  // A per-thread variable declared at threadgroup level (not inside a
  // work-item loop) needs the array even if only one loop uses it.
  // One declared there without initialiser (predicate_sync hoists
  // declarations out of masked pieces) and used in one loop only is declared
  // inside that loop instead.
  walk_stmts(*k.body, [&](const Stmt& s) {
    if (s.kind == Stmt::Kind::Decl && plan.is_tg_level(&s) && plan.storage[s.var] == Storage::Local) {
      if (!s.expr && p.regions[s.var].size() <= 1) plan.declared_in_loop.insert(s.var);
      else plan.storage[s.var] = Storage::PerThread;
    }
    return true;
  });
  for (int v : p.bare_decls)
    if (plan.storage[v] == Storage::Local) plan.declared_in_loop.insert(v);
  return plan;
}

}  // namespace mslport::back::openmp
