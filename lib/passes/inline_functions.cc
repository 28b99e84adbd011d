#include "passes/inline_functions.h"

#include <optional>
#include <set>

namespace mslport::passes {
using namespace ir;

namespace {

// The address space of the object an lvalue names, where the lvalue shows
// it: a kernel's local is a thread object, a threadgroup allocation is
// threadgroup memory, and an element or member is where its base is.
std::optional<AddressSpace> object_space(const Expr& a) {
  switch (a.kind) {
    case Expr::Kind::VarRef: return AddressSpace::Private;
    case Expr::Kind::TgAllocRef: return AddressSpace::Threadgroup;
    case Expr::Kind::Index:
      if (a.args[0]->type.is_pointer()) return a.args[0]->type.space;
      return object_space(*a.args[0]);
    case Expr::Kind::Member:
      if (a.arrow) return a.args[0]->type.space;
      return object_space(*a.args[0]);
    case Expr::Kind::Unary:
      if (a.unary_op == UnaryOp::Deref) return a.args[0]->type.space;
      return std::nullopt;
    default: return std::nullopt;
  }
}

const Type kBool = Type::scalar_of(ScalarKind::Bool);

bool contains_call(const Expr* e) {
  if (!e) return false;
  bool found = false;
  walk_exprs(*e, [&](const Expr& x) {
    if (x.kind == Expr::Kind::UserCall) found = true;
    return !found;
  });
  return found;
}

bool stmt_contains_call(const Stmt& s) {
  bool found = false;
  walk_stmt_exprs(s, [&](const Expr& x) {
    if (x.kind == Expr::Kind::UserCall) found = true;
    return !found;
  });
  return found;
}

StmtPtr make_stmt(Stmt::Kind kind, SourceLoc loc) {
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  s->loc = std::move(loc);
  return s;
}

// A `continue` that belongs to the loop whose body is `s` (nested loops own
// theirs).
bool has_own_continue(const Stmt& s) {
  bool found = false;
  walk_stmts(s, [&](const Stmt& x) {
    if (found) return false;
    if (x.kind == Stmt::Kind::Continue) found = true;
    bool loop = x.kind == Stmt::Kind::For || x.kind == Stmt::Kind::While || x.kind == Stmt::Kind::DoWhile;
    return !loop || &x == &s;
  });
  return found;
}

bool contains_return(const Stmt& s) {
  bool found = false;
  walk_stmts(s, [&](const Stmt& x) {
    if (x.kind == Stmt::Kind::Return) found = true;
    return !found;
  });
  return found;
}

// Every path through `s` ends in a return.
bool always_returns(const Stmt& s) {
  switch (s.kind) {
    case Stmt::Kind::Return: return true;
    case Stmt::Kind::Block:
      for (auto& c : s.stmts)
        if (always_returns(*c)) return true;
      return false;
    case Stmt::Kind::If: return s.else_body && always_returns(*s.body) && always_returns(*s.else_body);
    default: return false;
  }
}

StmtPtr as_block(StmtPtr s) {
  if (!s || s->kind == Stmt::Kind::Block) return s;
  SourceLoc loc = s->loc;
  std::vector<StmtPtr> v;
  v.push_back(std::move(s));
  return make_block(std::move(v), loc);
}

// Structures a function body so that returns end their paths where that is
// possible without a flag: code after an always-returning statement is
// dropped, and the statements after `if (c) { ...; return x; }` move into
// its else branch.
void move_returns_to_tails(Stmt& block) {
  auto& v = block.stmts;
  for (size_t i = 0; i < v.size(); ++i) {
    Stmt& s = *v[i];
    if (s.kind == Stmt::Kind::Block) move_returns_to_tails(s);
    if (s.kind == Stmt::Kind::If) {
      s.body = as_block(std::move(s.body));
      if (s.else_body) s.else_body = as_block(std::move(s.else_body));
      bool then_returns = always_returns(*s.body);
      bool else_returns = s.else_body && always_returns(*s.else_body);
      if (i + 1 < v.size() && then_returns != else_returns) {
        StmtPtr& rest_into = then_returns ? s.else_body : s.body;
        if (!rest_into) rest_into = make_block({}, s.loc);
        for (size_t j = i + 1; j < v.size(); ++j) rest_into->stmts.push_back(std::move(v[j]));
        v.resize(i + 1);
      }
      move_returns_to_tails(*s.body);
      if (s.else_body) move_returns_to_tails(*s.else_body);
    }
    if (always_returns(*v[i]) && i + 1 < v.size()) v.resize(i + 1);  // the rest is unreachable
  }
}

// True when every return of `s` is the last statement on its path (so it
// can become a plain assignment of the result).
bool returns_only_in_tails(const Stmt& s, bool is_tail) {
  switch (s.kind) {
    case Stmt::Kind::Return: return is_tail;
    case Stmt::Kind::Block:
      for (size_t i = 0; i < s.stmts.size(); ++i)
        if (!returns_only_in_tails(*s.stmts[i], is_tail && i + 1 == s.stmts.size())) return false;
      return true;
    case Stmt::Kind::If:
      return returns_only_in_tails(*s.body, is_tail) && (!s.else_body || returns_only_in_tails(*s.else_body, is_tail));
    default: return !contains_return(s);
  }
}

// The value a `return` hands back: an assignment of the result, or the
// returned expression alone when it has effects and nobody reads the result.
void value_of_return(Kernel& k, Stmt& ret, int result, std::vector<StmtPtr>& out) {
  if (!ret.expr) return;
  if (result >= 0) {
    out.push_back(make_expr_stmt(make_assign(make_var_ref(k, result, ret.loc), std::move(ret.expr), ret.loc)));
    return;
  }
  bool effects = false;
  walk_exprs(*ret.expr, [&](const Expr& x) {
    if (writes_operand(x) || x.kind == Expr::Kind::Collective || x.kind == Expr::Kind::UserCall ||
        x.kind == Expr::Kind::SimdMatrixOp)
      effects = true;
    return !effects;
  });
  if (effects) out.push_back(make_expr_stmt(std::move(ret.expr)));
}

// Returns in tail position: `return e;` -> `result = e;`.
void returns_to_assignments(Kernel& k, Stmt& s, int result) {
  switch (s.kind) {
    case Stmt::Kind::Block: {
      std::vector<StmtPtr> out;
      for (auto& c : s.stmts) {
        if (c->kind == Stmt::Kind::Return) {
          value_of_return(k, *c, result, out);
          continue;
        }
        returns_to_assignments(k, *c, result);
        out.push_back(std::move(c));
      }
      s.stmts = std::move(out);
      return;
    }
    case Stmt::Kind::If:
      returns_to_assignments(k, *s.body, result);
      if (s.else_body) returns_to_assignments(k, *s.else_body, result);
      return;
    default: return;
  }
}

// Returns anywhere else: a flag, set by the return, skips the rest of the
// body and breaks out of the loops around the return. `tail`: the end of the
// block is the end of the function (a return there needs no flag).
struct ReturnFlag {
  Kernel& k;
  int result;
  int flag;

