#include "ir/analysis/uniformity.h"

#include "ir/intrinsics.h"

namespace mslport::ir::analysis {

const char* uniformity_name(Uniformity u) {
  switch (u) {
    case Uniformity::Threadgroup: return "threadgroup-uniform";
    case Uniformity::Simdgroup: return "simdgroup-uniform";
    case Uniformity::Unknown: return "unknown";
    case Uniformity::Thread: return "varying";
  }
  return "?";
}

Uniformity builtin_uniformity(BuiltinId b) {
  switch (b) {
    case BuiltinId::ThreadgroupPositionInGrid:
    case BuiltinId::ThreadsPerThreadgroup:
    case BuiltinId::ThreadsPerGrid:
    case BuiltinId::ThreadgroupsPerGrid:
    case BuiltinId::ThreadsPerSimdgroup:
    case BuiltinId::SimdgroupsPerThreadgroup:
    case BuiltinId::DispatchThreadsPerThreadgroup:
    case BuiltinId::GridOrigin:
    case BuiltinId::GridSize: return Uniformity::Threadgroup;
    case BuiltinId::SimdgroupIndexInThreadgroup: return Uniformity::Simdgroup;
    default: return Uniformity::Thread;
  }
}

bool contains_collective(const Expr& e) {
  bool found = false;
  walk_exprs(e, [&](const Expr& x) {
    if (x.kind == Expr::Kind::Collective) found = true;
    return !found;
  });
  return found;
}

bool contains_sync(const Stmt& s) {
  bool found = false;
  walk_stmts(s, [&](const Stmt& st) {
    if (found) return false;
    if (st.kind == Stmt::Kind::Barrier) found = true;
    if (st.expr && contains_collective(*st.expr)) found = true;
    if (st.step && contains_collective(*st.step)) found = true;
    return !found;
  });
  return found;
}

bool contains_return(const Stmt& s) {
  bool found = false;
  walk_stmts(s, [&](const Stmt& st) {
    if (st.kind == Stmt::Kind::Return) found = true;
    return !found;
  });
  return found;
}

// Whether reading through this pointer/array expression reads memory whose
// contents other threads may write (device / threadgroup), as opposed to
// constant memory or a thread's own private array.
static Uniformity memory_level(const Kernel& k, const Expr& base) {
  const Type& t = base.type;
  if (t.kind == Type::Kind::Pointer) {
    return t.space == AddressSpace::Constant ? Uniformity::Threadgroup : Uniformity::Unknown;
  }
  if (base.kind == Expr::Kind::TgAllocRef) return Uniformity::Unknown;
  return Uniformity::Threadgroup;  // private array: value level comes from the base itself
}

Uniformity UniformityInfo::expr_after_rewrite(const Kernel& k, const Expr& e, Uniformity new_vars) const {
  bool fresh = false;
  walk_exprs(e, [&](const Expr& x) {
    fresh = fresh || (x.kind == Expr::Kind::VarRef && x.index >= static_cast<int>(vars.size()));
    return !fresh;
  });
  return fresh ? new_vars : expr(k, e);
}

Uniformity UniformityInfo::expr(const Kernel& k, const Expr& e) const {
  Uniformity u = Uniformity::Threadgroup;
  switch (e.kind) {
    case Expr::Kind::VarRef: return vars.at(e.index);
    case Expr::Kind::ParamRef: {
      const Param& p = k.params.at(e.index);
      return p.kind == Param::Kind::Builtin ? builtin_uniformity(p.builtin) : Uniformity::Threadgroup;
    }
    case Expr::Kind::Index: {
      u = join(expr(k, *e.args[0]), expr(k, *e.args[1]));
      Uniformity mem = memory_level(k, *e.args[0]);
      // A load from shared memory at a varying address may still return
      // the same value everywhere: not provably varying.
      if (mem != Uniformity::Threadgroup) return u == Uniformity::Threadgroup ? mem : Uniformity::Unknown;
      if (e.args[0]->type.is_pointer()) return u == Uniformity::Threadgroup ? u : Uniformity::Unknown;
      return u;
    }
    case Expr::Kind::Member:
      u = expr(k, *e.args[0]);
      if (e.arrow) u = join(u, memory_level(k, *e.args[0]));
      return u;
    case Expr::Kind::Unary:
      u = expr(k, *e.args[0]);
      if (e.unary_op == UnaryOp::Deref) u = join(u, memory_level(k, *e.args[0]));
      return u;
    case Expr::Kind::TgAllocRef:
      // A threadgroup scalar is memory other threads write; an array's
      // value is its (uniform) address.
      return k.tg_allocs.at(e.index).type.is_array() ? Uniformity::Threadgroup : Uniformity::Unknown;
    case Expr::Kind::Collective:
    case Expr::Kind::Call: {
      // The table says how a Metal function's result varies.
      const Intrinsic id = e.kind == Expr::Kind::Collective ? collective_intrinsic(e.collective_op) : e.intrinsic;
      if (id == Intrinsic::None) break;
      switch (intrinsic_info(id).uniformity) {
        case IntrinsicUniformity::Thread: return Uniformity::Thread;
        case IntrinsicUniformity::Simdgroup: return Uniformity::Simdgroup;
        case IntrinsicUniformity::Threadgroup: return Uniformity::Threadgroup;
        case IntrinsicUniformity::Args: break;
      }
      break;
    }
    default: break;
  }
  for (auto& a : e.args)
    if (a) u = join(u, expr(k, *a));
  return u;
}

namespace {

// The private variables a pointer may reach: those whose address is taken
// (`&v`, `&v.frags[0]`: ir::address_taken_variable) and arrays used as a value (a pointer to their
// first element: `thread float* p = arr;`, an inlined helper's array
// parameter). A store through a thread pointer may write any of them.
std::vector<int> address_taken_variables(const Kernel& k) {
  std::vector<bool> taken(k.vars.size(), false);
  auto array_value = [&](const Expr& x) {
    if (x.kind == Expr::Kind::VarRef && x.type.is_array() && x.index < (int)taken.size()) taken[x.index] = true;
  };
  if (k.body) {
    walk_stmts(*k.body, [&](const Stmt& st) {
      for (const Expr* top : {st.expr.get(), st.step.get()})
        if (top && !(st.kind == Stmt::Kind::Decl && k.vars[st.var].type.is_array())) array_value(*top);
      return true;
    });
    walk_stmt_exprs(*k.body, [&](const Expr& x) {
      if (int v = address_taken_variable(x); v >= 0 && v < (int)taken.size()) taken[v] = true;
      for (size_t i = 0; i < x.args.size(); ++i) {
        if (!x.args[i]) continue;
        const bool indexed = (x.kind == Expr::Kind::Index || x.kind == Expr::Kind::Assign) && i == 0;
        if (!indexed) array_value(*x.args[i]);
      }
      return true;
    });
  }
  std::vector<int> out;
  for (size_t v = 0; v < taken.size(); ++v)
    if (taken[v]) out.push_back((int)v);
  return out;
}

struct Analyzer {
  const Kernel& k;
  UniformityInfo info;
  bool changed = false;
  std::vector<int> address_taken;  // address_taken_variables(k)

