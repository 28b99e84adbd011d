#include "passes/normalize_blocks.h"

namespace mslport::passes {
using namespace ir;

static void wrap(StmtPtr& s) {
  if (s && s->kind != Stmt::Kind::Block) {
    auto loc = s->loc;
    std::vector<StmtPtr> v;
    v.push_back(std::move(s));
    s = make_block(std::move(v), loc);
  }
}

void normalize_blocks(Kernel& k) {
  if (!k.body) return;
  walk_stmts_mut(*k.body, [](Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::If:
        wrap(s.body);
        if (s.else_body) wrap(s.else_body);
        break;
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: wrap(s.body); break;
      default: break;
    }
    return true;
  });
}
}  // namespace mslport::passes