  ExprPtr flag_ref(SourceLoc loc) { return make_var_ref(k, flag, loc); }

  // Returns true when `s` may return.
  bool rewrite_stmt(StmtPtr& s, bool in_loop, bool tail) {
    switch (s->kind) {
      case Stmt::Kind::Block: return rewrite_block(*s, in_loop, tail);
      case Stmt::Kind::If: {
        s->body = as_block(std::move(s->body));
        bool a = rewrite_block(*s->body, in_loop, tail);
        bool b = false;
        if (s->else_body) {
          s->else_body = as_block(std::move(s->else_body));
          b = rewrite_block(*s->else_body, in_loop, tail);
        }
        return a || b;
      }
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: s->body = as_block(std::move(s->body)); return rewrite_block(*s->body, true, false);
      default: return false;
    }
  }

  bool rewrite_block(Stmt& b, bool in_loop, bool tail) {
    std::vector<StmtPtr> in = std::move(b.stmts), out;
    bool any = false;
    for (size_t i = 0; i < in.size(); ++i) {
      bool last = i + 1 == in.size();
      SourceLoc loc = in[i]->loc;
      if (in[i]->kind == Stmt::Kind::Return) {
        value_of_return(k, *in[i], result, out);
        if (tail && !in_loop) {  // the function ends here anyway
          b.stmts = std::move(out);
          return any;
        }
        out.push_back(make_expr_stmt(make_assign(flag_ref(loc), make_bool(true, loc), loc)));
        if (in_loop) out.push_back(make_stmt(Stmt::Kind::Break, loc));
        b.stmts = std::move(out);
        return true;  // what follows a return is unreachable
      }
      bool may_return = contains_return(*in[i]) && rewrite_stmt(in[i], in_loop, tail && last);
      out.push_back(std::move(in[i]));
      if (!may_return) continue;
      any = true;
      if (last) break;
      if (in_loop) {
        std::vector<StmtPtr> brk;
        brk.push_back(make_stmt(Stmt::Kind::Break, loc));
        out.push_back(make_if(flag_ref(loc), make_block(std::move(brk), loc), nullptr, loc));
        continue;
      }
      auto rest = make_block({}, in[i + 1]->loc);
      for (size_t j = i + 1; j < in.size(); ++j) rest->stmts.push_back(std::move(in[j]));
      rewrite_block(*rest, in_loop, tail);
      out.push_back(make_if(make_unary(UnaryOp::Not, kBool, flag_ref(loc), loc), std::move(rest), nullptr, loc));
      break;
    }
    b.stmts = std::move(out);
    return any;
  }
};

// Variables an expression reads or writes by name.
std::set<int> vars_in(const Expr& e) {
  std::set<int> v;
  walk_exprs(e, [&](const Expr& x) {
    if (x.kind == Expr::Kind::VarRef) v.insert(x.index);
    return true;
  });
  return v;
}

bool is_pure(const Expr& e) {
  bool pure = true;
  walk_exprs(e, [&](const Expr& x) {
    if (writes_operand(x) || x.kind == Expr::Kind::Collective || x.kind == Expr::Kind::UserCall ||
        x.kind == Expr::Kind::SimdMatrixOp)
      pure = false;
    return pure;
  });
  return pure;
}

bool is_leaf_value(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::IntLit:
    case Expr::Kind::FloatLit:
    case Expr::Kind::BoolLit:
    case Expr::Kind::ParamRef:
    case Expr::Kind::TgAllocRef:
    case Expr::Kind::GlobalConstRef:
    case Expr::Kind::VarRef: return true;
    default: return false;
  }
}

void substitute(ExprPtr& e, const std::vector<ExprPtr>& by_param) {
  if (e->kind == Expr::Kind::ParamRef) {
    SourceLoc loc = e->loc;
    e = by_param[e->index]->clone();
    if (loc.valid() && e->kind != Expr::Kind::Unary) e->loc = loc;
    return;
  }
  for (auto& a : e->args)
    if (a) substitute(a, by_param);
  if (e->mask) substitute(e->mask, by_param);
}

struct Inliner {
  const Module& m;
  Kernel& k;
  DiagEngine& diags;
  bool ok = true;
  int depth = 0;

