#include "passes/eliminate_returns.h"

#include "ir/analysis/uniformity.h"

namespace mslport::passes {
using namespace ir;
using namespace ir::analysis;

namespace {
struct Eliminator {
  Kernel& k;
  const UniformityInfo& info;
  int alive = -1;

  ExprPtr alive_ref(SourceLoc loc) { return make_var_ref(k, alive, loc); }

  StmtPtr make_break(SourceLoc loc) {
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::Break;
    s->loc = loc;
    return s;
  }

  // in_plain_loop: the innermost enclosing loop has no synchronisation, so
  // an exiting thread may leave it with `break`.
  bool rewrite_block(Stmt& b, bool in_plain_loop) {
    std::vector<StmtPtr> in = std::move(b.stmts);
    std::vector<StmtPtr> out;
    bool any_exit = false;
    for (size_t i = 0; i < in.size(); ++i) {
      bool exits = rewrite_stmt(in[i], in_plain_loop);
      SourceLoc loc = in[i]->loc;
      out.push_back(std::move(in[i]));
      if (!exits) continue;
      any_exit = true;
      if (i + 1 == in.size()) break;
      if (in_plain_loop) {
        std::vector<StmtPtr> brk;
        brk.push_back(make_break(loc));
        out.push_back(make_if(make_unary(UnaryOp::Not, Type::scalar_of(ScalarKind::Bool), alive_ref(loc)),
                              make_block(std::move(brk), loc), nullptr, loc));
        continue;
      }
      auto rest = make_block({}, in[i + 1]->loc);
      for (size_t j = i + 1; j < in.size(); ++j) rest->stmts.push_back(std::move(in[j]));
      rewrite_block(*rest, in_plain_loop);
      out.push_back(make_if(alive_ref(loc), std::move(rest), nullptr, loc));
      break;
    }
    b.stmts = std::move(out);
    return any_exit;
  }

  bool rewrite_stmt(StmtPtr& s, bool in_plain_loop) {
    switch (s->kind) {
      case Stmt::Kind::Return: {
        if (info.control_of(s.get()) == Uniformity::Threadgroup) return false;
        SourceLoc loc = s->loc;
        std::vector<StmtPtr> v;
        v.push_back(make_expr_stmt(make_assign(alive_ref(loc), make_bool(false, loc), loc)));
        if (in_plain_loop) v.push_back(make_break(loc));
        s = make_block(std::move(v), loc);
        return true;
      }
      case Stmt::Kind::Block: return rewrite_block(*s, in_plain_loop);
      case Stmt::Kind::If: {
        bool a = rewrite_block(*s->body, in_plain_loop);
        bool b = s->else_body ? rewrite_block(*s->else_body, in_plain_loop) : false;
        return a || b;
      }
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: return rewrite_block(*s->body, !contains_sync(*s));
      default: return false;
    }
  }
};

bool has_divergent_return(const Stmt& body, const UniformityInfo& info) {
  bool found = false;
  walk_stmts(body, [&](const Stmt& s) {
    if (s.kind == Stmt::Kind::Return && info.control_of(&s) != Uniformity::Threadgroup) found = true;
    return !found;
  });
  return found;
}
}  // namespace

int eliminate_returns(Kernel& k) {
  if (!k.body || !contains_sync(*k.body)) return -1;
  UniformityInfo info = analyze_uniformity(k);
  if (!has_divergent_return(*k.body, info)) return -1;
  Eliminator e{k, info};
  e.alive = add_var(k, kAliveVarName, Type::scalar_of(ScalarKind::Bool), k.loc);
  e.rewrite_block(*k.body, false);
  k.body->stmts.insert(k.body->stmts.begin(), make_decl(e.alive, make_bool(true, k.loc), k.loc));
  return e.alive;
}
}  // namespace mslport::passes
