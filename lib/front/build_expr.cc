// Expressions: clang expression cursors -> ir::Expr.
//
// libclang exposes clang's ImplicitCastExpr (and other wrappers such as
// MaterializeTemporaryExpr) as CXCursor_UnexposedExpr. The IR contract is
// "value conversions are explicit Cast nodes; lvalue-to-rvalue and array
// decay produce nothing", so each unexposed wrapper is compared with its
// operand by IR type: a changed type becomes a Cast, an unchanged one
// disappears. ext_vector member access (`v.xy`) is also unexposed; it is
// recognised from the tokens between the operand's end and its own.
#include <cmath>
#include <cstdio>

#include "front/adapt_source.h"
#include "front/builder.h"
#include "front/builtins.h"
#include "front/types.h"
#include "ir/analysis/purity.h"

namespace mslport::front {

namespace {

bool is_expr_cursor(CXCursor c) { return clang_isExpression(clang_getCursorKind(c)) != 0; }

// The shim's structs whose constructors and conversions are Metal code the
// front end inlines (matrices, packed vectors).
bool is_shim_value_type(CXCursor record) {
  std::string name = spelling(record);
  return name == "matrix" || name == "packed_vec";
}

// The lanes whose bits a vote of the shim holds (simd_vote: a SIMD group's,
// quad_vote: a quad's); 0 for any other record.
int vote_lanes(FrontContext& ctx, CXCursor record) {
  if (!ctx.in_shim(record)) return 0;
  std::string name = spelling(record);
  return name == "simd_vote" ? ir::kSimdWidth : name == "quad_vote" ? 4 : 0;
}

}  // namespace

bool FunctionBuilder::is_packed_vector(const ir::Type& t) const {
  if (!t.is_struct()) return false;
  const ir::StructDef& s = ctx_.module.structs[t.struct_index];
  return ctx_.packed_vectors.count(t.struct_index) && s.fields.size() == 1 && s.fields[0].type.is_array();
}

namespace {

std::vector<CXCursor> expr_children(CXCursor c) {
  std::vector<CXCursor> out;
  for (CXCursor ch : children(c))
    if (is_expr_cursor(ch)) out.push_back(ch);
  return out;
}

ir::ExprPtr make(ir::Expr::Kind kind, ir::Type t, ir::SourceLoc loc) {
  auto e = std::make_unique<ir::Expr>();
  e->kind = kind;
  e->type = std::move(t);
  e->loc = std::move(loc);
  return e;
}

// Shortest decimal text (with an f suffix) that reads back as the same float.
std::string float_spelling(double v) {
  if (std::isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
  if (std::isnan(v)) return "NAN";
  char buf[64];
  for (int prec = 6; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    double back = std::strtod(buf, nullptr);
    if ((float)back == (float)v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  s += "f";
  return s;
}

std::optional<ir::BinaryOp> binary_op(CXBinaryOperatorKind k, bool* is_assign) {
  *is_assign = false;
  switch (k) {
    case CXBinaryOperator_Mul: return ir::BinaryOp::Mul;
    case CXBinaryOperator_Div: return ir::BinaryOp::Div;
    case CXBinaryOperator_Rem: return ir::BinaryOp::Rem;
    case CXBinaryOperator_Add: return ir::BinaryOp::Add;
    case CXBinaryOperator_Sub: return ir::BinaryOp::Sub;
    case CXBinaryOperator_Shl: return ir::BinaryOp::Shl;
    case CXBinaryOperator_Shr: return ir::BinaryOp::Shr;
    case CXBinaryOperator_LT: return ir::BinaryOp::Lt;
    case CXBinaryOperator_GT: return ir::BinaryOp::Gt;
    case CXBinaryOperator_LE: return ir::BinaryOp::Le;
    case CXBinaryOperator_GE: return ir::BinaryOp::Ge;
    case CXBinaryOperator_EQ: return ir::BinaryOp::Eq;
    case CXBinaryOperator_NE: return ir::BinaryOp::Ne;
    case CXBinaryOperator_And: return ir::BinaryOp::BitAnd;
    case CXBinaryOperator_Xor: return ir::BinaryOp::BitXor;
    case CXBinaryOperator_Or: return ir::BinaryOp::BitOr;
    case CXBinaryOperator_LAnd: return ir::BinaryOp::LogAnd;
    case CXBinaryOperator_LOr: return ir::BinaryOp::LogOr;
    case CXBinaryOperator_Comma: return ir::BinaryOp::Comma;
    default: break;
  }
  *is_assign = true;
  switch (k) {
    case CXBinaryOperator_MulAssign: return ir::BinaryOp::Mul;
    case CXBinaryOperator_DivAssign: return ir::BinaryOp::Div;
    case CXBinaryOperator_RemAssign: return ir::BinaryOp::Rem;
    case CXBinaryOperator_AddAssign: return ir::BinaryOp::Add;
    case CXBinaryOperator_SubAssign: return ir::BinaryOp::Sub;
    case CXBinaryOperator_ShlAssign: return ir::BinaryOp::Shl;
    case CXBinaryOperator_ShrAssign: return ir::BinaryOp::Shr;
    case CXBinaryOperator_AndAssign: return ir::BinaryOp::BitAnd;
    case CXBinaryOperator_XorAssign: return ir::BinaryOp::BitXor;
    case CXBinaryOperator_OrAssign: return ir::BinaryOp::BitOr;
    default: break;
  }
  *is_assign = false;
  return std::nullopt;
}

// Swizzle letters -> lane indices (xyzw and rgba, as Metal allows).
bool swizzle_components(const std::string& s, std::vector<int>* out) {
  if (s.empty() || s.size() > 4) return false;
  for (char ch : s) {
    switch (ch) {
      case 'x':
      case 'r': out->push_back(0); break;
      case 'y':
      case 'g': out->push_back(1); break;
      case 'z':
      case 'b': out->push_back(2); break;
      case 'w':
      case 'a': out->push_back(3); break;
      default: return false;
    }
  }
  return true;
}

}  // namespace

std::optional<ir::Type> FunctionBuilder::type_of(CXCursor c) {
  std::string why;
  auto t = convert_type(ctx_, clang_getCursorType(c), &why);
  if (!t) ctx_.unsupported(c, why);
  return t;
}

ir::ExprPtr FunctionBuilder::convert(ir::ExprPtr e, const ir::Type& t, const ir::SourceLoc& loc) {
  if (!e || e->type == t) return e;
  // A pointer passed for a parameter written as an array (`constant long
  // s[2]`): the parameter is a pointer (C's rule), which libclang still
  // types as the array written. No conversion; an array cast is not C.
  if (t.is_array() && e->type.is_pointer()) return e;
  // A null pointer constant takes the pointer type it converts to.
  if (e->kind == ir::Expr::Kind::IntLit && e->int_value == 0 && t.is_pointer() &&
      (e->type.is_pointer() || e->type.is_scalar())) {
    e->type = t;
    return e;
  }
  // An integer literal converted to another integer type is that type's
  // literal (`uint x = 0;` gives 0u rather than cast<uint>(0)).
  if (e->kind == ir::Expr::Kind::IntLit && e->type.is_scalar() && t.is_scalar() && t.scalar != ir::ScalarKind::Bool &&
      !ir::is_float(t.scalar)) {
    int bits = ir::scalar_size(t.scalar) * 8;
    uint64_t v = (uint64_t)e->int_value;
    if (bits < 64) {
      v &= (uint64_t(1) << bits) - 1;
      if (ir::is_signed_int(t.scalar) && (v >> (bits - 1)) & 1) v |= ~((uint64_t(1) << bits) - 1);
    }
    e->int_value = (int64_t)v;
    e->type = t;
    return e;
  }
  // Likewise an integer literal converted to float, when exact (|v| <= 2^24).
  if (e->kind == ir::Expr::Kind::IntLit && e->type.is_scalar() && t.is_scalar() && t.scalar == ir::ScalarKind::Float &&
      e->type.scalar != ir::ScalarKind::Bool && e->int_value <= (1 << 24) &&
      e->int_value >= (ir::is_unsigned_int(e->type.scalar) ? 0 : -(1 << 24))) {
    auto f = make(ir::Expr::Kind::FloatLit, t, e->loc);
    f->float_value = (double)e->int_value;
    f->spelling = float_spelling(f->float_value);
    return f;
  }
  auto c = make(ir::Expr::Kind::Cast, t, loc);
  c->args.push_back(std::move(e));
  return c;
}

ir::ExprPtr FunctionBuilder::constant_value(CXCursor c) {
  std::string why;
  auto t = convert_type(ctx_, clang_getCursorType(c), &why);
  if (!t || !t->is_scalar()) return nullptr;
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return nullptr;
  ir::ExprPtr e;
  ir::SourceLoc loc = ctx_.loc(c);
  if (clang_EvalResult_getKind(r) == CXEval_Int) {
    int64_t v = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                                  : (int64_t)clang_EvalResult_getAsLongLong(r);
    e = t->is_bool() ? ir::make_bool(v != 0, loc) : ir::make_int(*t, v, loc);
    if (ir::is_float(t->scalar)) e = convert(ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Long), v, loc), *t, loc);
  } else if (clang_EvalResult_getKind(r) == CXEval_Float && ir::is_float(t->scalar)) {
    e = make(ir::Expr::Kind::FloatLit, *t, loc);
    e->float_value = clang_EvalResult_getAsDouble(r);
    e->spelling = t->scalar == ir::ScalarKind::Float ? float_spelling(e->float_value) : "";
  }
  clang_EvalResult_dispose(r);
  return e;
}

std::optional<bool> FunctionBuilder::specialized_condition(CXCursor cond) {
  if (ctx_.specialization_constants.empty() && ctx_.function_constants.empty()) return std::nullopt;
  bool reads = false;
  struct Scan {
    FrontContext* ctx;
    bool* reads;
  } scan{&ctx_, &reads};
  auto visit = [](CXCursor x, CXCursor, CXClientData d) {
    auto* s = static_cast<Scan*>(d);
    if (clang_getCursorKind(x) == CXCursor_DeclRefExpr) {
      std::string n = spelling(clang_getCursorReferenced(x));
      if (n.rfind(kFcDefinedPrefix, 0) == 0 || s->ctx->specialization_constants.count(n) ||
          s->ctx->function_constants.count(n))
        *s->reads = true;
    }
    return CXChildVisit_Recurse;
  };
  visit(cond, cond, &scan);  // the condition itself may be the name
  clang_visitChildren(cond, visit, &scan);
  if (!reads) return std::nullopt;
  int64_t v = 0;
  if (!evaluate_int(cond, &v)) return std::nullopt;
  return v != 0;
}

bool FunctionBuilder::is_threadgroup_storage(CXCursor init) {
  if (clang_Cursor_isNull(init)) return false;
  bool found = false;
  auto check = [&](CXCursor x) {
    if (clang_getCursorKind(x) == CXCursor_CallExpr &&
        spelling(clang_getCursorReferenced(x)) == kThreadgroupStorageName)
      found = true;
  };
  check(init);
  clang_visitChildren(
      init,
      [](CXCursor x, CXCursor, CXClientData d) {
        (*static_cast<decltype(check)*>(d))(x);
        return CXChildVisit_Recurse;
      },
      &check);
  return found;
}

bool FunctionBuilder::evaluate_int(CXCursor c, int64_t* value) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) {
    *value = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                               : (int64_t)clang_EvalResult_getAsLongLong(r);
  }
  clang_EvalResult_dispose(r);
  return ok;
}