  void raise_var(int v, Uniformity u) {
    if (u > info.vars[v]) {
      info.vars[v] = u;
      changed = true;
    }
  }

  // Records the variables an expression assigns, at the given control level.
  // An operand that is evaluated only on a condition (the right of && and
  // ||, the arms of ?:) runs at the condition's level too: in `tid < 3 &&
  // k++ < 8` only some threads increment k.
  void scan_assignments(const Expr& x, Uniformity ctl) {
    const bool short_circuit =
        x.kind == Expr::Kind::Binary && (x.binary_op == BinaryOp::LogAnd || x.binary_op == BinaryOp::LogOr);
    if (short_circuit || x.kind == Expr::Kind::Conditional) {
      scan_assignments(*x.args[0], ctl);
      const Uniformity inner = join(ctl, info.expr(k, *x.args[0]));
      for (size_t i = 1; i < x.args.size(); ++i)
        if (x.args[i]) scan_assignments(*x.args[i], inner);
      return;
    }
    const Expr* target = nullptr;
    Uniformity value = ctl;
    if (x.kind == Expr::Kind::Assign) {
      target = x.args[0].get();
      value = join(value, info.expr(k, *x.args[1]));
    } else if (x.kind == Expr::Kind::Unary && ir::is_increment(x.unary_op)) {
      target = x.args[0].get();
    } else if (x.kind == Expr::Kind::SimdMatrixOp && !x.args.empty() &&
               (x.matrix_op == SimdMatrixOpKind::Load || x.matrix_op == SimdMatrixOpKind::Multiply ||
                x.matrix_op == SimdMatrixOpKind::MultiplyAccumulate)) {
      // The destination tile holds what its SIMD group loaded or computed:
      // one SIMD group's tile may differ from another's.
      target = x.args[0].get();
      for (size_t i = 1; i < x.args.size(); ++i) value = join(value, info.expr(k, *x.args[i]));
    }
    // Element/field stores into a private variable change the variable.
    // A store through a pointer changes memory; through a thread pointer,
    // any private variable the pointer may reach.
    const Expr* through = nullptr;  // the pointer stored through
    while (target && (target->kind == Expr::Kind::Index || target->kind == Expr::Kind::Member ||
                      target->kind == Expr::Kind::Swizzle ||
                      (target->kind == Expr::Kind::Unary && target->unary_op == UnaryOp::Deref))) {
      if (target->kind == Expr::Kind::Index) {
        value = join(value, info.expr(k, *target->args[1]));
        if (target->args[0]->type.kind == Type::Kind::Pointer) {
          through = target->args[0].get();
          break;
        }
      }
      if ((target->kind == Expr::Kind::Member && target->arrow) || target->kind == Expr::Kind::Unary) {
        through = target->args[0].get();
        break;
      }
      target = target->args[0].get();
    }
    if (through) {
      if (through->type.space == AddressSpace::Private) {
        value = join(value, info.expr(k, *through));
        for (int v : address_taken) raise_var(v, value);
      }
    } else if (target && target->kind == Expr::Kind::VarRef) {
      raise_var(target->index, value);
    }
    for (auto& a : x.args)
      if (a) scan_assignments(*a, ctl);
    if (x.mask) scan_assignments(*x.mask, ctl);
  }

