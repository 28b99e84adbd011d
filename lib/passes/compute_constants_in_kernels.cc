#include "passes/compute_constants_in_kernels.h"

#include <map>
#include <vector>

#include "ir/analysis/function_constant_reads.h"

namespace mslport::passes {
namespace {

using ir::Expr;

// Reads of a computed constant become reads of the kernel's local.
void read_locals(const ir::Kernel& k, const std::map<int, int>& local_of, ir::Expr& e) {
  ir::walk_exprs_mut(e, [&](Expr& x) {
    if (x.kind == Expr::Kind::GlobalConstRef)
      if (auto it = local_of.find(x.index); it != local_of.end()) {
        ir::SourceLoc loc = x.loc;
        x = std::move(*ir::make_var_ref(k, it->second, loc));
        return false;
      }
    return true;
  });
}

std::map<int, int> locals_of(const ir::Kernel& k) {
  std::map<int, int> out;
  for (size_t v = 0; v < k.vars.size(); ++v)
    if (k.vars[v].computes_constant >= 0) out[k.vars[v].computes_constant] = (int)v;
  return out;
}

}  // namespace

void compute_constants_in_kernels(ir::Module& m) {
  for (auto& k : m.kernels) {
    if (!k.body) continue;
    std::map<int, int> local_of = locals_of(k);
    std::vector<ir::StmtPtr> prologue;
    // In declaration order, which is the order they read each other in.
    for (int c : ir::analysis::constants_read(m, k)) {
      const ir::GlobalConst& g = m.constants[c];
      if (!g.computed || local_of.count(c)) continue;
      const int v = ir::add_var(k, g.name, g.type, g.loc, /*is_const=*/true);
      k.vars[v].computes_constant = c;
      ir::ExprPtr init = g.init->clone();
      read_locals(k, local_of, *init);
      prologue.push_back(ir::make_decl(v, std::move(init), g.loc));
      local_of[c] = v;
    }
    auto& stmts = k.body->stmts;
    stmts.insert(stmts.begin(), std::make_move_iterator(prologue.begin()), std::make_move_iterator(prologue.end()));
  }
}

void read_computed_constants(ir::Module& m) {
  std::vector<bool> computed(m.constants.size());
  bool any = false;
  for (size_t c = 0; c < m.constants.size(); ++c) any = (computed[c] = m.constants[c].computed) || any;
  if (!any) return;
  for (auto& k : m.kernels) {
    if (!k.body) continue;
    const std::map<int, int> local_of = locals_of(k);
    ir::walk_stmts_mut(*k.body, [&](ir::Stmt& s) {
      if (s.expr) read_locals(k, local_of, *s.expr);
      if (s.step) read_locals(k, local_of, *s.step);
      return true;
    });
  }
  // Every call is inlined by now, and a helper's reads of them would be left
  // dangling.
  m.functions.clear();
  for (auto& k : m.kernels)
    for (auto& v : k.vars) v.computes_constant = -1;
  ir::erase_constants(m, computed);
}

}  // namespace mslport::passes