  // Variables of the kernel whose address is taken anywhere (`&x`, `&a[i]`),
  // found before inlining moves statements around.
  std::set<int> address_taken_vars;
  const std::set<int>& address_taken() const { return address_taken_vars; }

  void block(Stmt& b) {
    std::vector<StmtPtr> in = std::move(b.stmts), out;
    for (auto& s : in) stmt(std::move(s), out);
    b.stmts = std::move(out);
  }

  void body_of(StmtPtr& s) {
    if (!s) return;
    s = as_block(std::move(s));
    block(*s);
  }

  void stmt(StmtPtr s, std::vector<StmtPtr>& out) {
    if (!ok) {
      out.push_back(std::move(s));
      return;
    }
    switch (s->kind) {
      case Stmt::Kind::Block: block(*s); break;
      case Stmt::Kind::Decl:
        if (s->expr) s->expr = extract(std::move(s->expr), out);
        break;
      case Stmt::Kind::ExprStmt:
        if (s->expr->kind == Expr::Kind::UserCall) {
          call(std::move(s->expr), out, /*want_result=*/false);
          return;
        }
        s->expr = extract(std::move(s->expr), out);
        break;
      case Stmt::Kind::Return:
        if (s->expr) s->expr = extract(std::move(s->expr), out);
        break;
      case Stmt::Kind::If:
        s->expr = extract(std::move(s->expr), out);
        body_of(s->body);
        if (s->else_body) body_of(s->else_body);
        break;
      case Stmt::Kind::While:
        if (contains_call(s->expr.get())) {
          // while (c) B  =>  while (true) { if (!c) break; B }
          move_condition_into_body(*s);
          s->expr = make_bool(true, s->loc);
        }
        body_of(s->body);
        break;
      case Stmt::Kind::For:
        if (s->init && stmt_contains_call(*s->init)) {
          stmt(std::move(s->init), out);  // runs once, before the loop
          s->init = nullptr;
        }
        if (contains_call(s->expr.get())) {
          move_condition_into_body(*s);
          s->expr = nullptr;
        }
        if (contains_call(s->step.get())) {
          if (has_own_continue(*s->body)) {
            fail(s->step->loc,
                 "a helper function call in the increment of a loop that uses 'continue' is not "
                 "supported yet");
            break;
          }
          s->body = as_block(std::move(s->body));
          s->body->stmts.push_back(make_expr_stmt(std::move(s->step)));
          s->step = nullptr;
        }
        body_of(s->body);
        break;
      case Stmt::Kind::DoWhile:
        if (contains_call(s->expr.get())) {
          if (has_own_continue(*s->body)) {
            fail(s->expr->loc,
                 "a helper function call in the condition of a do-while loop that uses 'continue' is "
                 "not supported yet");
            break;
          }
          // do B while (c)  =>  bool again; do { B; again = c; } while (again)
          SourceLoc loc = s->expr->loc;
          int again = add_var(k, "again", kBool, loc);
          out.push_back(make_decl(again, nullptr, loc));
          s->body = as_block(std::move(s->body));
          s->body->stmts.push_back(make_expr_stmt(make_assign(make_var_ref(k, again, loc), std::move(s->expr), loc)));
          s->expr = make_var_ref(k, again, loc);
        }
        body_of(s->body);
        break;
      default: break;
    }
    out.push_back(std::move(s));
  }