NestingGuard::NestingGuard(FunctionBuilder& b, CXCursor c) : b_(b) {
  too_deep_ = ++b_.depth_ > ir::kMaxNestingDepth;
  if (too_deep_ && !b_.depth_reported_) {
    b_.depth_reported_ = true;
    b_.ctx_.error(c, "expressions and statements nest more than " + std::to_string(ir::kMaxNestingDepth) +
                         " levels deep here, mslport's limit (split the expression or the if-else chain, e.g. "
                         "with local variables)");
  }
}

ir::ExprPtr FunctionBuilder::expr(CXCursor c) {
  NestingGuard nesting(*this, c);
  if (nesting.too_deep()) return nullptr;
  switch (clang_getCursorKind(c)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral: return int_literal(c);  // `'\0'`: a char
    case CXCursor_FloatingLiteral: return float_literal(c);
    case CXCursor_CXXBoolLiteralExpr: {
      int64_t v = 0;
      evaluate_int(c, &v);
      return ir::make_bool(v != 0, ctx_.loc(c));
    }
    case CXCursor_ParenExpr: {
      auto ch = expr_children(c);
      if (ch.size() != 1) break;
      return expr(ch[0]);
    }
    case CXCursor_DeclRefExpr: return decl_ref(c);
    case CXCursor_UnaryOperator: return unary(c);
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: return binary(c);
    case CXCursor_ConditionalOperator: return conditional(c);
    case CXCursor_ArraySubscriptExpr: return subscript(c);
    case CXCursor_MemberRefExpr: return member(c);
    case CXCursor_CallExpr: return call(c);
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr: return explicit_cast(c);
    case CXCursor_CXXReinterpretCastExpr: return reinterpret_cast_expr(c);
    case CXCursor_CompoundLiteralExpr: return compound_literal(c);
    case CXCursor_CXXNullPtrLiteralExpr:  // a null pointer, typed by the conversion around it
      return ir::make_int(ir::Type::pointer_to(ir::Type::void_type(), ir::AddressSpace::Private, false), 0,
                          ctx_.loc(c));
    case CXCursor_CXXThisExpr: {
      auto self = self_object(c);
      auto t = type_of(c);
      if (!self || !t) return nullptr;
      return ir::make_unary(ir::UnaryOp::AddrOf, *t, std::move(self), ctx_.loc(c));
    }
    case CXCursor_InitListExpr: return init_list(c);
    case CXCursor_UnexposedExpr: return unexposed(c);
    case CXCursor_UnaryExpr: {  // sizeof / alignof: a constant
      int64_t v = 0;
      auto t = type_of(c);
      if (!t) return nullptr;
      if (!evaluate_int(c, &v)) break;
      return ir::make_int(*t, v, ctx_.loc(c));
    }
    default: break;
  }
  ctx_.unsupported(c, "expression '" + kind_spelling(c) + "'");
  return nullptr;
}

ir::ExprPtr FunctionBuilder::int_literal(CXCursor c) {
  auto t = type_of(c);
  int64_t v = 0;
  if (!t) return nullptr;
  if (!evaluate_int(c, &v)) {
    ctx_.error(c, "cannot evaluate integer literal");
    return nullptr;
  }
  return ir::make_int(*t, v, ctx_.loc(c));
}

ir::ExprPtr FunctionBuilder::float_literal(CXCursor c) {
  // Metal has no double: an unsuffixed literal (`0.5`, clang's double) is a
  // float literal, rounded to float (clang wraps it in a conversion to float
  // under -cl-single-precision-constant, which then disappears).
  bool is_double = clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Double;
  std::optional<ir::Type> t =
      is_double ? std::optional<ir::Type>(ir::Type::scalar_of(ir::ScalarKind::Float)) : type_of(c);
  if (!t) return nullptr;
  CXEvalResult r = clang_Cursor_Evaluate(c);
  double v = 0;
  bool ok = r && clang_EvalResult_getKind(r) == CXEval_Float;
  if (ok) v = clang_EvalResult_getAsDouble(r);
  if (r) clang_EvalResult_dispose(r);
  if (!ok) {
    ctx_.error(c, "cannot evaluate floating-point literal");
    return nullptr;
  }
  if (is_double) v = (double)(float)v;
  auto e = make(ir::Expr::Kind::FloatLit, *t, ctx_.loc(c));
  e->float_value = v;
  // Keep the user's spelling when the literal is written in place; a literal
  // that comes from a macro (FLT_MAX, a #define) is spelled from its value.
  auto toks = cursor_tokens(ctx_.tu, c);
  if (toks.size() == 1 && toks[0].kind == CXToken_Literal) {
    e->spelling = toks[0].text;
    if (is_double) e->spelling += "f";
  } else {
    e->spelling = float_spelling(v);
  }
  return e;
}

ir::ExprPtr FunctionBuilder::decl_ref(CXCursor c) {
  CXCursor d = clang_getCursorReferenced(c);
  CXCursorKind dk = clang_getCursorKind(d);
  if (clang_Cursor_isNull(d) || clang_isInvalid(dk) || dk == CXCursor_NonTypeTemplateParameter) {
    // A non-type template parameter in an instance: clang substituted its
    // value (the reference wraps the literal).
    auto kids = expr_children(c);
    if (kids.size() == 1) return expr(kids[0]);
    int64_t v = 0;
    auto t = type_of(c);
    if (t && evaluate_int(c, &v)) return ir::make_int(*t, v, ctx_.loc(c));
    if (t) ctx_.unsupported(c, "reference to '" + source_text(ctx_.tu, c) + "'");
    return nullptr;
  }
  std::string usr = usr_of(d);
  switch (clang_getCursorKind(d)) {
    case CXCursor_ParmDecl: {
      for (auto it = substitutions_.rbegin(); it != substitutions_.rend(); ++it) {
        if (auto s = it->find(usr); s != it->end()) {
          auto e = s->second->clone();
          return e;
        }
      }
      if (auto a = absent_params_.find(usr); a != absent_params_.end()) {
        ctx_.error(c, "parameter '" + a->second +
                          "' does not exist with these function constants (its "
                          "[[function_constant]] is false)");
        return nullptr;
      }
      auto it = params_.find(usr);
      if (it == params_.end() || !k_) break;
      auto t = type_of(c);
      if (!t) return nullptr;
      auto e = make(ir::Expr::Kind::ParamRef, *t, ctx_.loc(c));
      e->index = it->second;
      if (k_ && it->second < (int)k_->params.size() && k_->params[it->second].kind == ir::Param::Kind::Builtin)
        e->type = k_->params[it->second].type;
      if (reference_params_.count(it->second)) {
        e->type = k_->params[it->second].type;
        ir::Type object = *e->type.elem;
        return ir::make_unary(ir::UnaryOp::Deref, object, std::move(e), ctx_.loc(c));
      }
      if (auto q = quad_params_.find(it->second); q != quad_params_.end()) {
        ir::Type pt = e->type;
        e = ir::make_binary(q->second, pt, std::move(e), ir::make_int(pt, 4, ctx_.loc(c)), ctx_.loc(c));
      }
      if (auto n = narrow_params_.find(it->second); n != narrow_params_.end())
        e = convert(std::move(e), n->second, ctx_.loc(c));
      return e;
    }
    case CXCursor_VarDecl: {
      std::string name = spelling(d);
      if (name.rfind(kFcDefinedPrefix, 0) == 0) {  // is_function_constant_defined(x)
        int64_t v = 0;
        if (!evaluate_int(c, &v)) break;
        return ir::make_bool(v != 0, ctx_.loc(c));
      }
      if (auto fc = ctx_.function_constants.find(name); fc != ctx_.function_constants.end()) {
        auto def = ctx_.function_constant_defined.find(name);
        if (def != ctx_.function_constant_defined.end() && !def->second) {
          // (An index written as an expression is not known here: -1.)
          std::string index = fc->second >= 0 ? " [[function_constant(" + std::to_string(fc->second) + ")]]" : "";
          ctx_.error(c, "function constant '" + name + "'" + index +
                            " has no value here: give one with --function-constant " + name +
                            "=VALUE (or \"function_constants\" in the golden case)");
          return nullptr;
        }
      }
      if (auto it = vars_.find(usr); it != vars_.end()) return ir::make_var_ref(*k_, it->second, ctx_.loc(c));
      if (auto it = element_refs_.find(usr); it != element_refs_.end()) {  // a reference naming its referent
        auto e = it->second->clone();
        e->loc = ctx_.loc(c);
        return e;
      }
      if (unbound_refs_.count(usr)) return nullptr;  // reported at its declaration
      if (auto it = reference_vars_.find(usr); it != reference_vars_.end()) {
        auto p = ir::make_var_ref(*k_, it->second, ctx_.loc(c));
        ir::Type t = *p->type.elem;
        return ir::make_unary(ir::UnaryOp::Deref, t, std::move(p), ctx_.loc(c));
      }
      if (auto it = tg_allocs_.find(usr); it != tg_allocs_.end()) {
        auto e = make(ir::Expr::Kind::TgAllocRef, k_->tg_allocs[it->second].type, ctx_.loc(c));
        e->index = it->second;
        return e;
      }
      if (auto it = ctx_.const_by_usr.find(usr); it != ctx_.const_by_usr.end()) {
        auto e = make(ir::Expr::Kind::GlobalConstRef, ctx_.module.constants[it->second].type, ctx_.loc(c));
        e->index = it->second;
        return e;
      }
      // A constant declared elsewhere (a static constexpr member, a
      // constexpr variable in a namespace) is its value.
      if (auto v = constant_value(c)) return v;
      // A const object of a class declared elsewhere (a reduction op's
      // `static constexpr constant U init = U(0)` with U = complex_t, MLX's
      // reduce): its initializer, a constant expression, built here.
      if (clang_isConstQualifiedType(clang_getCursorType(d))) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(d);
        auto vt = type_of(c);
        if (!clang_Cursor_isNull(init) && vt && vt->kind == ir::Type::Kind::Struct)
          if (auto e = expr(init)) return convert(std::move(e), *vt, ctx_.loc(c));
      }
      if (auto bad = ctx_.bad_constants.find(usr); bad != ctx_.bad_constants.end()) {
        ctx_.error(ctx_.loc(d), bad->second);
        return nullptr;
      }
      ctx_.unsupported(c, "reference to variable '" + spelling(d) + "' declared outside the kernel");
      return nullptr;
    }
    case CXCursor_EnumConstantDecl: {
      auto t = type_of(c);
      if (!t) return nullptr;
      return ir::make_int(*t, clang_getEnumConstantDeclValue(d), ctx_.loc(c));
    }
    // A variable template's instance (`is_floating_point_v<T>`, a
    // `constexpr constant bool is_x<T> = ...` of the user's): libclang
    // exposes no declaration for it, but a constant one is its value.
    case CXCursor_UnexposedDecl:
      if (auto v = constant_value(c)) return v;
      break;
    default: break;
  }
  ctx_.unsupported(c, "reference to '" + spelling(d) + "' (" + kind_spelling(d) + ")");
  return nullptr;
}

