// Metal's bool vectors (bool2, bool3, bool4, vec<bool, N>) in the front end.
//
// clang's OpenCL mode has no bool ext vectors, so the shim declares them as a
// struct, __mslport_bool_vector<N>, whose members have no bodies
// (metal_stdlib): types.cc reads the struct as the IR's bool vector, and here
// its constructors, subscript and operators become IR expressions. Metal
// gives a bool vector for a comparison of vectors and for `!`, `&&` and `||`
// on vectors (MSL's operator table: relational and logical operators yield
// "Boolean, scalar or vector (matching operands)"), where clang gives an int
// vector holding -1 or 0 per lane; the front end types those operators as
// bool vectors, so `float4(a < b)` is 1.0 where a lane is true, as in Metal.
#include "front/builder.h"
#include "front/types.h"

namespace mslport::front {

ir::Type FunctionBuilder::logical_result(const ir::Type& clang_type, const ir::Expr& a, const ir::Expr* b) {
  int lanes = a.type.is_vector() ? a.type.count : (b && b->type.is_vector() ? b->type.count : 0);
  if (lanes == 0) return clang_type;
  return ir::Type::vector_of(ir::ScalarKind::Bool, lanes);
}

ir::ExprPtr FunctionBuilder::as_bools(ir::ExprPtr e, int lanes, const ir::SourceLoc& loc) {
  if (!e) return e;
  const ir::Type boolean = ir::Type::scalar_of(ir::ScalarKind::Bool);
  // A scalar becomes a bool first, then is widened: bool4(2.5f) is all true.
  if (e->type.is_scalar() && !e->type.is_bool()) e = convert(std::move(e), boolean, loc);
  if (lanes == 1) return e;
  return convert(std::move(e), ir::Type::vector_of(ir::ScalarKind::Bool, lanes), loc);
}

ir::ExprPtr FunctionBuilder::bool_vector_call(CXCursor c, CXCursor fn, bool* handled) {
  *handled = false;
  const CXCursorKind fk = clang_getCursorKind(fn);
  const CXCursor owner = clang_getCursorSemanticParent(fn);
  const std::string name = spelling(fn);
  const int nargs = clang_Cursor_getNumArguments(c);
  const ir::SourceLoc loc = ctx_.loc(c);
  std::vector<CXCursor> args;
  for (int i = 0; i < nargs; ++i) args.push_back(clang_Cursor_getArgument(c, i));

  if ((fk == CXCursor_Constructor || fk == CXCursor_CXXMethod) && is_bool_vector(ctx_, owner)) {
    *handled = true;
    auto t = type_of(c);
    if (!t) return nullptr;
    if (fk == CXCursor_Constructor) {
      // `bool4 m;` and `bool4()`: every lane false. One argument: a copy, or
      // the conversion of an N-lane vector (a comparison, clang's int vector).
      if (nargs == 0) return as_bools(ir::make_bool(false, loc), t->count, loc);
      // A brace list (`bool4 m = {a, b};`) fills the lanes in order, the rest
      // false, as Metal's vector initialisers do.
      auto toks = cursor_tokens(ctx_.tu, c);
      const bool list = !toks.empty() && toks[0].text == "{";
      if (nargs == 1 && !list) return as_bools(expr(args[0]), t->count, loc);
      auto e = std::make_unique<ir::Expr>();
      e->kind = ir::Expr::Kind::VectorConstruct;
      e->type = *t;
      e->loc = loc;
      int lanes = 0;
      for (CXCursor a : args) {
        auto x = expr(a);
        if (!x) return nullptr;
        const int n = x->type.is_vector() ? x->type.count : 1;
        e->args.push_back(as_bools(std::move(x), n, loc));
        lanes += n;
      }
      for (; list && lanes < t->count; ++lanes) e->args.push_back(ir::make_bool(false, loc));
      if (lanes != t->count) {
        ctx_.error(c, "vector initializer for '" + ir::type_name(ctx_.module, *t) + "' has " + std::to_string(lanes) +
                          " components");
        return nullptr;
      }
      return e;
    } else if (name == "operator[]" && nargs == 2) {
      auto object = expr(args[0]);
      auto index = expr(args[1]);
      if (!object || !index) return nullptr;
      return ir::make_index(std::move(object), std::move(index), ir::Type::scalar_of(ir::ScalarKind::Bool));
    } else if (name == "operator=" && nargs == 2) {
      auto a = expr(args[0]);
      auto b = expr(args[1]);
      if (!a || !b) return nullptr;
      return ir::make_assign(std::move(a), std::move(b), loc);
    }
    ctx_.unsupported(c, "'" + name + "' of a bool vector");
    return nullptr;
  }
  // The shim's logical and equality operators on bool vectors.
  if (fk != CXCursor_FunctionDecl || !ctx_.in_shim(fn) || name.rfind("operator", 0) != 0) return nullptr;
  auto t = type_of(c);
  if (!t || !t->is_vector() || t->scalar != ir::ScalarKind::Bool) return nullptr;
  *handled = true;
  std::vector<ir::ExprPtr> ops;
  for (CXCursor a : args) {
    auto x = as_bools(expr(a), t->count, loc);
    if (!x) return nullptr;
    ops.push_back(std::move(x));
  }
  const std::string op = name.substr(8);
  if (op == "!" && ops.size() == 1) return ir::make_unary(ir::UnaryOp::Not, *t, std::move(ops[0]), loc);
  static const std::pair<const char*, ir::BinaryOp> kBinary[] = {
      {"&&", ir::BinaryOp::LogAnd}, {"||", ir::BinaryOp::LogOr}, {"==", ir::BinaryOp::Eq}, {"!=", ir::BinaryOp::Ne}};
  for (auto& [spelled, bop] : kBinary)
    if (op == spelled && ops.size() == 2) return ir::make_binary(bop, *t, std::move(ops[0]), std::move(ops[1]), loc);
  ctx_.unsupported(c, "operator '" + op + "' on bool vectors");
  return nullptr;
}

}  // namespace mslport::front