  void move_condition_into_body(Stmt& loop) {
    SourceLoc loc = loop.expr->loc;
    std::vector<StmtPtr> brk;
    brk.push_back(make_stmt(Stmt::Kind::Break, loc));
    auto exit = make_if(make_unary(UnaryOp::Not, kBool, std::move(loop.expr), loc), make_block(std::move(brk), loc),
                        nullptr, loc);
    loop.body = as_block(std::move(loop.body));
    loop.body->stmts.insert(loop.body->stmts.begin(), std::move(exit));
  }

  void fail(const SourceLoc& loc, const std::string& msg) {
    diags.error(loc, msg);
    ok = false;
  }

  // Moves the calls out of `e` into statements appended to `pre`, in
  // evaluation order, and returns what is left of `e`.
  ExprPtr extract(ExprPtr e, std::vector<StmtPtr>& pre) {
    if (!ok || !contains_call(e.get())) return e;
    SourceLoc loc = e->loc;
    if (e->kind == Expr::Kind::UserCall) {
      for (auto& a : e->args) a = extract(std::move(a), pre);
      return call(std::move(e), pre, /*want_result=*/true);
    }
    if (e->kind == Expr::Kind::Binary && (e->binary_op == BinaryOp::LogAnd || e->binary_op == BinaryOp::LogOr) &&
        contains_call(e->args[1].get())) {
      // a && f()  =>  bool t = a; if (t) { t = f(); }
      int t = add_var(k, "cond", kBool, loc);
      pre.push_back(make_decl(t, extract(std::move(e->args[0]), pre), loc));
      std::vector<StmtPtr> then;
      ExprPtr rhs = extract(std::move(e->args[1]), then);
      then.push_back(make_expr_stmt(make_assign(make_var_ref(k, t, loc), std::move(rhs), loc)));
      ExprPtr test = make_var_ref(k, t, loc);
      if (e->binary_op == BinaryOp::LogOr) test = make_unary(UnaryOp::Not, kBool, std::move(test), loc);
      pre.push_back(make_if(std::move(test), make_block(std::move(then), loc), nullptr, loc));
      return make_var_ref(k, t, loc);
    }
    if (e->kind == Expr::Kind::Conditional && (contains_call(e->args[1].get()) || contains_call(e->args[2].get()))) {
      // c ? f() : g()  =>  T t; if (c) { t = f(); } else { t = g(); }
      int t = add_var(k, "choice", e->type, loc);
      pre.push_back(make_decl(t, nullptr, loc));
      ExprPtr cond = extract(std::move(e->args[0]), pre);
      StmtPtr branch[2];
      for (int i = 0; i < 2; ++i) {
        std::vector<StmtPtr> v;
        ExprPtr x = extract(std::move(e->args[1 + i]), v);
        v.push_back(make_expr_stmt(make_assign(make_var_ref(k, t, loc), std::move(x), loc)));
        branch[i] = make_block(std::move(v), loc);
      }
      pre.push_back(make_if(std::move(cond), std::move(branch[0]), std::move(branch[1]), loc));
      return make_var_ref(k, t, loc);
    }
    if (e->kind == Expr::Kind::Binary && e->binary_op == BinaryOp::Comma) {
      // The left operand is sequenced before the right one.
      ExprPtr left = extract(std::move(e->args[0]), pre);
      pre.push_back(make_expr_stmt(std::move(left)));
      return extract(std::move(e->args[1]), pre);
    }
    for (auto& a : e->args)
      if (a) a = extract(std::move(a), pre);
    return e;
  }