ir::ExprPtr FunctionBuilder::unary(CXCursor c) {
  auto ch = expr_children(c);
  auto t = type_of(c);
  if (ch.size() != 1 || !t) {
    if (t) ctx_.unsupported(c, "unary expression");
    return nullptr;
  }
  ir::UnaryOp op;
  switch (clang_getCursorUnaryOperatorKind(c)) {
    case CXUnaryOperator_PostInc: op = ir::UnaryOp::PostInc; break;
    case CXUnaryOperator_PostDec: op = ir::UnaryOp::PostDec; break;
    case CXUnaryOperator_PreInc: op = ir::UnaryOp::PreInc; break;
    case CXUnaryOperator_PreDec: op = ir::UnaryOp::PreDec; break;
    case CXUnaryOperator_AddrOf: op = ir::UnaryOp::AddrOf; break;
    case CXUnaryOperator_Deref:
      // A range-based for's `*__begin` (range_for.cc).
      if (auto element = range_element(ch[0])) return element;
      op = ir::UnaryOp::Deref;
      break;
    case CXUnaryOperator_Plus: op = ir::UnaryOp::Plus; break;
    case CXUnaryOperator_Minus: op = ir::UnaryOp::Neg; break;
    case CXUnaryOperator_Not: op = ir::UnaryOp::BitNot; break;
    case CXUnaryOperator_LNot: op = ir::UnaryOp::Not; break;
    case CXUnaryOperator_Extension: return expr(ch[0]);
    default: ctx_.unsupported(c, "unary operator"); return nullptr;
  }
  auto a = expr(ch[0]);
  if (!a) return nullptr;
  // `!v` of a vector: a bool vector (bool_vectors.cc).
  if (op == ir::UnaryOp::Not && a->type.is_vector()) {
    ir::Type bools = logical_result(*t, *a, nullptr);
    return ir::make_unary(op, bools, as_bools(std::move(a), bools.count, ctx_.loc(c)), ctx_.loc(c));
  }
  return ir::make_unary(op, *t, std::move(a), ctx_.loc(c));
}

ir::ExprPtr FunctionBuilder::binary(CXCursor c) {
  auto ch = expr_children(c);
  auto t = type_of(c);
  if (!t) return nullptr;
  bool is_assign = false;
  CXBinaryOperatorKind kind = clang_getCursorBinaryOperatorKind(c);
  auto op = binary_op(kind, &is_assign);
  if (ch.size() != 2 || (!op && kind != CXBinaryOperator_Assign)) {
    ctx_.unsupported(c, "binary operator");
    return nullptr;
  }
  // `is_function_constant_defined(c) && c`: an operand that function
  // constants decide decides the operator, and the other side is not
  // evaluated (nor built: it may read a constant without a value).
  if (kind == CXBinaryOperator_LAnd || kind == CXBinaryOperator_LOr) {
    if (auto lhs = specialized_condition(ch[0])) {
      bool decides = kind == CXBinaryOperator_LAnd ? !*lhs : *lhs;
      if (decides) return ir::make_bool(*lhs, ctx_.loc(c));
      return convert(expr(ch[1]), *t, ctx_.loc(c));
    }
  }
  auto a = expr(ch[0]);
  auto b = expr(ch[1]);
  if (!a || !b) return nullptr;
  if (kind == CXBinaryOperator_Assign || is_assign) {
    auto e = ir::make_assign(std::move(a), std::move(b), ctx_.loc(c));
    if (is_assign) e->assign_op = op;
    return e;
  }
  // Comparisons of vectors and `&&`, `||` on vectors give bool vectors in
  // Metal, int vectors in clang (bool_vectors.cc).
  using B = ir::BinaryOp;
  const ir::Type bools = logical_result(*t, *a, b.get());
  if (*op == B::Lt || *op == B::Gt || *op == B::Le || *op == B::Ge || *op == B::Eq || *op == B::Ne)
    return ir::make_binary(*op, bools, std::move(a), std::move(b), ctx_.loc(c));
  if ((*op == B::LogAnd || *op == B::LogOr) && bools.is_vector()) {
    a = as_bools(std::move(a), bools.count, ctx_.loc(c));
    b = as_bools(std::move(b), bools.count, ctx_.loc(c));
    return ir::make_binary(*op, bools, std::move(a), std::move(b), ctx_.loc(c));
  }
  return ir::make_binary(*op, *t, std::move(a), std::move(b), ctx_.loc(c));
}

ir::ExprPtr FunctionBuilder::conditional(CXCursor c) {
  auto ch = expr_children(c);
  auto t = type_of(c);
  if (!t) return nullptr;
  if (ch.size() != 3) {
    ctx_.unsupported(c, "conditional expression form");
    return nullptr;
  }
  if (auto taken = specialized_condition(ch[0])) return convert(expr(ch[*taken ? 1 : 2]), *t, ctx_.loc(c));
  auto e = make(ir::Expr::Kind::Conditional, *t, ctx_.loc(c));
  for (CXCursor x : ch) {
    auto a = expr(x);
    if (!a) return nullptr;
    e->args.push_back(std::move(a));
  }
  return e;
}

ir::ExprPtr FunctionBuilder::subscript(CXCursor c) {
  auto ch = expr_children(c);
  auto t = type_of(c);
  if (!t) return nullptr;
  if (ch.size() != 2) {
    ctx_.unsupported(c, "subscript form");
    return nullptr;
  }
  auto a = expr(ch[0]);
  auto b = expr(ch[1]);
  if (!a || !b) return nullptr;
  // `i[p]` is legal C; the IR always has the pointer/array first.
  auto indexable = [](const ir::Type& t) { return t.is_pointer() || t.is_array() || t.is_vector(); };
  if (!indexable(a->type) && indexable(b->type)) std::swap(a, b);
  auto e = make(ir::Expr::Kind::Index, *t, ctx_.loc(c));
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

namespace {

// An implicit member expression of an anonymous union or struct member:
// `b.d`, with d declared in `union { ... }` inside b's struct, is `b.<the
// unnamed member>.d` in clang's AST (not always one such step per level).
bool is_anonymous_member_ref(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_MemberRefExpr) return false;
  CXCursor f = clang_getCursorReferenced(c);
  if (clang_getCursorKind(f) != CXCursor_FieldDecl) return false;
  CXCursor record = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(f)));
  return !clang_Cursor_isNull(record) && clang_Cursor_isAnonymousRecordDecl(record);
}

}  // namespace

bool field_path(const ir::Module& m, int si, const std::string& name, std::vector<int>* path) {
  const auto& fields = m.structs[si].fields;
  for (size_t i = 0; i < fields.size(); ++i)
    if (!fields[i].anonymous && fields[i].name == name) {
      path->push_back((int)i);
      return true;
    }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i].anonymous || !fields[i].type.is_struct()) continue;
    path->push_back((int)i);
    if (field_path(m, fields[i].type.struct_index, name, path)) return true;
    path->pop_back();
  }
  return false;
}

ir::ExprPtr member_chain(const ir::Module& m, ir::ExprPtr base, const std::vector<int>& path,
                         const ir::SourceLoc& loc) {
  for (int index : path) {
    const bool arrow = base->type.is_pointer();
    const int si = arrow ? base->type.elem->struct_index : base->type.struct_index;
    auto e = make(ir::Expr::Kind::Member, m.structs[si].fields[index].type, loc);
    e->arrow = arrow;
    e->index = index;
    e->args.push_back(std::move(base));
    base = std::move(e);
  }
  return base;
}

