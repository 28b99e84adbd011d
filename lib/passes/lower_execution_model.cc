#include "passes/lower_execution_model.h"

#include "ir/analysis/uniformity.h"
#include "ir/intrinsics.h"
#include "ir/verifier.h"
#include "passes/eliminate_returns.h"
#include "passes/hoist_collectives.h"
#include "passes/lockstep_barriers.h"
#include "passes/normalize_blocks.h"
#include "passes/predicate_sync.h"
#include "passes/simd_matrix_elements.h"
#include "passes/uniform_loop_counters.h"

namespace mslport::passes {
using namespace ir;
using namespace ir::analysis;

namespace {

// `if (!__mslport_in_grid()) return;` at the top of the kernel.
void insert_grid_guard(Kernel& k) {
  auto call = make_intrinsic_call(Intrinsic::InGrid, Type::scalar_of(ScalarKind::Bool), {}, k.loc);
  auto ret = std::make_unique<Stmt>();
  ret->kind = Stmt::Kind::Return;
  ret->loc = k.loc;
  std::vector<StmtPtr> then;
  then.push_back(std::move(ret));
  k.body->stmts.insert(k.body->stmts.begin(),
                       make_if(make_unary(UnaryOp::Not, Type::scalar_of(ScalarKind::Bool), std::move(call), k.loc),
                               make_block(std::move(then), k.loc), nullptr, k.loc));
}

// Post-condition for the backends: no barrier or collective under a
// provably divergent condition.
bool verify_sync_placement(const Kernel& k, DiagEngine& diags) {
  UniformityInfo info = analyze_uniformity(k);
  bool ok = true;
  std::function<void(const Stmt&, bool)> visit = [&](const Stmt& s, bool divergent) {
    bool is_sync = s.kind == Stmt::Kind::Barrier || is_canonical_collective_stmt(s);
    if (is_sync && divergent) {
      diags.error(s.loc, "internal error: synchronisation left in divergent control flow after lowering");
      ok = false;
    }
    auto cond_divergent = [&](Uniformity u) { return u == Uniformity::Thread || u == Uniformity::Simdgroup; };
    switch (s.kind) {
      case Stmt::Kind::Block:
        for (auto& c : s.stmts) visit(*c, divergent);
        break;
      case Stmt::Kind::If: {
        bool d = divergent || cond_divergent(info.expr(k, *s.expr));
        // The alive flag only ever guards threads that already left.
        if (s.expr->kind == Expr::Kind::VarRef && k.vars[s.expr->index].name == kAliveVarName) d = divergent;
        visit(*s.body, d);
        if (s.else_body) visit(*s.else_body, d);
        break;
      }
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: {
        auto it = info.loop_level.find(&s);
        bool d = divergent || (it != info.loop_level.end() && cond_divergent(it->second));
        if (s.init) visit(*s.init, divergent);
        visit(*s.body, d);
        break;
      }
      default: break;
    }
  };
  visit(*k.body, false);
  return ok;
}

}  // namespace

bool lower_statements(Pipeline& p, Module& m, Kernel& k, const LowerOptions& options) {
  DiagEngine& diags = p.diags();
  if (!p.run("verify", k, [&] { return verify_kernel(m, k, diags); })) return false;
  if (!p.run("normalize_blocks", k, [&] { return normalize_blocks(k), true; })) return false;
  // Then, before any step judges a loop around a barrier: one whose bounds
  // both move with the thread runs on a uniform counter instead.
  if (!p.run("uniform_loop_counters", k, [&] { return uniform_loop_counters(k), true; })) return false;
  // Before the barriers and collectives are lowered: it adds barriers (and
  // needs every statement list a Block, which normalize_blocks makes).
  if (!p.run("thread_elements", k, [&] { return lower_thread_elements(k, diags); })) return false;
  // The grid guard is an early return like any other: it must exist before
  // returns are lowered.
  if (options.guard_grid && !p.run("grid_guard", k, [&] { return insert_grid_guard(k), true; })) return false;
  // Collectives must be statements before returns and masks are handled,
  // since both work statement by statement.
  return p.run("hoist_collectives", k, [&] { return hoist_collectives(k, diags); });
}

bool lower_synchronisation(Pipeline& p, Module& m, Kernel& k) {
  DiagEngine& diags = p.diags();
  int alive = -1;
  if (!p.run("eliminate_returns", k, [&] { return alive = eliminate_returns(k), true; })) return false;
  // Before predicate_sync, which splits `if (alive)` blocks at the barriers
  // this inserts.
  if (!p.run("lockstep_barriers", k, [&] { return insert_lockstep_barriers(k), true; })) return false;
  if (!p.run("predicate_sync", k, [&] { return predicate_sync(m, k, alive, diags); })) return false;
  return p.run("verify_sync_placement", k,
               [&] { return verify_kernel(m, k, diags) && verify_sync_placement(k, diags); });
}

bool lower_execution_model(Module& m, Kernel& k, DiagEngine& diags, const LowerOptions& options) {
  Pipeline p(m, diags, nullptr);
  return lower_statements(p, m, k, options) && lower_synchronisation(p, m, k);
}

}  // namespace mslport::passes