  // A value that picks the object an array argument names (an index, a
  // pointer), made to keep the value it had at the call: kept as written
  // when nothing the call writes can change it, else evaluated once into a
  // constant before the body.
  void bind_value(ExprPtr& v, const std::string& name, const std::set<int>& written_vars,
                  const std::set<int>& written_params, std::vector<StmtPtr>& out) {
    bool keep = is_pure(*v);
    walk_exprs(*v, [&](const Expr& x) {
      if (x.kind == Expr::Kind::VarRef && (written_vars.count(x.index) || address_taken().count(x.index))) keep = false;
      if (x.kind == Expr::Kind::ParamRef && written_params.count(x.index)) keep = false;
      return keep;
    });
    if (keep) return;
    SourceLoc loc = v->loc;
    int var = add_var(k, name + (v->type.is_pointer() ? "_pointer" : "_index"), v->type, loc, true);
    out.push_back(make_decl(var, std::move(v), loc));
    v = make_var_ref(k, var, loc);
  }

  // The argument of a reference-to-array parameter (`thread float (&a)[4]`):
  // the array object itself, which the body's uses of the parameter name,
  // bound once as C++ binds the reference (bind_value). A pointer to the
  // array, as other objects get, is a type the printers cannot spell
  // (`float (*a)[4]`). False for an expression that is no such object.
  bool bind_array(ExprPtr& a, const std::string& name, const std::set<int>& written_vars,
                  const std::set<int>& written_params, std::vector<StmtPtr>& out) {
    return for_each_object_selector(a, [&](ExprPtr& v) { bind_value(v, name, written_vars, written_params, out); });
  }

