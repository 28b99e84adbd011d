#include "passes/loop_schedule_points.h"

#include "passes/uniformity.h"

namespace mslport::passes {
using namespace ir;

namespace {

bool is_loop(const Stmt& s) {
  return s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::While || s.kind == Stmt::Kind::DoWhile;
}

// No loop, sync, break, continue, return or simdgroup_matrix anywhere in the body.
bool plain_body(const Stmt& body) {
  if (contains_sync(body)) return false;
  bool plain = true;
  walk_stmts(body, [&](const Stmt& s) {
    if (is_loop(s) || s.kind == Stmt::Kind::Break || s.kind == Stmt::Kind::Continue ||
        s.kind == Stmt::Kind::Return)
      plain = false;
    return plain;
  });
  // simdgroup_matrix operations act for the whole SIMD group at once (the
  // backend keeps one copy of each matrix): leave their loops alone.
  walk_stmt_exprs(body, [&](const Expr& e) {
    if (e.kind == Expr::Kind::SimdMatrixOp || e.type.kind == Type::Kind::SimdMatrix) plain = false;
    return plain;
  });
  return plain;
}

const Expr* strip_casts(const Expr* e) {
  while (e->kind == Expr::Kind::Cast) e = e->args[0].get();
  return e;
}

struct Scheduler {
  Kernel& k;
  UniformityInfo info;
  int inserted = 0;

  bool literal_bound(const Stmt& s) const {
    if (!s.expr || s.expr->kind != Expr::Kind::Binary || s.expr->args.size() != 2) return false;
    for (auto& a : s.expr->args) {
      const Expr* x = strip_casts(a.get());
      if (x->kind == Expr::Kind::IntLit || x->kind == Expr::Kind::GlobalConstRef) return true;
    }
    return false;
  }

  bool chosen(const Stmt& s) const {
    if (s.kind != Stmt::Kind::For || !plain_body(*s.body) || literal_bound(s)) return false;
    if (s.step && contains_collective(*s.step)) return false;
    auto it = info.loop_level.find(&s);
    Uniformity u = it == info.loop_level.end() ? Uniformity::Threadgroup : it->second;
    return u == Uniformity::Threadgroup;
  }

  void visit(Stmt& s, bool under_memory_condition) {
    switch (s.kind) {
      case Stmt::Kind::Block:
        for (auto& c : s.stmts) visit(*c, under_memory_condition);
        break;
      case Stmt::Kind::If: {
        bool m = under_memory_condition || info.expr(k, *s.expr) == Uniformity::Unknown;
        visit(*s.body, m);
        if (s.else_body) visit(*s.else_body, m);
        break;
      }
      case Stmt::Kind::For:
        if (!under_memory_condition && chosen(s)) {
          auto b = std::make_unique<Stmt>();
          b->kind = Stmt::Kind::Barrier;
          b->loc = s.loc;
          b->lockstep = true;
          s.body->stmts.insert(s.body->stmts.begin(), std::move(b));
          ++inserted;
        }
        break;  // nested loops are never chosen
      default: break;
    }
  }
};

}  // namespace

int insert_loop_schedule_points(Kernel& k) {
  if (!k.body) return 0;
  Scheduler s{k, analyze_uniformity(k)};
  s.visit(*k.body, false);
  return s.inserted;
}

}  // namespace mslport::passes
