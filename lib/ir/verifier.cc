#include "ir/verifier.h"

#include <string>

namespace mslport::ir {

namespace {
struct Verifier {
  const Module& m;
  const Kernel& k;
  DiagEngine& diags;
  const Function* function = nullptr;  // verifying a helper function's body
  bool ok = true;

  void fail(const SourceLoc& loc, const std::string& what) {
    diags.error(loc.valid() ? loc : k.loc, std::string("internal error: invalid IR in ") +
                                               (function ? "function '" : "kernel '") + k.name + "': " + what);
    ok = false;
  }

  bool is_lvalue(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::VarRef:
      case Expr::Kind::Index:
      case Expr::Kind::Member:
      case Expr::Kind::Swizzle:
      case Expr::Kind::TgAllocRef:  // `threadgroup float x;`
        return true;
      case Expr::Kind::Unary: return e.unary_op == UnaryOp::Deref;
      case Expr::Kind::ParamRef: {
        // A helper's parameters (the caller's object, or the helper's own
        // copy) and a kernel's `constant T&` buffer name objects.
        if (e.index < 0 || e.index >= (int)k.params.size()) return false;
        Param::Kind pk = k.params[e.index].kind;
        return pk == Param::Kind::Reference || pk == Param::Kind::Value || pk == Param::Kind::ConstantRef ||
               pk == Param::Kind::ConstantValue || pk == Param::Kind::FunctionConstant;
      }
      default: return false;
    }
  }

  void expr(const Expr& e) {
    auto nargs = [&](size_t n) {
      if (e.args.size() != n)
        fail(e.loc, "expression has " + std::to_string(e.args.size()) + " operands, expected " + std::to_string(n));
    };
    for (auto& a : e.args) {
      if (!a) {
        fail(e.loc, "null operand");
        return;
      }
    }
    switch (e.kind) {
      case Expr::Kind::VarRef:
        if (e.index < 0 || e.index >= (int)k.vars.size()) fail(e.loc, "variable handle out of range");
        break;
      case Expr::Kind::ParamRef:
        if (e.index < 0 || e.index >= (int)k.params.size()) fail(e.loc, "parameter handle out of range");
        break;
      case Expr::Kind::TgAllocRef:
        if (e.index < 0 || e.index >= (int)k.tg_allocs.size())
          fail(e.loc, "threadgroup allocation handle out of range");
        break;
      case Expr::Kind::GlobalConstRef:
        if (e.index < 0 || e.index >= (int)m.constants.size()) fail(e.loc, "constant handle out of range");
        break;
      case Expr::Kind::Unary: nargs(1); break;
      case Expr::Kind::Binary: nargs(2); break;
      case Expr::Kind::Assign:
        nargs(2);
        if (e.args.size() == 2 && !is_lvalue(*e.args[0])) fail(e.loc, "assignment to a non-lvalue");
        break;
      case Expr::Kind::Conditional: nargs(3); break;
      case Expr::Kind::Cast:
      case Expr::Kind::Bitcast: nargs(1); break;
      case Expr::Kind::Index:
        nargs(2);
        // A tile's subscript is a lane's element pair (thread_elements()).
        if (e.args.size() == 2 && !e.args[0]->type.is_pointer() && !e.args[0]->type.is_array() &&
            !e.args[0]->type.is_vector() && e.args[0]->type.kind != Type::Kind::SimdMatrix)
          fail(e.loc, "subscript of a value that is not a pointer, array, vector or simdgroup_matrix");
        break;
      case Expr::Kind::Member:
        nargs(1);
        if (e.args.size() == 1) {
          const Type& t = e.arrow ? (e.args[0]->type.elem ? *e.args[0]->type.elem : e.args[0]->type) : e.args[0]->type;
          if (!t.is_struct() || t.struct_index < 0 || t.struct_index >= (int)m.structs.size() || e.index < 0 ||
              e.index >= (int)m.structs[t.struct_index].fields.size())
            fail(e.loc, "member access with an invalid field");
        }
        break;
      case Expr::Kind::Swizzle:
        nargs(1);
        for (int c : e.components)
          if (c < 0 || c > 3) fail(e.loc, "swizzle component out of range");
        break;
      case Expr::Kind::SimdMatrixOp:
        switch (e.matrix_op) {
          case SimdMatrixOpKind::Load:
          case SimdMatrixOpKind::Store: nargs(5); break;
          case SimdMatrixOpKind::Multiply: nargs(3); break;
          case SimdMatrixOpKind::MultiplyAccumulate: nargs(4); break;
          case SimdMatrixOpKind::Fill:
          case SimdMatrixOpKind::Diagonal: nargs(1); break;
        }
        break;
      case Expr::Kind::UserCall:
        if (e.index < 0 || e.index >= (int)m.functions.size()) {
          fail(e.loc, "function handle out of range");
          break;
        }
        // A reference parameter may be bound to a value that is not an
        // lvalue: C++ materializes a temporary ([class.temporary]) for a
        // const reference, an rvalue reference or the object of a member
        // call on a prvalue (`Op()(x)`), and the callee works on that copy.
        nargs(m.functions[e.index].def.params.size());
        break;
      case Expr::Kind::Collective:
        if (e.args.empty()) fail(e.loc, "collective without operand");
        if (e.mask && !e.mask->type.is_bool()) fail(e.loc, "collective mask is not bool");
        break;
      default: break;
    }
    for (auto& a : e.args) expr(*a);
    if (e.mask) expr(*e.mask);
  }