// `::metal::__mslport_box<T>{x}.v` (front/reference_arguments.h): x.
std::optional<CXCursor> FunctionBuilder::boxed_value(CXCursor member_ref) {
  if (spelling(member_ref) != "v") return std::nullopt;
  auto ch = expr_children(member_ref);
  if (ch.size() != 1) return std::nullopt;
  CXCursor base = ch[0];
  CXCursor box = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(base)));
  if (clang_Cursor_isNull(box) || spelling(box) != "__mslport_box" || !ctx_.in_shim(box)) return std::nullopt;
  // Through the temporary's materialisation and the functional cast
  // (`__mslport_box<T>{...}`), to the brace list.
  while (clang_getCursorKind(base) != CXCursor_InitListExpr) {
    auto inner = expr_children(base);
    if (inner.empty()) return std::nullopt;
    base = inner.back();
  }
  auto elems = expr_children(base);
  if (elems.size() != 1) return std::nullopt;
  return elems[0];
}

ir::ExprPtr FunctionBuilder::member(CXCursor c) {
  if (auto value = boxed_value(c)) return expr(*value);
  CXCursor field = clang_getCursorReferenced(c);
  auto ch = expr_children(c);
  auto t = type_of(c);
  if (!t) return nullptr;
  // A bool vector's swizzle: a static member of the shim's struct, named as
  // the swizzle (bool_vectors.cc).
  if (clang_getCursorKind(field) == CXCursor_VarDecl && is_bool_vector(ctx_, clang_getCursorSemanticParent(field)) &&
      ch.size() == 1)
    return swizzle(c, ch[0], spelling(field));
  // A static data member named through an object (`op.init`, MLX's
  // reductions): the member itself; the object only names its class.
  if (clang_getCursorKind(field) == CXCursor_VarDecl && ch.size() <= 1) {
    if (ch.size() == 1) {
      auto object = expr(ch[0]);
      if (!object) return nullptr;
      if (ir::analysis::has_side_effects(*object)) {
        ctx_.unsupported(c, "static member '" + spelling(field) + "' read through an object with side effects");
        return nullptr;
      }
    }
    return decl_ref(c);
  }
  if (clang_getCursorKind(field) != CXCursor_FieldDecl || ch.size() > 1) {
    ctx_.unsupported(c, "member access '" + spelling(c) + "'");
    return nullptr;
  }
  // The steps through anonymous members are taken again below, by name.
  while (!ch.empty() && is_anonymous_member_ref(ch[0])) ch = expr_children(ch[0]);
  if (ch.size() > 1) {
    ctx_.unsupported(c, "member access '" + spelling(c) + "'");
    return nullptr;
  }
  // `x` inside a member function is `this->x`: the object itself.
  ir::ExprPtr base = ch.empty() ? self_object(c) : expr(ch[0]);
  if (!base) return nullptr;
  // `this->x` reads the object, not a pointer to it.
  if (base->kind == ir::Expr::Kind::Unary && base->unary_op == ir::UnaryOp::AddrOf && !ch.empty() &&
      clang_getCursorKind(ch[0]) == CXCursor_CXXThisExpr)
    base = std::move(base->args[0]);
  const ir::Type* st = base->type.is_pointer() ? base->type.elem.get() : &base->type;
  if (!st->is_struct()) {
    ctx_.unsupported(c, "member access on type '" + ir::type_name(ctx_.module, base->type) + "'");
    return nullptr;
  }
  std::vector<int> path;
  std::string fname = spelling(field);
  if (fname.empty() || !field_path(ctx_.module, st->struct_index, fname, &path)) {
    ctx_.error(c, "no field '" + fname + "' in struct '" + ctx_.module.structs[st->struct_index].name + "'");
    return nullptr;
  }
  base = member_chain(ctx_.module, std::move(base), path, ctx_.loc(c));
  base->type = *t;  // the expression's type as clang gives it
  return base;
}

ir::ExprPtr FunctionBuilder::call(CXCursor c) {
  CXCursor fn = clang_getCursorReferenced(c);
  CXCursorKind fk = clang_getCursorKind(fn);
  if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_Constructor &&
      fk != CXCursor_ConversionFunction) {
    // A call through a function template parameter (`deq(x)` with
    // `template <void (&deq)(...)>`): in an instance the callee expression
    // names the function given as the argument.
    struct Found {
      CXCursor fn = clang_getNullCursor();
    } found;
    auto kids = children(c);
    if (!kids.empty())
      clang_visitChildren(
          kids[0],
          [](CXCursor x, CXCursor, CXClientData d) {
            CXCursor r = clang_getCursorReferenced(x);
            if (clang_getCursorKind(x) == CXCursor_DeclRefExpr && clang_getCursorKind(r) == CXCursor_FunctionDecl) {
              static_cast<Found*>(d)->fn = r;
              return CXChildVisit_Break;
            }
            return CXChildVisit_Recurse;
          },
          &found);
    if (!clang_Cursor_isNull(found.fn)) {
      fn = found.fn;
      fk = CXCursor_FunctionDecl;
    }
  }
  int nargs = clang_Cursor_getNumArguments(c);
  std::vector<CXCursor> arg_cursors;
  for (int i = 0; i < nargs; ++i) arg_cursors.push_back(clang_Cursor_getArgument(c, i));

  bool handled = false;
  auto bools = bool_vector_call(c, fn, &handled);
  if (handled) return bools;
  if (fk == CXCursor_Constructor) {
    // A copy (or move) of a struct value is its argument.
    if (nargs == 1 && (clang_CXXConstructor_isCopyConstructor(fn) || clang_CXXConstructor_isMoveConstructor(fn)))
      return expr(arg_cursors[0]);
    if (vote_lanes(ctx_, clang_getCursorSemanticParent(fn))) return vote_member(c, fn, arg_cursors);
    if (!ctx_.in_shim(fn) || is_shim_value_type(clang_getCursorSemanticParent(fn))) return constructor_call(c, fn);
    if (nargs == 1 && spelling(clang_getCursorSemanticParent(fn)) == "simdgroup_matrix")
      return simd_matrix_diagonal(c, arg_cursors[0]);
    ctx_.unsupported(c, "construction of '" + type_spelling(clang_getCursorType(c)) + "'");
    return nullptr;
  }
  // A conversion operator (`operator float3()` of a packed vector, or of
  // a struct of the user's) is a member function like any other.
  if (fk == CXCursor_ConversionFunction && (!ctx_.in_shim(fn) || is_shim_value_type(clang_getCursorSemanticParent(fn))))
    return method_call(c, fn);
  if (fk == CXCursor_CXXMethod && !ctx_.in_shim(fn) &&
      !(spelling(fn) == "operator=" &&
        (clang_CXXMethod_isDefaulted(fn) || !clang_isCursorDefinition(clang_getCursorDefinition(fn)))))
    return method_call(c, fn);
  if (fk == CXCursor_CXXMethod && spelling(fn) == "operator=" && nargs == 2) {
    // Struct assignment through the implicit copy-assignment operator.
    auto a = expr(arg_cursors[0]);
    auto b = expr(arg_cursors[1]);
    if (!a || !b) return nullptr;
    return ir::make_assign(std::move(a), std::move(b), ctx_.loc(c));
  }
  if ((fk == CXCursor_CXXMethod || fk == CXCursor_ConversionFunction) &&
      vote_lanes(ctx_, clang_getCursorSemanticParent(fn)))
    return vote_member(c, fn, arg_cursors);
  std::string owner_name = spelling(clang_getCursorSemanticParent(fn));
  if (fk == CXCursor_CXXMethod && ctx_.in_shim(fn) && spelling(fn) == "thread_elements" &&
      owner_name == "simdgroup_matrix" && nargs == 0)
    return thread_elements(c);
  if (fk == CXCursor_CXXMethod && ctx_.in_shim(fn) && spelling(fn) == "operator[]" &&
      (owner_name == "array" || owner_name == "matrix" || owner_name == "packed_vec") && nargs == 2) {
    // metal::array<T, N> and matrix<T, C, R>: a[i] is an element of the
    // array they hold (a matrix's column).
    auto object = object_value(arg_cursors[0], ctx_.loc(c));
    auto idx = expr(arg_cursors[1]);
    auto t = type_of(c);
    if (!object || !idx || !t) return nullptr;
    const ir::StructDef& sd = ctx_.module.structs[object->type.struct_index];
    auto elems = make(ir::Expr::Kind::Member, sd.fields[0].type, ctx_.loc(c));
    elems->index = 0;
    elems->args.push_back(std::move(object));
    auto e = make(ir::Expr::Kind::Index, *t, ctx_.loc(c));
    e->args.push_back(std::move(elems));
    e->args.push_back(std::move(idx));
    return e;
  }
  if (fk != CXCursor_FunctionDecl) {
    // A constant expression (numeric_limits<T>::max(), a constexpr member)
    // is its value.
    if (auto v = constant_value(c)) return v;
    std::string owner = spelling(clang_getCursorSemanticParent(fn));
    if (ctx_.in_shim(fn) && !owner.empty())
      ctx_.unsupported(c, "member function '" + spelling(fn) + "' of '" + owner + "'");
    else ctx_.unsupported(c, "call to '" + spelling(c) + "'");
    return nullptr;
  }
  Callee callee = classify_callee(ctx_, fn);
  auto t = type_of(c);
  if (!t) return nullptr;
  ir::SourceLoc loc = ctx_.loc(c);
  auto build_args = [&](ir::Expr& e) {
    for (CXCursor a : arg_cursors) {
      auto x = expr(a);
      if (!x) return false;
      e.args.push_back(std::move(x));
    }
    return true;
  };
  switch (callee.kind) {
    case Callee::Kind::Intrinsic: {
      auto e = make(ir::Expr::Kind::Call, *t, loc);
      e->spelling = callee.name;
      e->intrinsic = callee.intrinsic;
      if (ir::intrinsic_info(callee.intrinsic).group == ir::IntrinsicGroup::Atomic) return atomic_call(c, std::move(e));
      if (!build_args(*e)) return nullptr;
      // all(v), any(v) and select's condition take bool vectors; given a
      // vector of another type (clang's int vector of a comparison that is
      // no bool vector in the IR), each lane is converted (nonzero is true).
      const bool any_all = callee.intrinsic == ir::Intrinsic::Any || callee.intrinsic == ir::Intrinsic::All;
      const size_t mask = any_all ? 0 : 2;
      if ((any_all && e->args.size() == 1) || (callee.intrinsic == ir::Intrinsic::Select && e->args.size() == 3)) {
        const int lanes = e->args[mask]->type.is_vector() ? e->args[mask]->type.count : 0;
        if (lanes) e->args[mask] = as_bools(std::move(e->args[mask]), lanes, loc);
      }
      return e;
    }
    case Callee::Kind::Collective: {
      auto e = make(ir::Expr::Kind::Collective, *t, loc);
      e->collective_op = callee.op;
      if (!build_args(*e)) return nullptr;
      // simd_is_first() and quad_is_first() are votes of `true` over the
      // active lanes: every collective has the value it exchanges as its
      // first operand.
      // So are simd_ / quad_active_threads_mask(): ballots of `true`.
      if ((callee.op == ir::CollectiveOp::SimdIsFirst || callee.op == ir::CollectiveOp::QuadIsFirst ||
           callee.op == ir::CollectiveOp::SimdActiveThreadsMask ||
           callee.op == ir::CollectiveOp::QuadActiveThreadsMask) &&
          e->args.empty())
        e->args.push_back(ir::make_bool(true, loc));
      return e;
    }
    case Callee::Kind::AsType: {
      if (nargs != 1) break;
      auto e = make(ir::Expr::Kind::Bitcast, *t, loc);
      if (!build_args(*e)) return nullptr;
      return e;
    }
    case Callee::Kind::Infinity:
    case Callee::Kind::NaN: {
      auto e = make(ir::Expr::Kind::FloatLit, *t, loc);
      bool inf = callee.kind == Callee::Kind::Infinity;
      e->float_value = inf ? HUGE_VAL : NAN;
      e->spelling = inf ? "INFINITY" : "NAN";
      return e;
    }
    case Callee::Kind::Expect: {
      if (nargs != 2) break;
      auto v = expr(arg_cursors[0]);
      if (!v) return nullptr;
      return convert(std::move(v), *t, loc);
    }
    case Callee::Kind::Assume: break;  // a statement (build_stmt.cc), not a value
    case Callee::Kind::ThreadgroupBarrier:
    case Callee::Kind::SimdgroupBarrier:
      ctx_.unsupported(c, "'" + callee.name + "' inside an expression (it must be a statement of its own)");
      return nullptr;
    case Callee::Kind::VectorConstructor: return vector_construct(c, *t, arg_cursors);
    case Callee::Kind::Conversion: {
      // A scalar or vector conversion, as explicit_cast and the vector
      // constructors build it; to anything else the shim's body (To(x)).
      if (nargs != 1) break;
      // A copy of the operand (of an object in the constant space, for __mslport_load).
      if (callee.name == "__mslport_value" || callee.name == "__mslport_load") return expr(arg_cursors[0]);
      // From a class (`static_cast<U>(z)` with z a complex_t): its
      // conversion operator, which the shim's body calls.
      if (t->is_scalar() || t->is_vector()) {
        auto from = convert_type(ctx_, clang_getCanonicalType(clang_getCursorType(arg_cursors[0])), nullptr);
        if (from && from->kind == ir::Type::Kind::Struct && !is_packed_vector(*from)) return inline_call(c, fn);
      }
      if (t->is_vector()) return vector_construct(c, *t, arg_cursors);
      if (!t->is_scalar()) {  // a struct: a copy, or the shim's body (`(To)x`, its constructor)
        if (clang_equalTypes(clang_getCanonicalType(clang_getCursorType(arg_cursors[0])),
                             clang_getCanonicalType(clang_getCursorType(c))))
          return expr(arg_cursors[0]);
        return inline_call(c, fn);
      }
      auto a = expr(arg_cursors[0]);
      if (!a) return nullptr;
      if (a->type == *t) return a;
      if (a->kind == ir::Expr::Kind::IntLit) return convert(std::move(a), *t, loc);
      auto e = make(ir::Expr::Kind::Cast, *t, loc);
      e->args.push_back(std::move(a));
      return e;
    }
    case Callee::Kind::SimdMatrix: return simd_matrix_call(c, callee.name, *t);
    case Callee::Kind::OtherMetal: {
      // Constant-foldable shim helpers (mem_flags operator|).
      int64_t v = 0;
      if (evaluate_int(c, &v)) return ir::make_int(*t, v, loc);
      if (auto k = constant_value(c)) return k;
      ctx_.unsupported(c, "Metal function '" + callee.name + "'");
      return nullptr;
    }
    case Callee::Kind::User: return inline_call(c, fn);
    case Callee::Kind::Unknown: break;
  }
  ctx_.unsupported(c, "call to '" + spelling(fn) + "'");
  return nullptr;
}

