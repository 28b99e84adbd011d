// Step: the kernel's OpenCL arguments and Metal's thread-geometry builtins.
//  * Buffer params stay pointers, all `__global` (`constant float* w
//    [[buffer(1)]]` too: OpenCL devices may cap __constant arguments at
//    64 KiB, Metal does not), and so do the pointers computed from them;
//    `constant T& p [[buffer(n)]]` becomes a `__constant T*` argument whose
//    uses read `(*p)` / `p->field`. Pointers into program-scope constant
//    arrays stay `__constant`.
//  * Builtin params are no arguments: each becomes a local computed at the
//    top of the kernel by a prelude helper from get_*_id / get_local_size and
//    the `grid` argument (Metal's grid size, for clipped edge threadgroups).
//  * Argument order: buffers, threadgroup memory (in source order), then
//    simd_scratch (added by simd_collectives.cc) and grid.
#include <functional>
#include <string>
#include <vector>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

using ir::BuiltinId;
using ir::Expr;
using ir::ExprPtr;

bool is_3d_builtin(BuiltinId b) {
  switch (b) {
    case BuiltinId::ThreadIndexInThreadgroup:
    case BuiltinId::ThreadIndexInSimdgroup:
    case BuiltinId::SimdgroupIndexInThreadgroup:
    case BuiltinId::ThreadsPerSimdgroup:
    case BuiltinId::SimdgroupsPerThreadgroup: return false;
    default: return true;
  }
}

// `mslport_<attr>(grid)` adapted to the parameter's type (uint, ushort2, ...).
ExprPtr builtin_value(RaiseContext& ctx, const ir::Kernel& k, const ir::Param& p, int grid_var) {
  const std::string helper = std::string("mslport_") + ir::builtin_attr_name(p.builtin);
  ctx.prelude.require(helper);
  const ir::Type uint_t = ir::Type::scalar_of(ir::ScalarKind::UInt);
  std::vector<ExprPtr> args;
  args.push_back(ir::make_var_ref(k, grid_var, p.loc));
  ExprPtr v;
  if (is_3d_builtin(p.builtin)) {
    v = make_call(helper, ir::Type::vector_of(ir::ScalarKind::UInt, 3), std::move(args), p.loc);
    const int lanes = p.type.is_vector() ? p.type.count : 1;
    if (lanes == 1) v = make_swizzle(std::move(v), {0});
    else if (lanes == 2) v = make_swizzle(std::move(v), {0, 1});
  } else {
    v = make_call(helper, uint_t, std::move(args), p.loc);
  }
  if (v->type != p.type) v = make_cast(p.type, std::move(v));
  return v;
}

// A constant-space pointer of the kernel body as an OpenCL __global one.
ir::Type to_global(const ir::Type& t) {
  if (t.is_pointer()) {
    auto space = t.space == ir::AddressSpace::Constant ? ir::AddressSpace::Device : t.space;
    return ir::Type::pointer_to(to_global(*t.elem), space, t.is_const || t.space == ir::AddressSpace::Constant);
  }
  if (t.is_array()) return ir::Type::array_of(to_global(*t.elem), t.count);
  return t;
}

bool is_constant_param(const ir::Param& p) {
  return p.kind == ir::Param::Kind::ConstantRef || p.kind == ir::Param::Kind::ConstantValue;
}

// The variable, parameter or constant an lvalue `e` lives in.
const Expr* root_of(const Expr* e) {
  while (e->kind == Expr::Kind::Index || e->kind == Expr::Kind::Member || e->kind == Expr::Kind::Swizzle ||
         (e->kind == Expr::Kind::Unary && e->unary_op == ir::UnaryOp::Deref))
    e = e->args[0].get();
  return e;
}

}  // namespace

