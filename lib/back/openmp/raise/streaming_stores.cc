// Why a separate analysis: the emitter must know, before it prints a
// work-item loop, that writing its stores one row later (after the loop)
// and in a different way cannot change what any work-item observes. That
// holds when nothing in the kernel reads the buffer and each store's
// address is its row's first address plus the x index: the staged row then
// holds exactly the values, at exactly the places, the loop would have
// stored.
#include "back/openmp/raise/streaming_stores.h"

#include <map>

#include "back/openmp/raise/row_step.h"

namespace mslport::back::openmp {
namespace {

using ir::Expr;
using ir::Stmt;

bool is_store_to_buffer(const Expr& e, int* buffer) {
  if (e.kind != Expr::Kind::Assign || e.assign_op) return false;
  const Expr& lhs = *e.args[0];
  if (lhs.kind != Expr::Kind::Index || lhs.args[0]->kind != Expr::Kind::ParamRef) return false;
  *buffer = lhs.args[0]->index;
  return true;
}

}  // namespace

std::set<int> write_only_buffers(const ir::Kernel& k) {
  std::map<int, int> refs, stores;
  if (k.body)
    ir::walk_stmt_exprs(*k.body, [&](const Expr& e) {
      if (e.kind == Expr::Kind::ParamRef) ++refs[e.index];
      int p;
      if (is_store_to_buffer(e, &p)) ++stores[p];
      return true;
    });
  std::set<int> out;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (p.kind == ir::Param::Kind::Buffer && p.type.is_pointer() && p.type.space == ir::AddressSpace::Device &&
        !p.type.is_const && stores[(int)i] > 0 && stores[(int)i] == refs[(int)i])
      out.insert((int)i);
  }
  return out;
}

std::vector<StreamedStore> find_streamed_stores(const ir::Kernel& k, const StoragePlan& plan,
                                                const std::set<int>& write_only, const std::vector<const Stmt*>& loop,
                                                int known_true_var) {
  std::map<int, int> refs;  // buffer -> references anywhere in the loop
  for (auto* s : loop)
    ir::walk_stmt_exprs(*s, [&](const Expr& e) {
      if (e.kind == Expr::Kind::ParamRef) ++refs[e.index];
      return true;
    });
  const std::vector<const Stmt*> flat = statements_every_item_runs(loop, known_true_var);
  RowStep row_step(k, plan, flat);
  std::vector<StreamedStore> out;
  for (auto* s : flat) {
    int p;
    if (s->kind != Stmt::Kind::ExprStmt || !is_store_to_buffer(*s->expr, &p) || !write_only.count(p) || refs[p] != 1)
      continue;
    const Expr& lhs = *s->expr->args[0];
    if (!lhs.type.is_scalar() || lhs.type.scalar == ir::ScalarKind::Bool) continue;
    row_step.take_used();
    auto step = row_step.of(*lhs.args[1]);
    const std::set<int> used = row_step.take_used();
    if (!step || *step != 1) continue;
    out.push_back(StreamedStore{s, p, row_step.defs_in_order(used)});
  }
  return out;
}

}  // namespace mslport::back::openmp