// simd_vote and quad_vote (MSL 6.9.2, 6.9.3), whose IR type is their
// vote_t: the constructor keeps the value (quad_vote its four bottom bits),
// the explicit conversion to vote_t is the value, and all() / any() test the
// bits of the group's lanes, set or any set. They do not look at which lanes
// are active: simd_ballot(c).all() is false where a lane is inactive, unlike
// simd_all(c). Bits above the group's lanes are undefined in Metal and are
// left out.
ir::ExprPtr FunctionBuilder::vote_member(CXCursor c, CXCursor fn, const std::vector<CXCursor>& args) {
  const int lanes = vote_lanes(ctx_, clang_getCursorSemanticParent(fn));
  const ir::Type vote_t = ir::Type::scalar_of(lanes == 4 ? ir::ScalarKind::UInt : ir::ScalarKind::ULong);
  const uint64_t mask = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
  ir::SourceLoc loc = ctx_.loc(c);
  auto lane_bits = [&] { return ir::make_int(vote_t, (int64_t)mask, loc); };
  const CXCursorKind fk = clang_getCursorKind(fn);
  if (fk == CXCursor_Constructor) {
    if (args.size() > 1) {
      ctx_.unsupported(c, "construction of '" + spelling(clang_getCursorSemanticParent(fn)) + "'");
      return nullptr;
    }
    ir::ExprPtr v = args.empty() ? ir::make_int(vote_t, 0, loc) : expr(args[0]);
    if (!v) return nullptr;
    v = convert(std::move(v), vote_t, loc);
    if (lanes == 4) v = ir::make_binary(ir::BinaryOp::BitAnd, vote_t, std::move(v), lane_bits(), loc);
    return v;
  }
  CXCursor obj = member_call_object(c);
  std::string name = spelling(fn);
  if (clang_Cursor_isNull(obj) || !args.empty() || (fk == CXCursor_CXXMethod && name != "all" && name != "any")) {
    ctx_.unsupported(c, "member function '" + name + "' of '" + spelling(clang_getCursorSemanticParent(fn)) + "'");
    return nullptr;
  }
  auto object = object_value(obj, loc);
  if (!object) return nullptr;
  if (fk == CXCursor_ConversionFunction) return object;
  const ir::Type b = ir::Type::scalar_of(ir::ScalarKind::Bool);
  auto masked = ir::make_binary(ir::BinaryOp::BitAnd, vote_t, std::move(object), lane_bits(), loc);
  if (name == "all") return ir::make_binary(ir::BinaryOp::Eq, b, std::move(masked), lane_bits(), loc);
  return ir::make_binary(ir::BinaryOp::Ne, b, std::move(masked), ir::make_int(vote_t, 0, loc), loc);
}

// atomic_*_explicit(object, operands..., order...): a Call of the object
// pointer and the operands. Metal's atomics take memory_order_relaxed only;
// the order arguments are checked and dropped.
ir::ExprPtr FunctionBuilder::atomic_call(CXCursor c, ir::ExprPtr e) {
  const int n = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < n; ++i) {
    CXCursor a = clang_Cursor_getArgument(c, i);
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(a)));
    if (clang_getCursorKind(decl) == CXCursor_EnumDecl && spelling(decl) == "memory_order") {
      int64_t order = -1;
      if (!evaluate_int(a, &order) || order != 0) {
        ctx_.unsupported(a, "a memory order other than memory_order_relaxed for '" + e->spelling + "'");
        return nullptr;
      }
      continue;
    }
    auto x = expr(a);
    if (!x) return nullptr;
    e->args.push_back(std::move(x));
  }
  if (e->args.empty() || !e->args[0]->type.is_pointer() || !e->args[0]->type.elem->atomic) {
    ctx_.error(c, "the first argument of '" + e->spelling + "' must point to an atomic type");
    return nullptr;
  }
  // The operands have the atomic's value type (clang already converted them).
  const ir::Type value = ir::Type::scalar_of(e->args[0]->type.elem->scalar);
  for (size_t i = 1; i < e->args.size(); ++i)
    if (e->args[i]->type.is_scalar()) {
      ir::SourceLoc l = e->args[i]->loc;
      e->args[i] = convert(std::move(e->args[i]), value, l);
    }
  return e;
}