  // Appends the inlined body of `c` (whose arguments are already free of
  // calls) to `out`; returns a reference to the result variable (or null).
  ExprPtr call(ExprPtr c, std::vector<StmtPtr>& out, bool want_result) {
    for (auto& a : c->args) a = extract(std::move(a), out);
    if (!ok) return nullptr;
    const Function& f = m.functions[c->index];
    SourceLoc loc = c->loc;
    if (depth >= kMaxInlineDepth) {
      fail(loc, "helper function calls nested more than " + std::to_string(kMaxInlineDepth) + " deep (from '" +
                    f.display_name + "'): recursion is not supported");
      return nullptr;
    }
    const Kernel& fd = f.def;
    auto inlined = make_block({}, loc);
    inlined->comment = "inlined: " + f.display_name;

    // Arguments: the expression each parameter stands for in the body.
    std::set<int> written = params_written(fd);
    std::set<int> vars_written_by_call;  // caller variables a reference argument exposes
    std::set<int> params_written_by_call;
    for (size_t i = 0; i < fd.params.size(); ++i)
      if (fd.params[i].kind == Param::Kind::Reference || c->args[i]->type.is_pointer()) {
        const Expr* root = c->args[i].get();
        while (root->kind == Expr::Kind::Index || root->kind == Expr::Kind::Member ||
               root->kind == Expr::Kind::Swizzle ||
               (root->kind == Expr::Kind::Unary && root->unary_op == UnaryOp::AddrOf))
          root = root->args[0].get();
        if (root->kind == Expr::Kind::VarRef) vars_written_by_call.insert(root->index);
        if (root->kind == Expr::Kind::ParamRef) params_written_by_call.insert(root->index);
      }
    std::vector<ExprPtr> by_param(fd.params.size());
    for (size_t i = 0; i < fd.params.size(); ++i) {
      const Param& p = fd.params[i];
      ExprPtr& a = c->args[i];
      bool lvalue = a->kind == Expr::Kind::VarRef || a->kind == Expr::Kind::Index || a->kind == Expr::Kind::Member ||
                    a->kind == Expr::Kind::Swizzle || a->kind == Expr::Kind::TgAllocRef ||
                    (a->kind == Expr::Kind::Unary && a->unary_op == UnaryOp::Deref);
      if (p.kind == Param::Kind::Reference && a->type.is_array() && a->kind != Expr::Kind::InitList) {
        if (!bind_array(a, p.name, vars_written_by_call, params_written_by_call, inlined->stmts)) {
          fail(a->loc, "the array given to reference parameter '" + p.name + "' of '" + f.display_name +
                           "' is not supported yet: only an array variable, an element of an array of arrays or "
                           "a member");
          return nullptr;
        }
        by_param[i] = std::move(a);
        continue;
      }
      if (p.kind == Param::Kind::Reference && lvalue && a->kind != Expr::Kind::Swizzle) {
        std::set<int> reads = vars_in(*a);
        bool stable = is_pure(*a);
        if (a->kind != Expr::Kind::VarRef)
          for (int v : reads)
            if (vars_written_by_call.count(v)) stable = false;
        if (stable) {
          by_param[i] = std::move(a);
          continue;
        }
        // Bind the object once: T* p = &a; uses become *p. The pointer is
        // in the object's space (a member function called on a threadgroup
        // element takes `self` there), which the parameter's may not say.
        Type pt = Type::pointer_to(a->type, object_space(*a).value_or(p.space), p.is_const);
        int ptr = add_var(k, p.name + "_ref", pt, p.loc);
        inlined->stmts.push_back(make_decl(ptr, make_unary(UnaryOp::AddrOf, pt, std::move(a), loc), loc));
        by_param[i] = make_unary(UnaryOp::Deref, p.type, make_var_ref(k, ptr, loc), loc);
        continue;
      }
      if (p.kind == Param::Kind::Reference && lvalue) {  // a swizzle: written back lane by lane is not needed
        by_param[i] = std::move(a);
        continue;
      }
      // By value (or a const reference bound to a temporary).
      // A variable whose address is taken may change through a pointer while
      // the body runs: its value is copied, as C++ copies the argument.
      bool leaf = is_leaf_value(*a) && !(a->kind == Expr::Kind::VarRef &&
                                         (vars_written_by_call.count(a->index) || address_taken().count(a->index)));
      if (leaf && !written.count((int)i)) {
        by_param[i] = std::move(a);
        continue;
      }
      int v = add_var(k, p.name, p.type, p.loc);
      inlined->stmts.push_back(make_decl(v, std::move(a), loc));
      by_param[i] = make_var_ref(k, v, loc);
    }

    // The body, with the function's variables renamed into the kernel.
    std::map<int, int> remap;
    for (size_t v = 0; v < fd.vars.size(); ++v) {
      const Var& var = fd.vars[v];
      remap[(int)v] = add_var(k, var.name, var.type, var.loc, var.is_const);
    }
    StmtPtr body = fd.body->clone();
    walk_stmts_mut(*body, [&](Stmt& s) {
      if (s.kind == Stmt::Kind::Decl) s.var = remap.at(s.var);
      return true;
    });
    auto rename = [&](ExprPtr& e) {
      if (!e) return;
      walk_exprs_mut(*e, [&](Expr& x) {
        if (x.kind == Expr::Kind::VarRef) x.index = remap.at(x.index);
        return true;
      });
      substitute(e, by_param);
    };
    walk_stmts_mut(*body, [&](Stmt& s) {
      rename(s.expr);
      rename(s.step);
      return true;
    });

    // Returns.
    int result = -1;
    if (f.return_type.kind != Type::Kind::Void && want_result) {
      result = add_var(k, fd.name + "_result", f.return_type, loc);
      out.push_back(make_decl(result, nullptr, loc));
    }
    move_returns_to_tails(*body);
    if (returns_only_in_tails(*body, true)) {
      returns_to_assignments(k, *body, result);
    } else {
      int flag = add_var(k, fd.name + "_returned", kBool, loc);
      inlined->stmts.push_back(make_decl(flag, make_bool(false, loc), loc));
      ReturnFlag{k, result, flag}.rewrite_block(*body, /*in_loop=*/false, /*tail=*/true);
    }
    for (auto& s : body->stmts) inlined->stmts.push_back(std::move(s));

    // Calls inside the helper.
    ++depth;
    block(*inlined);
    --depth;
    out.push_back(std::move(inlined));
    return result >= 0 ? make_var_ref(k, result, loc) : nullptr;
  }
};

}  // namespace

bool inline_functions(const Module& m, Kernel& k, DiagEngine& diags) {
  if (!k.body || !stmt_contains_call(*k.body)) return true;
  Inliner in{m, k, diags};
  walk_stmt_exprs(*k.body, [&](const Expr& e) {
    int v = address_taken_variable(e);
    if (v >= 0) in.address_taken_vars.insert(v);
    return true;
  });
  in.block(*k.body);
  return in.ok;
}

bool inline_functions(Module& m, DiagEngine& diags) {
  bool ok = true;
  for (auto& k : m.kernels) ok = inline_functions(m, k, diags) && ok;
  return ok;
}

}  // namespace mslport::passes
