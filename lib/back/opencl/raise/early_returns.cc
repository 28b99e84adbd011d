// Step: in kernels with barriers or collectives, the returns the shared
// passes leave (threadgroup-uniform ones: a whole threadgroup leaving early,
// e.g. `if (tgid >= out_dim) return;`) become `mslport_alive = false`:
//
//   if (mslport_alive) { if (c) return; a; }   =>   if (mslport_alive) { if (c) mslport_alive = false; if
//   (mslport_alive) { a; } }
//
// The threadgroup then passes the later barriers and collective helpers
// inactive instead of skipping them. Equivalent in OpenCL C, but PoCL 3.1
// miscompiles a barrier that a uniform branch below a divergent guard
// bypasses (pocl/pocl#2235, #2281): it ran the guarded code for the wrong
// work-items. After the passes every statement past the grid guard is already
// guarded by the alive flag or masked by it, so only the rest of the
// enclosing plain blocks needs a guard. Returns inside loops that contain
// synchronisation stay (their loop masks do not consult the flag).
#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "passes/eliminate_returns.h"
#include "passes/predicate_sync.h"

namespace mslport::back::opencl {
namespace {

bool has_sync(const ir::Stmt& s) {
  bool found = false;
  ir::walk_stmts(s, [&](const ir::Stmt& st) {
    if (st.kind == ir::Stmt::Kind::Barrier) found = true;
    return !found;
  });
  if (!found) {
    ir::walk_stmt_exprs(s, [&](const ir::Expr& e) {
      if (e.kind == ir::Expr::Kind::Collective ||
          (e.kind == ir::Expr::Kind::Call && e.intrinsic == ir::Intrinsic::ThreadgroupAny))
        found = true;
      return !found;
    });
  }
  return found;
}

bool has_return(const ir::Stmt& s) {
  bool found = false;
  ir::walk_stmts(s, [&](const ir::Stmt& st) {
    if (st.kind == ir::Stmt::Kind::Return) found = true;
    return !found;
  });
  return found;
}

struct Rewriter {
  ir::Kernel& k;
  int alive;

  ir::ExprPtr alive_ref(const ir::SourceLoc& loc) { return ir::make_var_ref(k, alive, loc); }
  ir::StmtPtr simple(ir::Stmt::Kind kind, const ir::SourceLoc& loc) {
    auto s = std::make_unique<ir::Stmt>();
    s->kind = kind;
    s->loc = loc;
    return s;
  }
  ir::StmtPtr break_unless_alive(const ir::SourceLoc& loc) {
    std::vector<ir::StmtPtr> brk;
    brk.push_back(simple(ir::Stmt::Kind::Break, loc));
    return ir::make_if(ir::make_unary(ir::UnaryOp::Not, ir::Type::scalar_of(ir::ScalarKind::Bool), alive_ref(loc), loc),
                       ir::make_block(std::move(brk), loc), nullptr, loc);
  }

  // True when `b` may now clear the flag.
  bool block(ir::Stmt& b, bool in_plain_loop) {
    std::vector<ir::StmtPtr> in = std::move(b.stmts), out;
    bool any = false;
    for (size_t i = 0; i < in.size(); ++i) {
      if (in[i]->kind == ir::Stmt::Kind::Return) {
        const ir::SourceLoc loc = in[i]->loc;
        out.push_back(ir::make_expr_stmt(ir::make_assign(alive_ref(loc), ir::make_bool(false, loc), loc)));
        if (in_plain_loop) out.push_back(simple(ir::Stmt::Kind::Break, loc));
        any = true;
        break;  // the rest of the block is unreachable
      }
      const bool exits = stmt(in[i], in_plain_loop);
      const ir::SourceLoc loc = in[i]->loc;
      out.push_back(std::move(in[i]));
      if (!exits) continue;
      any = true;
      if (i + 1 == in.size()) break;
      if (in_plain_loop) {
        out.push_back(break_unless_alive(loc));
        continue;
      }
      auto rest = ir::make_block({}, in[i + 1]->loc);
      for (size_t j = i + 1; j < in.size(); ++j) rest->stmts.push_back(std::move(in[j]));
      block(*rest, false);
      if (has_sync(*rest)) {
        // Statements around synchronisation are guarded by the flag already.
        for (auto& s : rest->stmts) out.push_back(std::move(s));
      } else {
        out.push_back(ir::make_if(alive_ref(loc), std::move(rest), nullptr, loc));
      }
      break;
    }
    b.stmts = std::move(out);
    return any;
  }

  bool as_block(ir::StmtPtr& s, bool in_plain_loop) {
    if (!s) return false;
    if (s->kind != ir::Stmt::Kind::Block) {
      const ir::SourceLoc loc = s->loc;
      std::vector<ir::StmtPtr> one;
      one.push_back(std::move(s));
      s = ir::make_block(std::move(one), loc);
    }
    return block(*s, in_plain_loop);
  }

  bool stmt(ir::StmtPtr& s, bool in_plain_loop) {
    switch (s->kind) {
      case ir::Stmt::Kind::Block: return block(*s, in_plain_loop);
      case ir::Stmt::Kind::If: {
        bool a = as_block(s->body, in_plain_loop);
        bool b = s->else_body ? as_block(s->else_body, in_plain_loop) : false;
        return a || b;
      }
      case ir::Stmt::Kind::For:
      case ir::Stmt::Kind::While:
      case ir::Stmt::Kind::DoWhile:
        if (has_sync(*s)) return false;  // left alone, see above
        return as_block(s->body, true);
      default: return false;
    }
  }
};

}  // namespace

void raise_early_returns(RaiseContext& ctx, ir::Kernel& k) {
  if (!k.body || !has_return(*k.body) || !has_sync(*k.body)) return;
  int alive = -1;
  for (size_t i = 0; i < k.vars.size(); ++i)
    if (k.vars[i].name == passes::kAliveVarName) alive = (int)i;
  if (alive < 0) return;
  Rewriter{k, alive}.block(*k.body, false);
}

}  // namespace mslport::back::opencl