// simdgroup_matrix operations are SimdMatrixOp expressions (spelling = the
// Metal name), with every argument explicit: Metal's defaults (elements_per_row = the
// matrix's columns, matrix_origin = ulong2(0), transpose_matrix = false)
// are filled in, so a backend never needs the declaration. Output matrices
// (the first argument of load / multiply / multiply_accumulate) are passed
// as the variable itself (an lvalue), as in Metal.
ir::ExprPtr FunctionBuilder::simd_matrix_call(CXCursor c, const std::string& name, const ir::Type& t) {
  auto op = ir::simd_matrix_op_from_name(name);
  if (!op) {
    ctx_.unsupported(c, "simdgroup_matrix operation '" + name + "'");
    return nullptr;
  }
  auto e = make(ir::Expr::Kind::SimdMatrixOp, t, ctx_.loc(c));
  e->matrix_op = *op;
  e->spelling = name;
  int n = clang_Cursor_getNumArguments(c);
  ir::Type ulong_t = ir::Type::scalar_of(ir::ScalarKind::ULong);
  for (int i = 0; i < n; ++i) {
    CXCursor a = clang_Cursor_getArgument(c, i);
    // A default argument lives in the shim's declaration.
    FilePos p = expansion_pos(clang_getCursorLocation(a));
    bool is_default = !p.file || ctx_.in_shim(p.file);
    if (!is_default) {
      auto x = expr(a);
      if (!x) return nullptr;
      e->args.push_back(std::move(x));
      continue;
    }
    bool is_load_store = name == "simdgroup_load" || name == "simdgroup_store";
    if (!is_load_store || i < 2 || i > 4) {
      ctx_.unsupported(c, "default argument " + std::to_string(i) + " of '" + name + "'");
      return nullptr;
    }
    ir::SourceLoc loc = ctx_.loc(c);
    if (i == 2) {
      int cols = e->args.empty() ? 8 : e->args[0]->type.count;
      e->args.push_back(ir::make_int(ulong_t, cols, loc));
    } else if (i == 3) {
      auto origin = make(ir::Expr::Kind::VectorConstruct, ir::Type::vector_of(ir::ScalarKind::ULong, 2), loc);
      origin->args.push_back(ir::make_int(ulong_t, 0, loc));
      origin->args.push_back(ir::make_int(ulong_t, 0, loc));
      e->args.push_back(std::move(origin));
    } else {
      e->args.push_back(ir::make_bool(false, loc));
    }
  }
  return e;
}

// simdgroup_matrix<T, C, R>(T dval): Metal's diagonal matrix (MSL 6.7.1).
ir::ExprPtr FunctionBuilder::simd_matrix_diagonal(CXCursor c, CXCursor value) {
  auto t = type_of(c);
  auto v = expr(value);
  if (!t || !v) return nullptr;
  ir::SourceLoc loc = ctx_.loc(c);
  auto e = make(ir::Expr::Kind::SimdMatrixOp, *t, loc);
  e->matrix_op = ir::SimdMatrixOpKind::Diagonal;
  e->spelling = ir::simd_matrix_op_name(e->matrix_op);
  e->args.push_back(convert(std::move(v), ir::Type::scalar_of(t->scalar), loc));
  return e;
}

// m.thread_elements(): the lane's two elements, a vec<T, 2> lvalue. The IR
// is m[thread_elements()], the tile subscripted by the calling lane's pair
// index; passes/simd_matrix_elements.cc replaces the call with the lane map
// once helpers are inlined (the lane is a kernel builtin, unknown in a
// helper) and gathers tiles written this way before they are read whole.
ir::ExprPtr FunctionBuilder::thread_elements(CXCursor c) {
  CXCursor obj = member_call_object(c);
  if (clang_Cursor_isNull(obj)) {
    ctx_.unsupported(c, "thread_elements() without a simdgroup_matrix object");
    return nullptr;
  }
  ir::SourceLoc loc = ctx_.loc(c);
  auto object = object_value(obj, loc);
  if (!object) return nullptr;
  if (object->type.kind != ir::Type::Kind::SimdMatrix || object->type.count != 8) {
    ctx_.unsupported(c, "thread_elements() of a tile other than 8x8");
    return nullptr;
  }
  const ir::Type pair = ir::Type::vector_of(object->type.scalar, 2);
  auto lane_pair =
      ir::make_intrinsic_call(ir::Intrinsic::ThreadElements, ir::Type::scalar_of(ir::ScalarKind::UInt), {}, loc);
  auto e = make(ir::Expr::Kind::Index, pair, loc);
  e->args.push_back(std::move(object));
  e->args.push_back(std::move(lane_pair));
  return e;
}

// Calls to the user's helper functions are inlined when the helper's body is
// a single `return <expr>;` (the `bf16_to_f32` shape): parameters are
// replaced by the argument expressions. Arguments with side effects may only
// be substituted for parameters used exactly once, and the helper may not
// assign (its parameters would alias the caller's variables).
ir::ExprPtr FunctionBuilder::inline_call(CXCursor c, CXCursor fn) {
  std::string name = spelling(fn);
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) {
    if (report_unformed_instance(ctx_, c, fn)) return nullptr;
    // A compiler builtin with constant arguments (`__builtin_ctz(N)` of a
    // template parameter, MLX's hadamard) is its value.
    if (name.rfind("__builtin_", 0) == 0) {
      if (auto t = type_of(c)) {
        int64_t v = 0;
        if (t->is_scalar() && evaluate_int(c, &v)) return ir::make_int(*t, v, ctx_.loc(c));
      }
    }
    ctx_.unsupported(c, "call to function '" + name + "' without a definition");
    return nullptr;
  }
  // clang's errors in it (or in what it instantiates) say why it cannot be
  // read, as for a function built whole (build_function).
  if (const auto* errs = function_errors(ctx_, def)) {
    for (auto& d : *errs) ctx_.diags.report(d.severity, d.loc, d.message);
    ctx_.error(c, "'" + name + "' cannot be translated (errors above)");
    return nullptr;
  }
  std::string usr = usr_of(def);
  for (auto& s : inline_stack_)
    if (s == usr) {
      ctx_.error(c, "recursive call to '" + name +
                        "' in a function that returns an expression: this recursion is not supported yet");
      return nullptr;
    }
  // Anything but `{ return expr; }` is built as a function of its own.
  CXCursor ret_expr = clang_getNullCursor();
  std::vector<CXCursor> params;
  for (CXCursor ch : children(def)) {
    if (clang_getCursorKind(ch) == CXCursor_ParmDecl) params.push_back(ch);
    if (clang_getCursorKind(ch) != CXCursor_CompoundStmt) continue;
    auto body = children(ch);
    if (body.size() == 1 && clang_getCursorKind(body[0]) == CXCursor_ReturnStmt) {
      auto r = expr_children(body[0]);
      if (r.size() == 1) ret_expr = r[0];
    }
  }
  int nargs = clang_Cursor_getNumArguments(c);
  if (clang_Cursor_isNull(ret_expr) || nargs != (int)params.size()) return user_call(c, fn);
  // Count parameter uses and look for assignments, reference parameters and
  // default arguments, which need the function form.
  for (CXCursor p : params)
    if (clang_getCanonicalType(clang_getCursorType(p)).kind == CXType_LValueReference) return user_call(c, fn);
  for (int i = 0; i < nargs; ++i) {
    CXCursor a = clang_Cursor_getArgument(c, i);
    if (clang_getCursorKind(a) == CXCursor_UnexposedExpr && children(a).empty()) return user_call(c, fn);
  }
  struct Scan {
    std::map<std::string, int> uses;
    bool assigns = false;
  } scan;
  clang_visitChildren(
      ret_expr,
      [](CXCursor x, CXCursor, CXClientData d) {
        auto* s = static_cast<Scan*>(d);
        CXCursorKind k = clang_getCursorKind(x);
        if (k == CXCursor_DeclRefExpr) s->uses[usr_of(clang_getCursorReferenced(x))]++;
        if (k == CXCursor_CompoundAssignOperator) s->assigns = true;
        if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(x) == CXBinaryOperator_Assign)
          s->assigns = true;
        if (k == CXCursor_UnaryOperator) {
          auto op = clang_getCursorUnaryOperatorKind(x);
          if (op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec || op == CXUnaryOperator_PostInc ||
              op == CXUnaryOperator_PostDec || op == CXUnaryOperator_AddrOf)
            s->assigns = true;
        }
        return CXChildVisit_Recurse;
      },
      &scan);
  if (scan.assigns) return user_call(c, fn);
  // `{ return expr; }` with parameters replaced by the argument expressions:
  // the call reads as the expression it computes. Arguments with side
  // effects may only stand for parameters used exactly once.
  std::vector<ir::ExprPtr> args;
  std::map<std::string, const ir::Expr*> subst;
  for (int i = 0; i < nargs; ++i) {
    auto a = expr(clang_Cursor_getArgument(c, i));
    if (!a) return nullptr;
    std::string pusr = usr_of(params[i]);
    if (ir::analysis::has_side_effects(*a) && scan.uses[pusr] != 1) return user_call(c, fn);
    subst[pusr] = a.get();
    args.push_back(std::move(a));
  }
  substitutions_.push_back(std::move(subst));
  inline_stack_.push_back(usr);
  auto e = expr(ret_expr);
  inline_stack_.pop_back();
  substitutions_.pop_back();
  if (!e) return nullptr;
  // The result has the helper's return type (clang already converted the
  // returned expression to it).
  auto t = type_of(c);
  if (!t) return nullptr;
  return convert(std::move(e), *t, ctx_.loc(c));
}

ir::ExprPtr FunctionBuilder::explicit_cast(CXCursor c) {
  auto ch = expr_children(c);
  auto t = type_of(c);
  if (!t) return nullptr;
  // The operand is the last expression: any before it are the written
  // type's template arguments (`Arr<float, 2>({1.0, 2.0})`).
  if (ch.empty()) {
    ctx_.unsupported(c, "cast form");
    return nullptr;
  }
  auto a = expr(ch.back());
  if (!a) return nullptr;
  ir::SourceLoc loc = ctx_.loc(c);
  // clang often puts the real conversion on an implicit cast under a no-op
  // explicit one (`float(u)` = Functional<NoOp>(Implicit<IntToFloat>(u))):
  // keep one Cast, at the explicit cast's location.
  if (a->kind == ir::Expr::Kind::Cast && a->type == *t) {
    a->loc = loc;
    return a;
  }
  if (a->kind == ir::Expr::Kind::VectorConstruct && a->type == *t) return a;
  // `S{x, 1}`, `(S){x, 1}`: the list is already a value of its type.
  if (a->kind == ir::Expr::Kind::InitList && a->type == *t) return a;
  // `simdgroup_float8x8(0)`: the constructor is the whole conversion.
  if (a->kind == ir::Expr::Kind::SimdMatrixOp && a->type == *t) return a;
  if (a->kind == ir::Expr::Kind::IntLit) return convert(std::move(a), *t, loc);  // folds integer targets
  if (a->kind == ir::Expr::Kind::FloatLit && a->type == *t) return a;            // `float(2)`: already 2.0f
  auto e = make(ir::Expr::Kind::Cast, *t, loc);
  e->args.push_back(std::move(a));
  return e;
}

