#include "passes/bind_function_constants.h"

#include <vector>

#include "ir/analysis/function_constant_reads.h"

namespace mslport::passes {
namespace {

using ir::Expr;
using ir::ExprPtr;

// Rewrites the reads under `e` (e itself included); false when a kernel
// reads a host-set constant it has no parameter for.
bool bind_reads(const ir::Module& m, const ir::Kernel& k, const std::vector<bool>& moves, ExprPtr& e,
                DiagEngine& diags) {
  if (e->kind == Expr::Kind::GlobalConstRef && moves.at(e->index)) {
    const ir::GlobalConst& g = m.constants[e->index];
    if (!g.host_set) {  // computed from one: its expression, bound in turn
      ir::SourceLoc loc = e->loc;
      e = g.init->clone();
      if (!e->loc.valid()) e->loc = loc;
      return bind_reads(m, k, moves, e, diags);
    }
    for (size_t p = 0; p < k.params.size(); ++p)
      if (k.params[p].kind == ir::Param::Kind::FunctionConstant && k.params[p].name == g.name) {
        ir::SourceLoc loc = e->loc;
        e = ir::make_param_ref(k, (int)p, loc);
        return true;
      }
    diags.error(e->loc, "internal error: kernel '" + k.name + "' reads function constant '" + g.name +
                            "' but has no parameter for it");
    return false;
  }
  bool ok = true;
  for (auto& a : e->args)
    if (a) ok = bind_reads(m, k, moves, a, diags) && ok;
  return ok;
}

}  // namespace

bool bind_function_constants(ir::Module& m, DiagEngine& diags) {
  std::vector<bool> moves(m.constants.size());
  bool any = false;
  for (size_t c = 0; c < m.constants.size(); ++c)
    any = (moves[c] = ir::analysis::depends_on_host_set_constant(m, (int)c)) || any;
  if (!any) return true;
  bool ok = true;
  for (auto& k : m.kernels) {
    if (!k.body) continue;
    ir::walk_stmts_mut(*k.body, [&](ir::Stmt& s) {
      if (s.expr) ok = bind_reads(m, k, moves, s.expr, diags) && ok;
      if (s.step) ok = bind_reads(m, k, moves, s.step, diags) && ok;
      return true;
    });
  }
  // Every call is inlined by now (inline_functions runs first), and a
  // helper's reads of the constants that leave would be left dangling.
  m.functions.clear();
  ir::erase_constants(m, moves);
  return ok;
}

}  // namespace mslport::passes
