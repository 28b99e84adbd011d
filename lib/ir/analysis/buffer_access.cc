#include "ir/analysis/buffer_access.h"

#include <map>
#include <set>

namespace mslport::ir::analysis {

namespace {

class Access {
 public:
  explicit Access(const Kernel& k) : k_(k), out_(k.params.size()) {}

  std::vector<BufferAccess> run() {
    // Pointer variables that may hold a buffer's address, to a fixpoint
    // (a copy of a copy).
    for (bool changed = true; changed;) {
      changed = false;
      walk_stmts(*k_.body, [&](const Stmt& s) {
        if (s.kind == Stmt::Kind::Decl && s.expr && k_.vars[s.var].type.is_pointer())
          changed = merge(s.var, roots(*s.expr)) || changed;
        return true;
      });
      walk_stmt_exprs(*k_.body, [&](const Expr& e) {
        if (e.kind == Expr::Kind::Assign && e.args[0]->kind == Expr::Kind::VarRef &&
            k_.vars[e.args[0]->index].type.is_pointer())
          changed = merge(e.args[0]->index, roots(*e.args[1])) || changed;
        return true;
      });
    }
    walk_stmts(*k_.body, [&](const Stmt& s) {
      for (const Expr* e : {s.expr.get(), s.step.get()})
        if (e) visit(*e, false);
      return true;
    });
    return out_;
  }

 private:
  bool merge(int var, const std::set<int>& r) {
    auto& mine = aliases_[var];
    size_t before = mine.size();
    mine.insert(r.begin(), r.end());
    return mine.size() != before;
  }

  // The buffers a pointer-valued expression may point into.
  std::set<int> roots(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::ParamRef:
        if (k_.params[e.index].kind == Param::Kind::Buffer) return {e.index};
        return {};
      case Expr::Kind::VarRef: {
        auto it = aliases_.find(e.index);
        return it == aliases_.end() ? std::set<int>{} : it->second;
      }
      case Expr::Kind::Binary:
      case Expr::Kind::Conditional:
      case Expr::Kind::Cast:
      case Expr::Kind::Bitcast: {
        std::set<int> out;
        for (const auto& a : e.args) {
          auto r = roots(*a);
          out.insert(r.begin(), r.end());
        }
        return out;
      }
      case Expr::Kind::Unary:
        if (e.unary_op == UnaryOp::AddrOf) return lvalue_roots(*e.args[0]);
        if (e.unary_op == UnaryOp::Deref) return {};
        return roots(*e.args[0]);  // p++ and the like keep the pointer's buffer
      case Expr::Kind::Assign: return roots(*e.args[0]);
      default: return {};
    }
  }

  // The buffers an lvalue lies in.
  std::set<int> lvalue_roots(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::Index: return roots(*e.args[0]);
      case Expr::Kind::Unary: return e.unary_op == UnaryOp::Deref ? roots(*e.args[0]) : std::set<int>{};
      case Expr::Kind::Member: return e.arrow ? roots(*e.args[0]) : lvalue_roots(*e.args[0]);
      case Expr::Kind::Swizzle: return lvalue_roots(*e.args[0]);
      default: return {};
    }
  }

  void mark(const std::set<int>& r, bool read, bool written) {
    for (int p : r) {
      out_[p].read = out_[p].read || read;
      out_[p].written = out_[p].written || written;
    }
  }

  bool is_memory_access(const Expr& e) const {
    return e.kind == Expr::Kind::Index || (e.kind == Expr::Kind::Unary && e.unary_op == UnaryOp::Deref) ||
           (e.kind == Expr::Kind::Member && e.arrow);
  }

  // `store`: e is the target of a plain assignment (written, not read).
  void visit(const Expr& e, bool store) {
    switch (e.kind) {
      case Expr::Kind::Assign:
        mark(lvalue_roots(*e.args[0]), /*read=*/e.assign_op.has_value(), /*written=*/true);
        visit(*e.args[0], /*store=*/true);
        visit(*e.args[1], false);
        return;
      case Expr::Kind::Unary:
        if (e.unary_op == UnaryOp::PreInc || e.unary_op == UnaryOp::PreDec || e.unary_op == UnaryOp::PostInc ||
            e.unary_op == UnaryOp::PostDec) {
          mark(lvalue_roots(*e.args[0]), true, true);
          visit(*e.args[0], true);
          return;
        }
        break;
      case Expr::Kind::SimdMatrixOp:
        if (e.args.size() > 1 && e.matrix_op == SimdMatrixOpKind::Store) mark(roots(*e.args[1]), false, true);
        if (e.args.size() > 1 && e.matrix_op == SimdMatrixOpKind::Load) mark(roots(*e.args[1]), true, false);
        break;
      case Expr::Kind::Call:
      case Expr::Kind::Collective:
        // A pointer handed to a function it cannot see into.
        for (const auto& a : e.args)
          if (a->type.is_pointer()) mark(roots(*a), true, true);
        break;
      default: break;
    }
    if (is_memory_access(e) && !store) mark(lvalue_roots(e), true, false);
    // The target's own subscripts and bases are read as values; a member
    // or swizzle of a stored lvalue is still part of the store.
    for (size_t i = 0; i < e.args.size(); ++i) {
      bool child_store = store && i == 0 && (e.kind == Expr::Kind::Member || e.kind == Expr::Kind::Swizzle) && !e.arrow;
      visit(*e.args[i], child_store);
    }
    if (e.mask) visit(*e.mask, false);
  }

  const Kernel& k_;
  std::vector<BufferAccess> out_;
  std::map<int, std::set<int>> aliases_;
};

}  // namespace

std::vector<BufferAccess> buffer_accesses(const Kernel& k) {
  if (!k.body) return std::vector<BufferAccess>(k.params.size());
  return Access(k).run();
}

}  // namespace mslport::ir::analysis