// True when the cast written at `c` names a reference type
// (`reinterpret_cast<device float4&>(x)`): clang gives the expression the
// referenced type, as an lvalue, so only the written type tells.
bool FunctionBuilder::casts_to_reference(CXCursor c, bool* known) {
  auto toks = cursor_tokens(ctx_.tu, c);
  *known = false;
  if (toks.size() < 3 || toks[0].text.find("_cast") == std::string::npos || toks[1].text != "<") return false;
  int depth = 0;
  for (size_t i = 1; i < toks.size(); ++i) {
    const std::string& x = toks[i].text;
    if (x == "<" || x == "(" || x == "[") ++depth;
    if (x == ">" || x == ")" || x == "]") --depth;
    if (x == ">>") depth -= 2;
    if (depth <= 0) {
      *known = true;
      return x == ">" && (toks[i - 1].text == "&" || toks[i - 1].text == "&&");
    }
  }
  return false;
}

// reinterpret_cast, C++'s as Metal has it. Between pointers it is the
// C-style pointer cast (`(device const float4*)p`, the same Cast); to a
// reference, `*(T*)&x`; between scalars and vectors of one size, as_type.
// A pointer to or from an integer has no IR form and is refused.
ir::ExprPtr FunctionBuilder::reinterpret_cast_expr(CXCursor c) {
  auto ch = expr_children(c);
  auto t = type_of(c);
  if (!t) return nullptr;
  if (ch.size() != 1) {
    ctx_.unsupported(c, "reinterpret_cast form");
    return nullptr;
  }
  auto a = expr(ch[0]);
  if (!a) return nullptr;
  ir::SourceLoc loc = ctx_.loc(c);
  // An array operand is the pointer to its first element (`reinterpret_cast<
  // thread T*>(frags)`, MLX's steel tiles), in the array's address space.
  if (t->is_pointer() && a->type.is_array()) {
    CXType object = clang_getCursorType(ch[0]);
    ir::Type elem = *a->type.elem;
    ir::Type first = ir::Type::pointer_to(elem, address_space_of(object), clang_isConstQualifiedType(object) != 0);
    auto index = ir::make_index(std::move(a), ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), 0, loc), elem);
    a = ir::make_unary(ir::UnaryOp::AddrOf, first, std::move(index), loc);
  }
  if (t->is_pointer() && a->type.is_pointer()) {
    if (a->type == *t) return a;
    auto e = make(ir::Expr::Kind::Cast, *t, loc);
    e->args.push_back(std::move(a));
    return e;
  }
  if (t->is_pointer() || a->type.is_pointer()) {
    ctx_.unsupported(c, "reinterpret_cast between a pointer and '" +
                            ir::type_name(ctx_.module, t->is_pointer() ? a->type : *t) +
                            "' (only pointers to pointers, references and as_type's same-size values)");
    return nullptr;
  }
  bool known = false;
  bool reference = casts_to_reference(c, &known);
  if (!known) {
    ctx_.unsupported(c, "reinterpret_cast whose type is not written at its use (in a macro)");
    return nullptr;
  }
  if (reference) {
    // The object keeps its address space: reinterpret_cast cannot change it.
    CXType object = clang_getCursorType(ch[0]);
    ir::AddressSpace space = address_space_of(object);
    ir::Type from = ir::Type::pointer_to(a->type, space, clang_isConstQualifiedType(object) != 0);
    ir::Type to = ir::Type::pointer_to(*t, space, clang_isConstQualifiedType(clang_getCursorType(c)) != 0);
    auto addr = ir::make_unary(ir::UnaryOp::AddrOf, from, std::move(a), loc);
    auto cast = make(ir::Expr::Kind::Cast, to, loc);
    cast->args.push_back(std::move(addr));
    return ir::make_unary(ir::UnaryOp::Deref, *t, std::move(cast), loc);
  }
  if (a->type == *t) return a;
  if ((t->is_scalar() || t->is_vector()) && (a->type.is_scalar() || a->type.is_vector()) &&
      ir::type_size(ctx_.module, *t) == ir::type_size(ctx_.module, a->type)) {
    auto e = make(ir::Expr::Kind::Bitcast, *t, loc);
    e->args.push_back(std::move(a));
    return e;
  }
  ctx_.unsupported(c, "reinterpret_cast from '" + ir::type_name(ctx_.module, a->type) + "' to '" +
                          ir::type_name(ctx_.module, *t) + "'");
  return nullptr;
}

// Metal vector constructors. One argument: a scalar is splatted and a vector
// of the same length converted element-wise, both as a Cast (the same node an
// implicit splat gets). Several arguments: the pieces (scalars and vectors)
// fill the lanes in order, each converted to the element type.
ir::ExprPtr FunctionBuilder::vector_construct(CXCursor c, const ir::Type& t, const std::vector<CXCursor>& elems) {
  ir::SourceLoc loc = ctx_.loc(c);
  // `float4 v = {};` and `float4()`: value-initialised, every lane zero.
  if (elems.empty()) {
    ir::Type lane = ir::Type::scalar_of(t.scalar);
    auto zero =
        lane.is_bool() ? ir::make_bool(false, loc) : ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), 0, loc);
    return convert(convert(std::move(zero), lane, loc), t, loc);
  }
  std::vector<ir::ExprPtr> pieces;
  int lanes = 0;
  for (CXCursor x : elems) {
    auto a = expr(x);
    if (!a) return nullptr;
    // `float3(p)` of a packed_float3: its elements (the shim's variadic
    // constructor takes the packed struct as it is).
    if (is_packed_vector(a->type) && ir::analysis::is_repeatable(*a)) {
      const ir::StructField& f = ctx_.module.structs[a->type.struct_index].fields[0];
      for (int i = 0; i < f.type.count; ++i) {
        auto elems_of = make(ir::Expr::Kind::Member, f.type, a->loc);
        elems_of->index = 0;
        elems_of->args.push_back(a->clone());
        pieces.push_back(ir::make_index(
            std::move(elems_of), ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), i, a->loc), *f.type.elem));
      }
      lanes += f.type.count;
      continue;
    }
    if (!a->type.is_scalar() && !a->type.is_vector()) {
      ctx_.error(x, "vector constructor argument of type '" + ir::type_name(ctx_.module, a->type) + "'");
      return nullptr;
    }
    lanes += a->type.is_vector() ? a->type.count : 1;
    pieces.push_back(std::move(a));
  }
  if (pieces.size() == 1 && (pieces[0]->type.is_scalar() || pieces[0]->type.count == t.count)) {
    ir::ExprPtr a = std::move(pieces[0]);
    if (a->type == t) return a;
    auto e = make(ir::Expr::Kind::Cast, t, loc);
    e->args.push_back(std::move(a));
    return e;
  }
  if (lanes != t.count) {
    ctx_.error(c, "vector constructor for '" + ir::type_name(ctx_.module, t) + "' has " + std::to_string(lanes) +
                      " components");
    return nullptr;
  }
  auto e = make(ir::Expr::Kind::VectorConstruct, t, loc);
  for (auto& a : pieces) {
    ir::SourceLoc aloc = a->loc;
    ir::Type want = a->type.is_vector() ? ir::Type::vector_of(t.scalar, a->type.count) : ir::Type::scalar_of(t.scalar);
    e->args.push_back(convert(std::move(a), want, aloc));
  }
  return e;
}

ir::ExprPtr FunctionBuilder::compound_literal(CXCursor c) {
  auto t = type_of(c);
  if (!t) return nullptr;
  auto ch = expr_children(c);
  if (ch.size() == 1 && clang_getCursorKind(ch[0]) == CXCursor_InitListExpr) {
    if (t->is_vector()) return vector_construct(c, *t, expr_children(ch[0]));
    return init_list(ch[0]);
  }
  ctx_.unsupported(c, "compound literal");
  return nullptr;
}

ir::ExprPtr FunctionBuilder::init_list(CXCursor c) {
  auto t = type_of(c);
  if (!t) return nullptr;
  if (t->is_vector()) return vector_construct(c, *t, expr_children(c));
  // `float y{2.0f}`, `int n{}`: a scalar's list is its one value, or zero.
  if (t->is_scalar()) {
    auto kids = expr_children(c);
    if (kids.size() > 1) {
      ctx_.error(c, "more than one value in the brace list of a scalar");
      return nullptr;
    }
    auto v = kids.empty() ? ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), 0, ctx_.loc(c)) : expr(kids[0]);
    if (!v) return nullptr;
    return convert(std::move(v), *t, ctx_.loc(c));
  }
  // Arrays and structs: elements not listed are zero (C semantics), so the
  // list may be shorter than the aggregate.
  auto kids = expr_children(c);
  for (CXCursor x : kids)
    if (is_designated(x)) return designated_init_list(c, *t, kids);
  std::vector<ir::ExprPtr> items;
  for (CXCursor x : kids) {
    auto a = expr(x);
    if (!a) return nullptr;
    items.push_back(std::move(a));
  }
  size_t pos = 0;
  auto e = braced_list(*t, items, &pos, ctx_.loc(c));
  if (e && pos < items.size()) {
    ctx_.error(items[pos]->loc, "excess elements in the brace list of '" + ir::type_name(ctx_.module, *t) + "'");
    return nullptr;
  }
  return e;
}

