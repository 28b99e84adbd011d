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
//  * A function constant the host sets is an argument by value (a bool as
//    uchar, a half or bfloat as float).
//  * Argument order: buffers and function constants (in parameter order),
//    threadgroup memory (in source order), then simd_scratch (added by
//    simd_collectives.cc) and grid.
#include <map>
#include <string>
#include <vector>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"
#include "ir/analysis/constant_table_pointers.h"

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

}  // namespace

void raise_kernel_interface(RaiseContext& ctx, ir::Kernel& k, ClKernel& cl) {
  cl.grid_var = ir::add_var(k, "mslport_grid", ir::Type::vector_of(ir::ScalarKind::UInt, 4), k.loc);

  std::vector<int> builtin_var(k.params.size(), -1);
  std::map<size_t, ir::Type> fc_value_type;  // FunctionConstant params: the Metal type
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
      case ir::Param::Kind::FunctionConstant: {
        // By value, in a type OpenCL C 1.2 takes as a kernel argument: a bool
        // as uchar, a half or bfloat as float (reads convert back).
        ClArg a;
        a.kind = ClArg::Kind::FunctionConstant;
        a.param = (int)i;
        cl.args.push_back(a);
        fc_value_type[i] = p.type;
        if (p.type.scalar == ir::ScalarKind::Bool) p.type = ir::Type::scalar_of(ir::ScalarKind::UChar);
        else if (p.type.scalar == ir::ScalarKind::Half || p.type.scalar == ir::ScalarKind::BFloat)
          p.type = ir::Type::scalar_of(ir::ScalarKind::Float);
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
  const auto tables = ir::analysis::analyze_constant_table_pointers(k);
  for (int v : ir::analysis::conflicting_table_pointers(k, tables))
    ctx.unsupported(k.vars[v].loc.valid() ? k.vars[v].loc : k.loc,
                    "pointer '" + k.vars[v].name + "' set both into a program-scope constant array and elsewhere");
  for (const Expr* use : ir::analysis::table_pointer_misuses(k, tables))
    ctx.unsupported(use->loc.valid() ? use->loc : k.loc, "this use of a pointer into a program-scope constant array");

  for (auto& p : k.params)
    if (p.kind == ir::Param::Kind::Buffer) p.type = to_global(p.type);
  for (size_t v = 0; v < k.vars.size(); ++v)
    if (!tables.into_table[v]) k.vars[v].type = to_global(k.vars[v].type);

  rewrite_kernel_exprs(k, [&](ExprPtr e) -> ExprPtr {
    if (e->kind == Expr::Kind::Unary && e->unary_op == ir::UnaryOp::AddrOf) {
      const Expr* root = ir::analysis::lvalue_root(*e->args[0]);
      if (root->kind == Expr::Kind::ParamRef && is_constant_param(k.params.at(root->index)))
        ctx.unsupported(e->loc.valid() ? e->loc : k.loc, "taking the address of a constant-space value");
    }
    // A pointer into a program-scope constant array keeps __constant.
    if (e->kind != Expr::Kind::ParamRef && !(e->type.is_pointer() && tables.points_into_table(*e)))
      e->type = to_global(e->type);
    if (e->kind == Expr::Kind::ParamRef) {
      const ir::Param& p = k.params.at(e->index);
      if (p.kind == ir::Param::Kind::Builtin) return ir::make_var_ref(k, builtin_var[e->index], e->loc);
      if (auto fc = fc_value_type.find(e->index); fc != fc_value_type.end() && fc->second != p.type) {
        e->type = p.type;
        return make_cast(fc->second, std::move(e));
      }
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
