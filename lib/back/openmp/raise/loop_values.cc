#include "back/openmp/raise/loop_values.h"

#include <set>

#include "ir/analysis/uniformity.h"

namespace mslport::back::openmp {
namespace {

using ir::Expr;
using ir::analysis::builtin_uniformity;
using ir::analysis::Uniformity;
using Stmts = std::vector<const ir::Stmt*>;
using Exprs = std::vector<const Expr*>;

std::vector<int> remat_used(const StoragePlan& plan, const Stmts& stmts, const Exprs& exprs) {
  // Every recomputed variable the statements read, with the recomputed
  // variables those read, declared at the top of the loop (their own
  // declarations in the statements emit nothing), dependencies first.
  std::set<int> used;
  std::vector<const Expr*> todo;
  auto note = [&](const Expr& e) {
    ir::walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::VarRef && plan.storage[x.index] == Storage::Remat && used.insert(x.index).second)
        todo.push_back(plan.remat_init[x.index]);
      return true;
    });
    return false;
  };
  for (auto* s : stmts) ir::walk_stmt_exprs(*s, note);
  for (auto* e : exprs)
    if (e) note(*e);
  while (!todo.empty()) {
    const Expr* e = todo.back();
    todo.pop_back();
    note(*e);
  }
  std::vector<int> out;
  std::set<int> placed;
  while (placed.size() < used.size()) {
    size_t before = placed.size();
    for (int v : used) {
      if (placed.count(v)) continue;
      bool ready = true;
      ir::walk_exprs(*plan.remat_init[v], [&](const Expr& x) {
        if (x.kind == Expr::Kind::VarRef && plan.storage[x.index] == Storage::Remat && !placed.count(x.index))
          ready = false;
        return ready;
      });
      if (!ready) continue;
      placed.insert(v);
      out.push_back(v);
    }
    if (placed.size() == before) break;  // cannot happen: definitions precede uses
  }
  return out;
}

std::set<int> builtins_used(const ir::Kernel& k, const Stmts& stmts, const Exprs& exprs) {
  std::set<int> used;
  auto note = [&](const Expr& e) {
    ir::walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::ParamRef && k.params[x.index].kind == ir::Param::Kind::Builtin &&
          builtin_uniformity(k.params[x.index].builtin) != Uniformity::Threadgroup)
        used.insert(x.index);
      return true;
    });
    return false;
  };
  for (auto* s : stmts) ir::walk_stmt_exprs(*s, note);
  for (auto* e : exprs)
    if (e) note(*e);
  return used;
}

}  // namespace

LoopValues loop_values(const ir::Kernel& k, const StoragePlan& plan, const Stmts& stmts, const Exprs& exprs) {
  LoopValues values;
  values.remat = remat_used(plan, stmts, exprs);
  Exprs all = exprs;
  for (int v : values.remat) all.push_back(plan.remat_init[v]);
  values.builtins = builtins_used(k, stmts, all);
  std::set<int> declared;
  auto note = [&](const Expr& e) {
    ir::walk_exprs(e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::VarRef && plan.declared_in_loop.count(x.index)) declared.insert(x.index);
      return true;
    });
    return false;
  };
  for (auto* s : stmts) ir::walk_stmt_exprs(*s, note);
  for (auto* e : exprs)
    if (e) note(*e);
  values.declared.assign(declared.begin(), declared.end());
  return values;
}

LoopValues take_simd_group_values(const ir::Kernel& k, const StoragePlan& plan, LoopValues* values) {
  LoopValues hoisted;
  std::vector<int> builtins;
  for (int i : values->builtins)
    if (builtin_uniformity(k.params[i].builtin) == Uniformity::Simdgroup) builtins.push_back(i);
  std::set<int> vars;
  auto group_level = [&](const Expr& init) {
    bool ok = true;
    ir::walk_exprs(init, [&](const Expr& x) {
      if (x.kind == Expr::Kind::ParamRef && k.params[x.index].kind == ir::Param::Kind::Builtin)
        ok = ok && builtin_uniformity(k.params[x.index].builtin) <= Uniformity::Simdgroup;
      if (x.kind == Expr::Kind::VarRef && plan.storage[x.index] == Storage::Remat) ok = ok && vars.count(x.index);
      return ok;
    });
    return ok;
  };
  std::vector<int> in_loop;
  for (int v : values->remat)  // dependencies first
    if (group_level(*plan.remat_init[v])) {
      vars.insert(v);
      hoisted.remat.push_back(v);
    } else {
      in_loop.push_back(v);
    }
  for (int i : builtins) {
    hoisted.builtins.insert(i);
    values->builtins.erase(i);
  }
  values->remat = in_loop;
  return hoisted;
}

bool uses_simd_lanes(const ir::Kernel& k, const StoragePlan& plan, const Stmts& stmts) {
  for (int i : loop_values(k, plan, stmts, {}).builtins) {
    ir::BuiltinId b = k.params[i].builtin;
    if (b == ir::BuiltinId::ThreadIndexInSimdgroup || b == ir::BuiltinId::SimdgroupIndexInThreadgroup) return true;
  }
  return false;
}

bool indexes_private_array_per_lane(const ir::Kernel& k, const StoragePlan& plan, const Stmts& stmts) {
  bool found = false;
  for (auto* s : stmts)
    ir::walk_stmt_exprs(*s, [&](const Expr& e) {
      ir::walk_exprs(e, [&](const Expr& x) {
        if (x.kind == Expr::Kind::Index && x.args[0]->kind == Expr::Kind::VarRef &&
            k.vars[x.args[0]->index].type.is_array() && plan.uniformity.expr(k, *x.args[1]) > Uniformity::Simdgroup)
          found = true;
        return !found;
      });
      return false;
    });
  return found;
}

}  // namespace mslport::back::openmp