// The list as written may leave out the braces of inner aggregates
// (`Wrap<float, 2>({1.0, 2.0})` for a struct holding `float e[2]`; C11
// 6.7.9p20, C++ [dcl.init.aggr] brace elision), and clang gives it so. The
// IR's lists are fully braced, as the targets read them the same way only
// then: an element whose type is not the member's, for an array or struct
// member, starts that member's own list, which takes as many elements as
// it needs. A union's list initialises its first member.
ir::ExprPtr FunctionBuilder::braced_list(const ir::Type& t, std::vector<ir::ExprPtr>& items, size_t* pos,
                                         const ir::SourceLoc& loc) {
  auto e = make(ir::Expr::Kind::InitList, t, loc);
  int n = 0;
  if (t.is_array()) n = t.count > 0 ? t.count : (int)(items.size() - *pos);
  if (t.is_struct()) {
    const ir::StructDef& sd = ctx_.module.structs[t.struct_index];
    n = sd.is_union ? std::min<int>(1, (int)sd.fields.size()) : (int)sd.fields.size();
  }
  for (int i = 0; i < n && *pos < items.size(); ++i) {
    const ir::Type m = t.is_array() ? *t.elem : ctx_.module.structs[t.struct_index].fields[i].type;
    ir::ExprPtr& item = items[*pos];
    if (item->type == m) {
      e->args.push_back(std::move(item));
      ++*pos;
    } else if (m.is_array() || m.is_struct()) {
      auto inner = braced_list(m, items, pos, item->loc);
      if (!inner) return nullptr;
      e->args.push_back(std::move(inner));
    } else if (m.is_vector() && !item->type.is_vector()) {
      // (clang refuses `{a, b, c, d, w}` for `struct { float4 v; float w; }`
      // itself; a guard, so that a scalar never splats here.)
      ctx_.error(item->loc, "a brace list that leaves out the braces of a vector member is not supported yet");
      return nullptr;
    } else {
      ir::SourceLoc at = item->loc;
      e->args.push_back(m.is_scalar() || m.is_vector() ? convert(std::move(item), m, at) : std::move(item));
      ++*pos;
    }
  }
  return e;
}

bool FunctionBuilder::is_designated(CXCursor x) {
  if (clang_getCursorKind(x) != CXCursor_UnexposedExpr) return false;
  auto toks = cursor_tokens(ctx_.tu, x);
  return !toks.empty() && (toks[0].text == "[" || toks[0].text == ".");
}

// `{ [0 ... N - 1] = v }`, `{ [2] = a, b }` (GNU and C99 array designators)
// and `{ .x = 1 }`: every element placed where its designator says, the
// ones not named zero, as C does.
ir::ExprPtr FunctionBuilder::designated_init_list(CXCursor c, const ir::Type& t, const std::vector<CXCursor>& kids) {
  int n = t.is_array() ? t.count : (t.is_struct() ? (int)ctx_.module.structs[t.struct_index].fields.size() : 0);
  if (n <= 0 || n > 65536) {
    ctx_.unsupported(c, "designated initializer for type '" + ir::type_name(ctx_.module, t) + "'");
    return nullptr;
  }
  auto elem_type = [&](int i) { return t.is_array() ? *t.elem : ctx_.module.structs[t.struct_index].fields[i].type; };
  std::vector<ir::ExprPtr> slots(n);
  int pos = 0;
  for (CXCursor x : kids) {
    int first = pos, last = pos;
    CXCursor value = x;
    if (is_designated(x)) {
      auto parts = expr_children(x);
      auto toks = cursor_tokens(ctx_.tu, x);
      int64_t a = 0, b = 0;
      if (toks[0].text == "[" && parts.size() == 3 && evaluate_int(parts[0], &a) && evaluate_int(parts[1], &b)) {
        first = (int)a;
        last = (int)b;
        value = parts[2];
      } else if (toks[0].text == "[" && parts.size() == 2 && evaluate_int(parts[0], &a)) {
        first = last = (int)a;
        value = parts[1];
      } else if (toks[0].text == "." && toks.size() > 1 && t.is_struct() && parts.size() == 1) {
        const auto& fields = ctx_.module.structs[t.struct_index].fields;
        first = -1;
        for (size_t f = 0; f < fields.size(); ++f)
          if (fields[f].name == toks[1].text) first = (int)f;
        last = first;
        value = parts[0];
      } else {
        ctx_.unsupported(x, "designator '" + source_text(ctx_.tu, x) + "'");
        return nullptr;
      }
    }
    if (first < 0 || last < first || last >= n) {
      ctx_.error(x, "designated initializer out of range");
      return nullptr;
    }
    for (int i = first; i <= last; ++i) {
      auto v = expr(value);
      if (!v) return nullptr;
      ir::Type et = elem_type(i);
      if (et.is_scalar() || et.is_vector()) {
        ir::SourceLoc vloc = v->loc;
        v = convert(std::move(v), et, vloc);
      }
      slots[i] = std::move(v);
    }
    pos = last + 1;
  }
  auto e = make(ir::Expr::Kind::InitList, t, ctx_.loc(c));
  for (int i = 0; i < n; ++i) {
    if (!slots[i]) {
      ir::Type et = elem_type(i);
      if (et.is_scalar()) {
        slots[i] = convert(ir::make_int(ir::Type::scalar_of(ir::ScalarKind::Int), 0, ctx_.loc(c)), et, ctx_.loc(c));
      } else {
        slots[i] = make(ir::Expr::Kind::InitList, et, ctx_.loc(c));  // {}: zero
      }
    }
    e->args.push_back(std::move(slots[i]));
  }
  return e;
}

bool FunctionBuilder::vector_accessor(CXCursor c, CXCursor sub, std::string* name) {
  FilePos ne = spelling_pos(clang_getRangeEnd(clang_getCursorExtent(c)));
  FilePos se = spelling_pos(clang_getRangeEnd(clang_getCursorExtent(sub)));
  if (!ne.file || !se.file || !clang_File_isEqual(ne.file, se.file) || ne.offset <= se.offset) return false;
  auto toks = file_tokens(ctx_.tu, ne.file, se.offset, ne.offset);
  if (toks.size() != 2 || toks[0].text != "." || toks[1].kind != CXToken_Identifier) return false;
  *name = toks[1].text;
  return true;
}

ir::ExprPtr FunctionBuilder::swizzle(CXCursor c, CXCursor base_cursor, const std::string& accessor) {
  auto t = type_of(c);
  if (!t) return nullptr;
  std::vector<int> comps;
  if (!swizzle_components(accessor, &comps)) {
    ctx_.unsupported(c, "vector component access '." + accessor + "'");
    return nullptr;
  }
  auto base = expr(base_cursor);
  if (!base) return nullptr;
  for (int comp : comps)
    if (!base->type.is_vector() || comp >= base->type.count) {
      ctx_.error(c, "vector component access '." + accessor + "' out of range");
      return nullptr;
    }
  auto e = make(ir::Expr::Kind::Swizzle, *t, ctx_.loc(c));
  e->components = comps;
  e->args.push_back(std::move(base));
  return e;
}

ir::ExprPtr FunctionBuilder::unexposed(CXCursor c) {
  auto ch = expr_children(c);
  if (ch.empty()) {
    // Default arguments and other leaf wrappers: only constants are usable.
    auto t = type_of(c);
    int64_t v = 0;
    if (t && evaluate_int(c, &v)) return ir::make_int(*t, v, ctx_.loc(c));
    if (t) ctx_.unsupported(c, "expression '" + source_text(ctx_.tu, c) + "'");
    return nullptr;
  }
  if (ch.size() != 1) {
    ctx_.unsupported(c, "expression '" + source_text(ctx_.tu, c) + "'");
    return nullptr;
  }
  CXCursor sub = ch[0];
  CXType sub_ct = clang_getCanonicalType(clang_getCursorType(sub));
  // ext_vector member access: the node's extent ends after `.name`, past
  // its operand's (an implicit cast has exactly its operand's extent). Not
  // a boxed argument's `.v`, a field (reference_arguments.h).
  const bool boxed = clang_getCursorKind(sub) == CXCursor_MemberRefExpr && boxed_value(sub).has_value();
  if (sub_ct.kind == CXType_ExtVector && !boxed) {
    std::string accessor;
    if (vector_accessor(c, sub, &accessor)) return swizzle(c, sub, accessor);
    CXType self_ct = clang_getCanonicalType(clang_getCursorType(c));
    // The accessor is not readable when it is written inside a macro body.
    // It shows as an extent that differs from the operand's, a changed lane
    // count, or (libclang names implicit casts after their operand's
    // declaration) a lost name.
    // (An assignment or a call has no accessor: the node around one of the
    // same type and extent holds its temporaries, as ExprWithCleanups.)
    const CXCursorKind sub_kind = clang_getCursorKind(sub);
    const bool operation = sub_kind == CXCursor_BinaryOperator || sub_kind == CXCursor_CompoundAssignOperator ||
                           sub_kind == CXCursor_CallExpr;
    bool accessor_in_macro = !clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(sub)) ||
                             self_ct.kind != CXType_ExtVector ||
                             clang_getNumElements(self_ct) != clang_getNumElements(sub_ct) ||
                             (spelling(c).empty() && !spelling(sub).empty() && !operation);
    if (accessor_in_macro) {
      ctx_.unsupported(c, "vector component access inside a macro body");
      return nullptr;
    }
  }
  auto a = expr(sub);
  if (!a) return nullptr;
  CXType self_ct = clang_getCanonicalType(clang_getCursorType(c));
  // Function-to-pointer decay of a callee never reaches here (calls take
  // the callee from the CallExpr); a bare function name is not a value.
  if (self_ct.kind == CXType_Pointer && a->type.is_array()) return a;  // array decay: no node
  auto t = type_of(c);
  if (!t) return nullptr;
  if (*t == a->type) return a;
  // Adding const to a pointee is a qualification conversion, not a value
  // conversion.
  if (t->is_pointer() && a->type.is_pointer() && t->space == a->type.space && *t->elem == *a->type.elem) return a;
  return convert(std::move(a), *t, ctx_.loc(c));
}

CXCursor member_call_object(CXCursor call) {
  // The callee comes before the arguments, which may be member accesses too.
  for (CXCursor ch : children(call)) {
    if (clang_getCursorKind(ch) != CXCursor_MemberRefExpr) continue;
    for (CXCursor base : children(ch))
      if (clang_isExpression(clang_getCursorKind(base))) return base;
    break;
  }
  return clang_getNullCursor();
}

ir::ExprPtr FunctionBuilder::object_value(CXCursor obj, const ir::SourceLoc& loc) {
  auto object = expr(obj);
  if (object && object->type.is_pointer()) {  // `p->f()`: the object is *p
    ir::Type pointee = *object->type.elem;
    object = ir::make_unary(ir::UnaryOp::Deref, pointee, std::move(object), loc);
  }
  return object;
}

}  // namespace mslport::front
