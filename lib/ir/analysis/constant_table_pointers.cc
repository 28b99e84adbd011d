#include "ir/analysis/constant_table_pointers.h"

namespace mslport::ir::analysis {

namespace {

bool pointer_valued(const Expr& x) { return x.type.is_pointer() || x.type.is_array(); }

}  // namespace

const Expr* lvalue_root(const Expr& x) {
  const Expr* e = &x;
  while (e->kind == Expr::Kind::Index || e->kind == Expr::Kind::Member || e->kind == Expr::Kind::Swizzle ||
         (e->kind == Expr::Kind::Unary && e->unary_op == UnaryOp::Deref))
    e = e->args[0].get();
  return e;
}

bool ConstantTablePointers::lvalue_in_table(const Expr& x) const {
  const Expr* r = lvalue_root(x);
  return r->kind == Expr::Kind::GlobalConstRef ||
         (r->kind == Expr::Kind::VarRef && r->type.is_pointer() && into_table[r->index]);
}

bool ConstantTablePointers::points_into_table(const Expr& x) const {
  switch (x.kind) {
    case Expr::Kind::GlobalConstRef: return x.type.is_array();
    case Expr::Kind::Index:
    case Expr::Kind::Member: return x.type.is_array() && lvalue_in_table(x);  // a row, decaying
    case Expr::Kind::VarRef: return x.type.is_pointer() && into_table[x.index];
    case Expr::Kind::Cast: return x.type.is_pointer() && points_into_table(*x.args[0]);
    case Expr::Kind::Binary:  // p + i, i + p, p - i
      if (!x.type.is_pointer()) return false;
      for (const auto& a : x.args)
        if (pointer_valued(*a) && points_into_table(*a)) return true;
      return false;
    case Expr::Kind::Conditional:
      return x.type.is_pointer() && (points_into_table(*x.args[1]) || points_into_table(*x.args[2]));
    case Expr::Kind::Assign: return x.type.is_pointer() && points_into_table(*x.args[0]);
    case Expr::Kind::Unary:
      if (x.unary_op == UnaryOp::AddrOf) return lvalue_in_table(*x.args[0]);
      return x.type.is_pointer() && x.unary_op != UnaryOp::Deref && points_into_table(*x.args[0]);
    default: return false;
  }
}

ConstantTablePointers analyze_constant_table_pointers(const Kernel& k) {
  ConstantTablePointers t;
  t.into_table.assign(k.vars.size(), 0);
  t.elsewhere.assign(k.vars.size(), 0);
  if (!k.body) return t;
  // What each pointer variable is set to. A compound `p += n` keeps p's
  // kind: only plain assignments and declarations count. Table pointers are
  // learnt to a fixed point first (`q = p + 1` before `p = kGrid[i]` in the
  // walk), and only then is a value that is none "elsewhere": deciding that
  // earlier would take q for both.
  auto for_each_setting = [&](auto&& f) {
    walk_stmts(*k.body, [&](const Stmt& s) {
      if (s.kind == Stmt::Kind::Decl && s.expr) f(s.var, *s.expr);
      return true;
    });
    walk_stmt_exprs(*k.body, [&](const Expr& x) {
      if (x.kind == Expr::Kind::Assign && !x.assign_op && x.args[0]->kind == Expr::Kind::VarRef)
        f(x.args[0]->index, *x.args[1]);
      return true;
    });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for_each_setting([&](int var, const Expr& value) {
      if (k.vars[var].type.is_pointer() && !t.into_table[var] && t.points_into_table(value))
        t.into_table[var] = changed = true;
    });
  }
  for_each_setting([&](int var, const Expr& value) {
    if (k.vars[var].type.is_pointer() && !t.points_into_table(value)) t.elsewhere[var] = 1;
  });
  return t;
}

std::vector<int> conflicting_table_pointers(const Kernel& k, const ConstantTablePointers& t) {
  std::vector<int> out;
  for (size_t v = 0; v < k.vars.size(); ++v)
    if (t.into_table[v] && t.elsewhere[v]) out.push_back(static_cast<int>(v));
  return out;
}

std::vector<const Expr*> table_pointer_misuses(const Kernel& k, const ConstantTablePointers& t) {
  std::vector<const Expr*> out;
  if (!k.body) return out;
  // Where a table's pointer may go: indexed, dereferenced, moved by
  // arithmetic or a cast, chosen by ?: between two of them, stored in a
  // variable of its kind, compared with another of its kind.
  walk_stmt_exprs(*k.body, [&](const Expr& x) {
    for (size_t i = 0; i < x.args.size(); ++i) {
      const Expr* a = x.args[i].get();
      if (!a || !pointer_valued(*a) || !t.points_into_table(*a)) continue;
      bool fits = false;
      switch (x.kind) {
        case Expr::Kind::Index: fits = i == 0; break;
        case Expr::Kind::Member: fits = i == 0; break;
        case Expr::Kind::Cast: fits = x.type.is_pointer(); break;
        case Expr::Kind::Unary: fits = x.unary_op != UnaryOp::AddrOf; break;
        case Expr::Kind::Conditional:
          fits = i > 0 && t.points_into_table(*x.args[1]) && t.points_into_table(*x.args[2]);
          break;
        case Expr::Kind::Assign: fits = x.args[0]->kind == Expr::Kind::VarRef && t.into_table[x.args[0]->index]; break;
        case Expr::Kind::Binary: {
          const Expr& other = *x.args[1 - i];
          fits = x.type.is_pointer() ? !pointer_valued(other) : pointer_valued(other) && t.points_into_table(other);
          break;
        }
        default: break;
      }
      if (!fits) out.push_back(a);
    }
    return true;
  });
  return out;
}

}  // namespace mslport::ir::analysis
