#include "passes/lockstep_barriers.h"

#include <set>

#include "ir/analysis/uniformity.h"
#include "passes/eliminate_returns.h"

namespace mslport::passes {
using namespace ir;
using namespace ir::analysis;

namespace {

// Threadgroup memory touched by a statement: allocation roots read/written.
// Root -1 = dynamic threadgroup memory (or a pointer into threadgroup memory).
struct Accesses {
  std::set<int> reads, writes;
  void merge(const Accesses& o) {
    reads.insert(o.reads.begin(), o.reads.end());
    writes.insert(o.writes.begin(), o.writes.end());
  }
  bool empty() const { return reads.empty() && writes.empty(); }
};

bool intersects(const std::set<int>& a, const std::set<int>& b) {
  for (int x : a)
    if (b.count(x)) return true;
  return false;
}

// The threadgroup allocation an lvalue/pointer expression refers to, if any.
bool tg_root(const Expr& base, int* root) {
  if (base.kind == Expr::Kind::TgAllocRef) {
    *root = base.index;
    return true;
  }
  if (base.type.is_pointer() && base.type.space == AddressSpace::Threadgroup) {
    *root = -1;
    return true;
  }
  return false;
}

void collect(const Expr& e, Accesses& acc, bool is_store_target = false, bool also_read = false) {
  int root;
  switch (e.kind) {
    case Expr::Kind::Assign:
      collect(*e.args[0], acc, true, e.assign_op.has_value());
      collect(*e.args[1], acc);
      return;
    case Expr::Kind::Unary:
      if (ir::is_increment(e.unary_op)) {
        collect(*e.args[0], acc, true, true);
        return;
      }
      if (e.unary_op == UnaryOp::Deref && tg_root(*e.args[0], &root)) {
        if (is_store_target) acc.writes.insert(root);
        if (!is_store_target || also_read) acc.reads.insert(root);
        collect(*e.args[0], acc);
        return;
      }
      break;
    case Expr::Kind::Index:
      if (tg_root(*e.args[0], &root)) {
        if (is_store_target) acc.writes.insert(root);
        if (!is_store_target || also_read) acc.reads.insert(root);
        if (e.args[0]->kind != Expr::Kind::TgAllocRef) collect(*e.args[0], acc);
        collect(*e.args[1], acc);
        return;
      }
      // A store into an element of a private array: the index is a read.
      collect(*e.args[0], acc, is_store_target, also_read);
      collect(*e.args[1], acc);
      return;
    case Expr::Kind::Member:
    case Expr::Kind::Swizzle: collect(*e.args[0], acc, is_store_target, also_read); return;
    case Expr::Kind::SimdMatrixOp:
      // simdgroup_load/store read/write a whole 8x8 block through a pointer.
      if ((e.matrix_op == SimdMatrixOpKind::Load || e.matrix_op == SimdMatrixOpKind::Store) && e.args.size() > 1) {
        int r;
        const Expr* p = e.args[1].get();
        while (p->kind == Expr::Kind::Binary || p->kind == Expr::Kind::Cast) p = p->args[0].get();
        if (p->kind == Expr::Kind::Unary && p->unary_op == UnaryOp::AddrOf) p = p->args[0].get();
        if (p->kind == Expr::Kind::Index) p = p->args[0].get();
        if (tg_root(*p, &r) || tg_root(*e.args[1], &r)) {
          if (e.matrix_op == SimdMatrixOpKind::Load) acc.reads.insert(r);
          else acc.writes.insert(r);
        }
      }
      break;
    case Expr::Kind::TgAllocRef:
      // A threadgroup scalar (or a whole struct) used directly.
      if (is_store_target) acc.writes.insert(e.index);
      if (!is_store_target || also_read) acc.reads.insert(e.index);
      return;
    default: break;
  }
  for (auto& a : e.args) collect(*a, acc);
  if (e.mask) collect(*e.mask, acc);
}

Accesses accesses_of(const Stmt& s) {
  Accesses acc;
  walk_stmt_exprs(s, [&](const Expr& e) {
    collect(e, acc);
    return false;
  });
  if (s.init) acc.merge(accesses_of(*s.init));
  return acc;
}

bool contains_barrier(const Stmt& s) {
  bool found = false;
  walk_stmts(s, [&](const Stmt& x) {
    if (x.kind == Stmt::Kind::Barrier) found = true;
    return !found;
  });
  return found;
}

struct Inserter {
  Kernel& k;
  UniformityInfo info;
  int inserted = 0;

  // Accesses that may follow the last barrier inside `s`.
  Accesses tail(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::Barrier: return {};
      case Stmt::Kind::Block: {
        Accesses acc;
        for (auto& c : s.stmts) {
          if (contains_barrier(*c)) acc = tail(*c);
          else acc.merge(accesses_of(*c));
        }
        return acc;
      }
      case Stmt::Kind::If: {
        Accesses acc = tail(*s.body);
        if (s.else_body) acc.merge(tail(*s.else_body));
        return acc;
      }
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: return tail(*s.body);
      default: return accesses_of(s);
    }
  }

  StmtPtr barrier(SourceLoc loc) {
    auto b = std::make_unique<Stmt>();
    b->kind = Stmt::Kind::Barrier;
    b->loc = loc;
    b->mem_flags = 2;  // mem_threadgroup
    b->lockstep = true;
    return b;
  }

  void uniform_block(Stmt& b) {
    std::vector<StmtPtr> out;
    Accesses since;  // since the last barrier in this list
    for (auto& s : b.stmts) {
      if (contains_barrier(*s)) {
        descend(*s);
        out.push_back(std::move(s));
        since = tail(*out.back());
        continue;
      }
      Accesses a = accesses_of(*s);
      bool war = intersects(since.reads, a.writes);
      bool raw = intersects(since.writes, a.reads);
      if (war || raw) {
        out.push_back(barrier(s->loc));
        ++inserted;
        since = {};
      }
      descend(*s);
      since.merge(a);
      out.push_back(std::move(s));
    }
    b.stmts = std::move(out);
  }

  // eliminate_returns' `if (alive) {...}`: predicate_sync will split it at
  // the barriers inserted here (threads that returned pass them).
  bool is_alive_guard(const Stmt& s) const {
    return s.expr->kind == Expr::Kind::VarRef && k.vars[s.expr->index].name == kAliveVarName;
  }

  // Only statement lists every thread executes get barriers.
  void descend(Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::Block: uniform_block(s); break;
      case Stmt::Kind::If:
        if (info.expr(k, *s.expr) == Uniformity::Threadgroup || is_alive_guard(s)) {
          uniform_block(*s.body);
          if (s.else_body) uniform_block(*s.else_body);
        }
        break;
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: {
        auto it = info.loop_level.find(&s);
        if (it != info.loop_level.end() && it->second == Uniformity::Threadgroup) uniform_block(*s.body);
        break;
      }
      default: break;
    }
  }
};

}  // namespace

int insert_lockstep_barriers(Kernel& k) {
  if (!k.body || !contains_sync(*k.body)) return 0;
  Inserter ins{k, analyze_uniformity(k)};
  ins.uniform_block(*k.body);
  return ins.inserted;
}

}  // namespace mslport::passes