void raise_kernel_interface(RaiseContext& ctx, ir::Kernel& k, ClKernel& cl) {
  cl.grid_var = ir::add_var(k, "mslport_grid", ir::Type::vector_of(ir::ScalarKind::UInt, 4), k.loc);

  std::vector<int> builtin_var(k.params.size(), -1);
  std::vector<ir::StmtPtr> prologue;
  for (size_t i = 0; i < k.params.size(); ++i) {
    ir::Param& p = k.params[i];
    switch (p.kind) {
      case ir::Param::Kind::ConstantRef:
      case ir::Param::Kind::ConstantValue:
        p.type = ir::Type::pointer_to(p.type, ir::AddressSpace::Constant, true);
        [[fallthrough]];
      case ir::Param::Kind::Buffer: {
        ClArg a;
        a.kind = ClArg::Kind::Buffer;
        a.param = (int)i;
        cl.args.push_back(a);
        break;
      }
      case ir::Param::Kind::ThreadgroupMemory:
        break;  // after the buffers
      // Helper functions' parameters: inline_functions left no helper.
      case ir::Param::Kind::Value:
      case ir::Param::Kind::Reference: break;
      case ir::Param::Kind::Builtin: {
        // The local takes the parameter's name; the parameter is no argument.
        int v = ir::add_var(k, "mslport_builtin", p.type, p.loc);
        k.vars[v].name = p.name;
        k.vars[v].is_const = true;
        p.name = "mslport_unused_" + p.name;
        builtin_var[i] = v;
        prologue.push_back(ir::make_decl(v, builtin_value(ctx, k, p, cl.grid_var), p.loc));
        break;
      }
    }
  }
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (k.params[i].kind != ir::Param::Kind::ThreadgroupMemory) continue;
    ClArg a;
    a.kind = ClArg::Kind::ThreadgroupMemory;
    a.param = (int)i;
    cl.args.push_back(a);
  }
  ClArg grid;
  grid.kind = ClArg::Kind::Grid;
  grid.var = cl.grid_var;
  cl.args.push_back(grid);

  // Pointers into program-scope constant arrays (`constant float* p =
  // table + i;`, llama.cpp's lookup grids) stay __constant: OpenCL C 1.2 has
  // program-scope __constant arrays and __constant pointers to them, but no
  // one address space for them and the kernel's constant buffers, which
  // become __global. So a pointer variable is one or the other by what it
  // is set to; set to both, or a table's pointer used where only the other
  // kind fits (a call, a comparison with a buffer pointer), it is refused.
  std::vector<char> in_table(k.vars.size(), 0), elsewhere(k.vars.size(), 0);
  // An lvalue in a table: `table[i]`, `table[i].row`, `p[2]` with p into one.
  auto lvalue_in_table = [&](const Expr& x) {
    const Expr* r = root_of(&x);
    return r->kind == Expr::Kind::GlobalConstRef ||
           (r->kind == Expr::Kind::VarRef && r->type.is_pointer() && in_table[r->index]);
  };
  std::function<bool(const Expr&)> from_table = [&](const Expr& x) -> bool {
    switch (x.kind) {
      case Expr::Kind::GlobalConstRef: return x.type.is_array();
      case Expr::Kind::Index:
      case Expr::Kind::Member: return x.type.is_array() && lvalue_in_table(x);  // a row, decaying
      case Expr::Kind::VarRef: return x.type.is_pointer() && in_table[x.index];
      case Expr::Kind::Cast: return x.type.is_pointer() && from_table(*x.args[0]);
      case Expr::Kind::Binary:  // p + i, i + p, p - i
        if (!x.type.is_pointer()) return false;
        for (const auto& a : x.args)
          if ((a->type.is_pointer() || a->type.is_array()) && from_table(*a)) return true;
        return false;
      case Expr::Kind::Conditional: return x.type.is_pointer() && (from_table(*x.args[1]) || from_table(*x.args[2]));
      case Expr::Kind::Assign: return x.type.is_pointer() && from_table(*x.args[0]);
      case Expr::Kind::Unary:
        if (x.unary_op == ir::UnaryOp::AddrOf) return lvalue_in_table(*x.args[0]);
        return x.type.is_pointer() && x.unary_op != ir::UnaryOp::Deref && from_table(*x.args[0]);
      default: return false;
    }
  };
  // What each pointer variable is set to, until nothing more is learnt
  // (`q = p + 1` learns from p). A compound `p += n` keeps p's kind.
  auto note = [&](int var, const Expr& value) {
    if (!k.vars[var].type.is_pointer()) return false;
    char& flag = from_table(value) ? in_table[var] : elsewhere[var];
    if (flag) return false;
    flag = 1;
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    ir::walk_stmts(*k.body, [&](const ir::Stmt& s) {
      if (s.kind == ir::Stmt::Kind::Decl && s.expr && note(s.var, *s.expr)) changed = true;
      return true;
    });
    ir::walk_stmt_exprs(*k.body, [&](const Expr& x) {
      if (x.kind == Expr::Kind::Assign && !x.assign_op && x.args[0]->kind == Expr::Kind::VarRef &&
          note(x.args[0]->index, *x.args[1]))
        changed = true;
      return true;
    });
  }
  for (size_t v = 0; v < k.vars.size(); ++v)
    if (in_table[v] && elsewhere[v])
      ctx.unsupported(k.vars[v].loc.valid() ? k.vars[v].loc : k.loc,
                      "pointer '" + k.vars[v].name + "' set both into a program-scope constant array and elsewhere");
  // Where a table's pointer may go: indexed, dereferenced, moved by
  // arithmetic or a cast, chosen by ?:, stored in a variable of its kind,
  // compared with another of its kind.
  auto pointer_valued = [](const Expr& x) { return x.type.is_pointer() || x.type.is_array(); };
  ir::walk_stmt_exprs(*k.body, [&](const Expr& x) {
    for (size_t i = 0; i < x.args.size(); ++i) {
      const Expr* a = x.args[i].get();
      if (!a || !pointer_valued(*a) || !from_table(*a)) continue;
      bool fits = false;
      switch (x.kind) {
        case Expr::Kind::Index: fits = i == 0; break;
        case Expr::Kind::Member: fits = i == 0; break;
        case Expr::Kind::Cast: fits = x.type.is_pointer(); break;
        case Expr::Kind::Unary: fits = x.unary_op != ir::UnaryOp::AddrOf; break;
        case Expr::Kind::Conditional: fits = i > 0 && from_table(*x.args[1]) && from_table(*x.args[2]); break;
        case Expr::Kind::Assign: fits = x.args[0]->kind == Expr::Kind::VarRef && in_table[x.args[0]->index]; break;
        case Expr::Kind::Binary: {
          const Expr& other = *x.args[1 - i];
          fits = x.type.is_pointer() ? !pointer_valued(other) : pointer_valued(other) && from_table(other);
          break;
        }
        default: break;
      }
      if (!fits)
        ctx.unsupported(a->loc.valid() ? a->loc : k.loc, "this use of a pointer into a program-scope constant array");
    }
    return true;
  });

  for (auto& p : k.params)
    if (p.kind == ir::Param::Kind::Buffer) p.type = to_global(p.type);
  for (size_t v = 0; v < k.vars.size(); ++v)
    if (!in_table[v]) k.vars[v].type = to_global(k.vars[v].type);

  rewrite_kernel_exprs(k, [&](ExprPtr e) -> ExprPtr {
    if (e->kind == Expr::Kind::Unary && e->unary_op == ir::UnaryOp::AddrOf) {
      const Expr* root = root_of(e->args[0].get());
      if (root->kind == Expr::Kind::ParamRef && is_constant_param(k.params.at(root->index)))
        ctx.unsupported(e->loc.valid() ? e->loc : k.loc, "taking the address of a constant-space value");
    }
    // A pointer into a program-scope constant array keeps __constant.
    if (e->kind != Expr::Kind::ParamRef && !(e->type.is_pointer() && from_table(*e))) e->type = to_global(e->type);
    if (e->kind == Expr::Kind::ParamRef) {
      const ir::Param& p = k.params.at(e->index);
      if (p.kind == ir::Param::Kind::Builtin) return ir::make_var_ref(k, builtin_var[e->index], e->loc);
      if (is_constant_param(p)) {
        ir::Type value = *p.type.elem;
        ir::SourceLoc loc = e->loc;
        e->type = p.type;
        return ir::make_unary(ir::UnaryOp::Deref, value, std::move(e), loc);
      }
      e->type = p.type;
      return e;
    }
    // (*p).field -> p->field
    if (e->kind == Expr::Kind::Member && !e->arrow && e->args[0]->kind == Expr::Kind::Unary &&
        e->args[0]->unary_op == ir::UnaryOp::Deref) {
      ExprPtr ptr = std::move(e->args[0]->args[0]);
      e->args[0] = std::move(ptr);
      e->arrow = true;
    }
    return e;
  });
  if (!prologue.empty()) {
    auto& stmts = k.body->stmts;
    stmts.insert(stmts.begin(), std::make_move_iterator(prologue.begin()), std::make_move_iterator(prologue.end()));
  }
}

}  // namespace mslport::back::opencl