  // Returns the worst control level at which a break/continue/return leaves
  // this statement (so loops and following statements can account for it).
  void visit(const Stmt& s, Uniformity ctl, Uniformity* loop_exit, Uniformity* ret_exit) {
    auto& slot = info.control[&s];
    slot = join(slot, ctl);
    switch (s.kind) {
      case Stmt::Kind::Block: {
        Uniformity cur = ctl;
        for (auto& c : s.stmts) {
          Uniformity r = Uniformity::Threadgroup;
          visit(*c, cur, loop_exit, &r);
          *ret_exit = join(*ret_exit, r);
          // After a divergent return, the rest runs for a subset of threads;
          // values stay what they are, but control is no longer uniform for
          // the threads that left. Only exited threads differ, so we keep
          // `cur` (exited threads do not take part in later syncs).
        }
        break;
      }
      case Stmt::Kind::Decl:
        if (s.expr) {
          scan_assignments(*s.expr, ctl);
          raise_var(s.var, join(ctl, info.expr(k, *s.expr)));
        } else {
          raise_var(s.var, ctl);
        }
        break;
      case Stmt::Kind::ExprStmt: scan_assignments(*s.expr, ctl); break;
      case Stmt::Kind::If: {
        scan_assignments(*s.expr, ctl);
        Uniformity inner = join(ctl, info.expr(k, *s.expr));
        // eliminate_returns' `if (alive)` only leaves out threads that have
        // returned: among the threads still running, control stays as it was.
        if (s.expr->kind == Expr::Kind::VarRef && k.vars[s.expr->index].name == kAliveVarName) inner = ctl;
        visit(*s.body, inner, loop_exit, ret_exit);
        if (s.else_body) visit(*s.else_body, inner, loop_exit, ret_exit);
        break;
      }
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile: {
        if (s.init) visit(*s.init, ctl, loop_exit, ret_exit);
        // Iterate: the loop's level depends on its body's assignments.
        Uniformity body_exit = Uniformity::Threadgroup;
        Uniformity cond = s.expr ? info.expr(k, *s.expr) : Uniformity::Threadgroup;
        Uniformity inner = join(ctl, join(cond, body_exit));
        if (s.expr) scan_assignments(*s.expr, inner);
        visit(*s.body, inner, &body_exit, ret_exit);
        if (s.step) scan_assignments(*s.step, join(inner, body_exit));
        // Divergent break/continue make the whole loop divergent.
        if (body_exit > inner) {
          inner = join(inner, body_exit);
          visit(*s.body, inner, &body_exit, ret_exit);
          if (s.step) scan_assignments(*s.step, inner);
        }
        info.loop_level[&s] = join(info.loop_level[&s], inner);
        break;
      }
      case Stmt::Kind::Break:
      case Stmt::Kind::Continue: *loop_exit = join(*loop_exit, ctl); break;
      case Stmt::Kind::Return: *ret_exit = join(*ret_exit, ctl); break;
      case Stmt::Kind::Barrier: break;
    }
  }
};

}  // namespace

UniformityInfo analyze_uniformity(const Kernel& k) {
  Analyzer a{k, {}};
  a.info.vars.assign(k.vars.size(), Uniformity::Threadgroup);
  a.address_taken = address_taken_variables(k);
  // A simdgroup_matrix belongs to its SIMD group: another SIMD group's tile
  // of the same variable may differ, whatever wrote it (a tile operation, or
  // the sanitizer's call that replaces one).
  for (size_t v = 0; v < k.vars.size(); ++v) {
    const Type* t = &k.vars[v].type;
    while (t->is_array() && t->elem) t = t->elem.get();
    if (t->kind == Type::Kind::SimdMatrix) a.info.vars[v] = Uniformity::Simdgroup;
  }
  for (int iter = 0; iter < 32; ++iter) {
    a.changed = false;
    Uniformity loop_exit = Uniformity::Threadgroup, ret_exit = Uniformity::Threadgroup;
    if (k.body) a.visit(*k.body, Uniformity::Threadgroup, &loop_exit, &ret_exit);
    if (!a.changed) break;
  }
  return a.info;
}

}  // namespace mslport::ir::analysis