  void stmt(const Stmt& s, int loop_depth) {
    switch (s.kind) {
      case Stmt::Kind::Block:
        for (auto& c : s.stmts) {
          if (!c) fail(s.loc, "null statement in block");
          else stmt(*c, loop_depth);
        }
        return;
      case Stmt::Kind::Decl:
        if (s.var < 0 || s.var >= (int)k.vars.size()) fail(s.loc, "declaration of an unknown variable");
        if (s.expr) expr(*s.expr);
        return;
      case Stmt::Kind::ExprStmt:
        if (!s.expr) fail(s.loc, "expression statement without expression");
        else expr(*s.expr);
        return;
      case Stmt::Kind::If:
        if (!s.expr || !s.body) {
          fail(s.loc, "if without condition or body");
          return;
        }
        expr(*s.expr);
        stmt(*s.body, loop_depth);
        if (s.else_body) stmt(*s.else_body, loop_depth);
        return;
      case Stmt::Kind::For:
      case Stmt::Kind::While:
      case Stmt::Kind::DoWhile:
        if (!s.body) {
          fail(s.loc, "loop without body");
          return;
        }
        if (s.kind != Stmt::Kind::For && !s.expr) fail(s.loc, "loop without condition");
        if (s.init) stmt(*s.init, loop_depth);
        if (s.expr) expr(*s.expr);
        if (s.step) expr(*s.step);
        stmt(*s.body, loop_depth + 1);
        return;
      case Stmt::Kind::Break:
      case Stmt::Kind::Continue:
        if (loop_depth == 0) fail(s.loc, "break/continue outside a loop");
        return;
      case Stmt::Kind::Return:
        if (s.expr) {
          if (!function || function->return_type.kind == Type::Kind::Void) fail(s.loc, "return with a value");
          expr(*s.expr);
        } else if (function && function->return_type.kind != Type::Kind::Void) {
          fail(s.loc, "return without a value in a function that returns one");
        }
        return;
      case Stmt::Kind::Barrier: return;
    }
  }
};
}  // namespace

bool verify_kernel(const Module& m, const Kernel& k, DiagEngine& diags) {
  Verifier v{m, k, diags};
  if (!k.body || k.body->kind != Stmt::Kind::Block) {
    v.fail(k.loc, "kernel body is not a block");
    return false;
  }
  v.stmt(*k.body, 0);
  for (auto& p : k.params) {
    if (p.kind == Param::Kind::Value || p.kind == Param::Kind::Reference)
      v.fail(p.loc, "kernel parameter '" + p.name + "' has a helper function's parameter kind");
    if ((p.kind == Param::Kind::Buffer || p.kind == Param::Kind::ThreadgroupMemory) && !p.type.is_pointer())
      v.fail(p.loc, "pointer parameter '" + p.name + "' without pointer type");
    if (p.kind == Param::Kind::FunctionConstant) {
      // Metal's function constant indices are 16-bit.
      if (p.index < 0 || p.index > 65535)
        v.fail(p.loc, "function constant '" + p.name + "' has index " + std::to_string(p.index) + " outside 0..65535");
      if (!p.type.is_scalar()) v.fail(p.loc, "function constant parameter '" + p.name + "' is not a scalar");
    } else if (p.kind != Param::Kind::Builtin && (p.index < 0 || p.index >= 31))
      v.fail(p.loc, "parameter '" + p.name + "' has binding index " + std::to_string(p.index) + " outside 0..30");
  }
  return v.ok;
}

bool verify_function(const Module& m, const Function& f, DiagEngine& diags) {
  Verifier v{m, f.def, diags, &f};
  if (!f.def.body || f.def.body->kind != Stmt::Kind::Block) {
    v.fail(f.def.loc, "function body is not a block");
    return false;
  }
  v.stmt(*f.def.body, 0);
  for (auto& p : f.def.params)
    if (p.kind != Param::Kind::Value && p.kind != Param::Kind::Reference)
      v.fail(p.loc, "function parameter '" + p.name + "' is not a value or reference parameter");
  return v.ok;
}

bool verify_module(const Module& m, DiagEngine& diags) {
  bool ok = true;
  for (auto& f : m.functions) ok = verify_function(m, f, diags) && ok;
  for (auto& k : m.kernels) ok = verify_kernel(m, k, diags) && ok;
  return ok;
}

}  // namespace mslport::ir
