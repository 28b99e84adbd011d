// Why not leave it to the hardware: each core of the static schedule walks
// its threadgroups in order, so each buffer a work-item loop reads along x
// is one stream per core, and a loop over K slots or experts makes K of
// them; measured, the L2 prefetcher of the 2-core VM does not run far
// enough ahead of that many (row_prefetch.h).
#include "back/openmp/raise/row_prefetch.h"

#include <map>

#include "back/openmp/raise/loop_schedule_points.h"
#include "back/openmp/raise/row_step.h"
#include "ir/analysis/purity.h"

namespace mslport::back::openmp {
namespace {

using ir::BuiltinId;
using ir::Expr;
using ir::Stmt;

bool is_group_builtin(const ir::Param& p) {
  return p.kind == ir::Param::Kind::Builtin &&
         (p.builtin == BuiltinId::ThreadgroupPositionInGrid || p.builtin == BuiltinId::ThreadPositionInGrid);
}

// The variables whose value depends on the threadgroup's position in the
// grid (through any assignment, to a fixpoint).
std::set<int> group_dependent_vars(const ir::Kernel& k) {
  std::set<int> out;
  if (!k.body) return out;
  auto mentions = [&](const Expr& e) {
    bool found = false;
    ir::walk_exprs(e, [&](const Expr& x) {
      found = found || (x.kind == Expr::Kind::ParamRef && is_group_builtin(k.params[x.index])) ||
              (x.kind == Expr::Kind::VarRef && out.count(x.index));
      return !found;
    });
    return found;
  };
  for (bool grew = true; grew;) {
    grew = false;
    ir::walk_stmts(*k.body, [&](const Stmt& s) {
      if (s.kind == Stmt::Kind::Decl && s.expr && !out.count(s.var) && mentions(*s.expr))
        grew = out.insert(s.var).second;
      return true;
    });
    ir::walk_stmt_exprs(*k.body, [&](const Expr& e) {
      if (e.kind == Expr::Kind::Assign && e.args[0]->kind == Expr::Kind::VarRef && !out.count(e.args[0]->index) &&
          mentions(*e.args[1]))
        grew = out.insert(e.args[0]->index).second || grew;
      return true;
    });
  }
  return out;
}

// Arithmetic on values only (ir/analysis/purity.h), also in the
// definitions of the recomputed variables `e` reads.
bool pure_arithmetic(const StoragePlan& plan, const Expr& e, int depth = 0) {
  if (depth > 32 || !ir::analysis::is_arithmetic(e)) return false;
  bool ok = true;
  ir::walk_exprs(e, [&](const Expr& x) {
    if (x.kind == Expr::Kind::VarRef && plan.storage[x.index] == Storage::Remat)
      ok = pure_arithmetic(plan, *plan.remat_init[x.index], depth + 1);
    return ok;
  });
  return ok;
}

}  // namespace

RowPrefetchFacts row_prefetch_facts(const ir::Kernel& k) {
  RowPrefetchFacts facts;
  facts.group_dependent_vars = group_dependent_vars(k);
  if (!k.body) return facts;
  ir::walk_stmts(*k.body, [&](const Stmt& s) {
    if (is_prefetch_hint(s))
      ir::walk_exprs(*s.expr, [&](const Expr& x) {
        if (x.kind == Expr::Kind::ParamRef && k.params[x.index].kind == ir::Param::Kind::Buffer)
          facts.hinted_buffers.insert(x.index);
        return true;
      });
    return true;
  });
  return facts;
}

PrefetchedReads find_prefetched_reads(const ir::Kernel& k, const StoragePlan& plan,
                                      const std::vector<const Stmt*>& loop, int known_true_var,
                                      const RowPrefetchFacts& facts) {
  constexpr size_t kMaxReads = 4;
  std::set<int> written;  // buffers the loop stores to: a read hint would fetch lines it then owns
  for (auto* s : loop)
    ir::walk_stmt_exprs(*s, [&](const Expr& e) {
      if (e.kind == Expr::Kind::Assign && e.args[0]->kind == Expr::Kind::Index &&
          e.args[0]->args[0]->kind == Expr::Kind::ParamRef)
        written.insert(e.args[0]->args[0]->index);
      return true;
    });
  const std::vector<const Stmt*> flat = statements_every_item_runs(loop, known_true_var);
  RowStep row_step(k, plan, flat);
  PrefetchedReads out;
  std::set<int> taken, used_by_taken;
  for (auto* s : flat)
    ir::walk_stmt_exprs(*s, [&](const Expr& x) {
      if (out.reads.size() >= kMaxReads || x.kind != Expr::Kind::Index || x.args[0]->kind != Expr::Kind::ParamRef)
        return true;
      const int p = x.args[0]->index;
      const ir::Param& param = k.params[p];
      if (param.kind != ir::Param::Kind::Buffer || !param.type.is_pointer() ||
          (param.type.space != ir::AddressSpace::Device && param.type.space != ir::AddressSpace::Constant) ||
          written.count(p) || facts.hinted_buffers.count(p) || taken.count(p) || !x.type.is_scalar())
        return true;
      const Expr& index = *x.args[1];
      row_step.take_used();
      const auto step = row_step.of(index);
      const std::set<int> used = row_step.take_used();
      if (!step || *step != 1) return true;
      const std::vector<const Stmt*> defs = row_step.defs_in_order(used);
      bool pure = pure_arithmetic(plan, index), per_group = false;
      for (const Stmt* d : defs) pure = pure && pure_arithmetic(plan, *d->expr);
      auto note_group = [&](const Expr& y) {
        ir::walk_exprs(y, [&](const Expr& z) {
          per_group = per_group || (z.kind == Expr::Kind::ParamRef && is_group_builtin(k.params[z.index])) ||
                      (z.kind == Expr::Kind::VarRef && facts.group_dependent_vars.count(z.index));
          return !per_group;
        });
      };
      note_group(index);
      for (const Stmt* d : defs) note_group(*d->expr);
      if (!pure || !per_group) return true;
      taken.insert(p);
      used_by_taken.insert(used.begin(), used.end());
      out.reads.push_back(PrefetchedRead{&x, p});
      return true;
    });
  out.index_defs = row_step.defs_in_order(used_by_taken);
  return out;
}

}  // namespace mslport::back::openmp
