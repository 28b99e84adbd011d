// Helper functions: the user's (non-kernel) functions and template instances,
// built once each into Module::functions; calls to them become UserCall
// expressions that passes::inline_functions replaces by their bodies.
#include <cctype>

#include "front/builder.h"
#include "front/cursor_util.h"
#include "front/tail_calls.h"
#include "front/types.h"
#include "ir/analysis/purity.h"
#include "ir/initializer_stores.h"

namespace mslport::front {

std::string template_args_text(CXCursor decl) {
  int n = clang_Cursor_getNumTemplateArguments(decl);
  if (n <= 0) return "";
  std::string s = "<";
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    switch (clang_Cursor_getTemplateArgumentKind(decl, i)) {
      case CXTemplateArgumentKind_Type: {
        std::string t = type_spelling(clang_Cursor_getTemplateArgumentType(decl, i));
        // The shim's renamed OpenCL keywords and address-space spellings read
        // as Metal.
        for (auto [from, to] : {std::pair<std::string, std::string>{"__global ", "device "},
                                {"__local ", "threadgroup "},
                                {"__constant ", "constant "},
                                {"__private ", ""},
                                {"__bf16", "bfloat"}}) {
          for (size_t p; (p = t.find(from)) != std::string::npos;) t.replace(p, from.size(), to);
        }
        s += t;
        break;
      }
      case CXTemplateArgumentKind_Integral: {
        CXType t = clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(decl, i));
        if (t.kind == CXType_Bool) s += clang_Cursor_getTemplateArgumentValue(decl, i) ? "true" : "false";
        else if (t.kind == CXType_UInt || t.kind == CXType_ULong || t.kind == CXType_ULongLong ||
                 t.kind == CXType_UShort || t.kind == CXType_UChar)
          s += std::to_string(clang_Cursor_getTemplateArgumentUnsignedValue(decl, i));
        else s += std::to_string(clang_Cursor_getTemplateArgumentValue(decl, i));
        break;
      }
      default: s += "?"; break;
    }
  }
  return s + ">";
}

namespace {
// `operator+` -> `operator_add`: a function name that is an identifier.
std::string identifier_for(const std::string& name) {
  static const std::pair<const char*, const char*> kOps[] = {
      {"operator+=", "operator_add_assign"}, {"operator-=", "operator_sub_assign"},
      {"operator*=", "operator_mul_assign"}, {"operator/=", "operator_div_assign"},
      {"operator==", "operator_eq"},         {"operator!=", "operator_ne"},
      {"operator<=", "operator_le"},         {"operator>=", "operator_ge"},
      {"operator[]", "operator_index"},      {"operator()", "operator_call"},
      {"operator<<", "operator_shl"},        {"operator>>", "operator_shr"},
      {"operator+", "operator_add"},         {"operator-", "operator_sub"},
      {"operator*", "operator_mul"},         {"operator/", "operator_div"},
      {"operator%", "operator_rem"},         {"operator<", "operator_lt"},
      {"operator>", "operator_gt"},          {"operator=", "operator_assign"},
      {"operator!", "operator_not"},         {"operator&", "operator_and"},
      {"operator|", "operator_or"},          {"operator^", "operator_xor"},
      {"operator~", "operator_bitnot"}};
  for (auto& [op, word] : kOps)
    if (name == op) return word;
  std::string s;
  for (char ch : name) s += std::isalnum((unsigned char)ch) || ch == '_' ? ch : '_';
  return s;
}
}  // namespace

std::string mangled_name(const std::string& name, const std::string& template_args) {
  std::string s = identifier_for(name);
  bool sep = false;
  for (char ch : template_args) {
    if (std::isalnum((unsigned char)ch)) {
      if (sep && s.back() != '_') s += '_';
      sep = false;
      s += ch == '-' ? 'm' : ch;
    } else if (ch == '-') {
      if (s.back() != '_') s += '_';
      s += "neg";
      sep = false;
    } else {
      sep = true;
    }
  }
  return s;
}

namespace {

// A name for the function that no other function of the module has.
std::string unique_function_name(const ir::Module& m, const std::string& base) {
  auto used = [&](const std::string& n) {
    for (auto& f : m.functions)
      if (f.def.name == n) return true;
    return false;
  };
  std::string n = base;
  for (int i = 2; used(n); ++i) n = base + "_" + std::to_string(i);
  return n;
}

// The struct a member function or constructor belongs to.
std::optional<ir::Type> owner_struct(FrontContext& ctx, CXCursor def) {
  CXCursor owner = clang_getCursorSemanticParent(def);
  std::string why;
  auto idx = struct_index(ctx, owner, &why);
  if (!idx) {
    ctx.unsupported(def, "member function of " + why);
    return std::nullopt;
  }
  return ir::Type::struct_of(*idx);
}

// Parameters of a helper: by value (pointers included) or by reference.
bool build_helper_params(FrontContext& ctx, CXCursor def, ir::Kernel& fd, std::vector<CXCursor>* parms) {
  bool ok = true;
  int n = clang_Cursor_getNumArguments(def);
  for (int i = 0; i < n; ++i) {
    CXCursor pc = clang_Cursor_getArgument(def, i);
    parms->push_back(pc);
    ir::Param p;
    p.name = spelling(pc);
    if (p.name.empty()) p.name = "arg" + std::to_string(i);
    p.loc = ctx.loc(pc);
    CXType ct = clang_getCanonicalType(clang_getCursorType(pc));
    std::string why;
    if (ct.kind == CXType_LValueReference || ct.kind == CXType_RValueReference) {
      CXType referent = clang_getPointeeType(ct);
      auto t = convert_type(ctx, referent, &why);
      if (!t) {
        ctx.unsupported(pc, "parameter '" + p.name + "' of " + why);
        ok = false;
        t = ir::Type::void_type();
      }
      p.kind = ir::Param::Kind::Reference;
      p.type = *t;
      p.space = address_space_of(referent);
      p.is_const = clang_isConstQualifiedType(referent) != 0;
    } else {
      auto t = convert_type(ctx, ct, &why);
      if (!t) {
        ctx.unsupported(pc, "parameter '" + p.name + "' of " + why);
        ok = false;
        t = ir::Type::void_type();
      }
      // An array parameter is a pointer to its first element (C's rule):
      // the function writes the caller's array.
      // Its address space and constness are its elements' (`constant const
      // long s[2]` is a `constant const long*`), read from the type as
      // written: the canonical array's element has lost them.
      if (t->is_array()) {
        CXType elem = clang_getArrayElementType(clang_getCursorType(pc));
        *t = ir::Type::pointer_to(*t->elem, address_space_of(elem), clang_isConstQualifiedType(elem) != 0);
      }
      p.kind = ir::Param::Kind::Value;
      p.type = *t;
    }
    fd.params.push_back(std::move(p));
  }
  return ok;
}

}  // namespace

const std::vector<Diagnostic>* function_errors(const FrontContext& ctx, CXCursor fn) {
  if (ctx.bad_functions.empty()) return nullptr;
  auto it = ctx.bad_functions.find(usr_of(fn));
  if (it != ctx.bad_functions.end()) return &it->second;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
  if (!clang_Cursor_isNull(tmpl)) {
    it = ctx.bad_functions.find(usr_of(tmpl));
    if (it != ctx.bad_functions.end()) return &it->second;
  }
  return nullptr;
}

bool report_unformed_instance(FrontContext& ctx, CXCursor call, CXCursor fn) {
  // A template instance whose body clang could not form has no
  // definition: the errors clang gave in the template are the reason.
  const std::vector<Diagnostic>* errs = function_errors(ctx, fn);
  if (!errs) return false;
  for (auto& d : *errs) ctx.diags.report(d.severity, d.loc, d.message);
  ctx.error(call, "'" + spelling(fn) + "' cannot be translated (errors above)");
  return true;
}

namespace {

// The default member initializers of a struct: field name -> initializer.
// Those of the fields of its anonymous unions and structs are the struct's
// too (C++ names those fields as the struct's own).
std::vector<std::pair<std::string, CXCursor>> default_member_initializers(CXCursor record) {
  std::vector<std::pair<std::string, CXCursor>> out;
  for (CXCursor f : children(record)) {
    CXCursorKind fk = clang_getCursorKind(f);
    if ((fk == CXCursor_StructDecl || fk == CXCursor_UnionDecl) && clang_Cursor_isAnonymousRecordDecl(f)) {
      auto inner = default_member_initializers(f);
      out.insert(out.end(), inner.begin(), inner.end());
      continue;
    }
    if (fk != CXCursor_FieldDecl) continue;
    // An array field's bound (`uchar b[2]`, `T e[N ? N : 1]`, any part of
    // which may be an expression child too) comes before the initializer,
    // which the first `=` or `{` outside brackets opens.
    bool has_init = false;
    unsigned init_at = 0;
    int depth = 0;
    for (const Token& t : cursor_tokens(clang_Cursor_getTranslationUnit(f), f)) {
      if (t.text == "[" || t.text == "(") ++depth;
      if (t.text == "]" || t.text == ")") --depth;
      if (depth == 0 && (t.text == "=" || t.text == "{")) {
        has_init = true;
        init_at = t.offset;
        break;
      }
    }
    if (!has_init) continue;
    for (CXCursor x : children(f)) {
      if (!clang_isExpression(clang_getCursorKind(x))) continue;
      if (expansion_pos(clang_getRangeStart(clang_getCursorExtent(x))).offset < init_at) continue;
      out.emplace_back(spelling(f), x);
      break;
    }
  }
  return out;
}

}  // namespace

bool constructor_does_work(const FrontContext& ctx, CXCursor ctor) {
  if (ctx.in_shim(ctor)) return false;
  CXCursor record = clang_getCursorSemanticParent(ctor);
  if (!default_member_initializers(clang_getCursorDefinition(record)).empty()) return true;
  CXCursor def = clang_getCursorDefinition(ctor);
  if (clang_Cursor_isNull(def)) return false;
  for (CXCursor ch : children(def)) {
    CXCursorKind k = clang_getCursorKind(ch);
    if (k == CXCursor_MemberRef) return true;
    if (k == CXCursor_CompoundStmt && !children(ch).empty()) return true;
  }
  return false;
}

namespace {
// A constructor's body, as a function returning the object:
//   S self; self.f = <default member initializer>; self.g = <mem-initializer>;
//   <body, with `this` = &self>; return self;
ir::StmtPtr construct_body(FrontContext& ctx, FunctionBuilder& b, ir::Function& f, CXCursor ctor,
                           const ir::Type& owner) {
  ir::SourceLoc loc = ctx.loc(ctor);
  int self = ir::add_var(f.def, "self", owner, loc);
  auto self_ref = [&]() { return ir::make_var_ref(f.def, self, loc); };
  b.self_ = self_ref();
  std::vector<ir::StmtPtr> out;
  out.push_back(ir::make_decl(self, nullptr, loc));
  const ir::StructDef& sd = ctx.module.structs[owner.struct_index];
  // A field of an anonymous union or struct is initialised as the
  // constructor's own (`S(float x) : f(x)`), so it is found through the
  // anonymous members, one Member per step, as member() finds it.
  auto assign_field = [&](const std::string& field, ir::ExprPtr value, const ir::SourceLoc& at) {
    std::vector<int> path;
    if (!field_path(ctx.module, owner.struct_index, field, &path)) {
      ctx.error(at, "no field '" + field + "' in struct '" + sd.name + "'");
      return;
    }
    ir::ExprPtr target = member_chain(ctx.module, self_ref(), path, at);
    if (value->kind == ir::Expr::Kind::InitList && target->type.is_array()) {  // C assigns no array
      for (auto& st : ir::initializer_stores(ctx.module, f.def, *target, std::move(value)))
        out.push_back(std::move(st));
      return;
    }
    out.push_back(ir::make_expr_stmt(ir::make_assign(std::move(target), std::move(value), at)));
  };
  // Member initializers written in the constructor win over the defaults.
  std::map<std::string, CXCursor> mem_inits;
  CXCursor body = clang_getNullCursor();
  auto kids = children(ctor);
  for (size_t i = 0; i < kids.size(); ++i) {
    CXCursorKind k = clang_getCursorKind(kids[i]);
    if (k == CXCursor_MemberRef && i + 1 < kids.size() && clang_isExpression(clang_getCursorKind(kids[i + 1]))) {
      std::string field = spelling(kids[i]);
      mem_inits[field] = kids[i + 1];
      ++i;
    } else if (k == CXCursor_TypeRef || k == CXCursor_CXXBaseSpecifier)
      ctx.unsupported(kids[i], "constructor that initializes a base class");
    else if (k == CXCursor_CompoundStmt) body = kids[i];
  }
  for (auto& [field, init] : default_member_initializers(clang_getCursorSemanticParent(ctor)))
    if (!mem_inits.count(field))
      if (auto v = b.expr(init)) assign_field(field, std::move(v), ctx.loc(init));
  for (auto& [field, init] : mem_inits)
    if (auto v = b.expr(init)) assign_field(field, std::move(v), ctx.loc(init));
  if (!clang_Cursor_isNull(body))
    for (CXCursor s : children(body)) b.stmts_into(s, out);
  auto ret = std::make_unique<ir::Stmt>();
  ret->kind = ir::Stmt::Kind::Return;
  ret->loc = loc;
  ret->expr = self_ref();
  out.push_back(std::move(ret));
  return ir::make_block(std::move(out), loc);
}
}  // namespace

int build_function(FrontContext& ctx, CXCursor def, CXCursor call) {
  std::string usr = usr_of(def);
  if (auto it = ctx.function_by_usr.find(usr); it != ctx.function_by_usr.end()) return it->second;
  if (const auto* errs = function_errors(ctx, def)) {
    for (auto& d : *errs) ctx.diags.report(d.severity, d.loc, d.message);
    ctx.error(call, "'" + spelling(def) + "' cannot be translated (errors above)");
    return -1;
  }
  std::string name = spelling(def);
  // A call to the function being built: a tail call becomes a loop once its
  // body is built (self_tail_calls_to_loop). A call back into one further
  // out is recursion through other functions.
  if (!ctx.functions_in_progress.empty() && ctx.functions_in_progress.back() == usr) return kSelfCall;
  for (auto& u : ctx.functions_in_progress)
    if (u == usr) {
      ctx.error(call, "recursive call to '" + name + "' through other functions: this recursion is not supported yet");
      return -1;
    }
  if (clang_Cursor_isVariadic(def)) {
    ctx.unsupported(call, "call to variadic function '" + name + "'");
    return -1;
  }

  ir::Function f;
  std::string targs = template_args_text(def);
  // `operator float __attribute__((ext_vector_type(3)))` reads as
  // `operator float3`; the shim's packed_vec<float, 3> as packed_float3.
  if (clang_getCursorKind(def) == CXCursor_ConversionFunction) {
    if (auto t = convert_type(ctx, clang_getCursorResultType(def), nullptr))
      name = "operator " + ir::type_name(ctx.module, *t);
  } else if (clang_getCursorKind(def) == CXCursor_Constructor && ctx.in_shim(def)) {
    if (auto owner = owner_struct(ctx, def)) name = ctx.module.structs[owner->struct_index].name;
  }
  f.display_name = name + targs;
  f.def.name = unique_function_name(ctx.module, mangled_name(name, targs));
  f.def.loc = ctx.loc(def);
  std::string why;
  auto rt = convert_type(ctx, clang_getCursorResultType(def), &why);
  if (!rt) {
    ctx.unsupported(def, "return " + why + " of '" + f.display_name + "'");
    return -1;
  }
  if (clang_getCanonicalType(clang_getCursorResultType(def)).kind == CXType_LValueReference) {
    ctx.unsupported(call, "call to '" + f.display_name + "', which returns a reference");
    return -1;
  }
  f.return_type = *rt;
  CXCursorKind kind = clang_getCursorKind(def);
  bool is_ctor = kind == CXCursor_Constructor;
  bool is_method =
      (kind == CXCursor_CXXMethod || kind == CXCursor_ConversionFunction) && !clang_CXXMethod_isStatic(def);
  std::optional<ir::Type> owner;
  if (is_ctor || is_method) {
    owner = owner_struct(ctx, def);
    if (!owner) return -1;
  }
  if (is_ctor) f.return_type = *owner;  // a constructor is a function returning the object
  if (is_method) {
    // `*this` is the first parameter, by reference.
    ir::Param self;
    self.kind = ir::Param::Kind::Reference;
    self.name = "self";
    self.type = *owner;
    self.is_const = clang_CXXMethod_isConst(def) != 0;
    self.loc = f.def.loc;
    f.def.params.push_back(self);
  }
  std::vector<CXCursor> parms;
  if (!build_helper_params(ctx, def, f.def, &parms)) return -1;

  ctx.functions_in_progress.push_back(usr);
  int errors = ctx.diags.error_count();
  {
    FunctionBuilder b(ctx, &f.def, &f);
    int first = is_method ? 1 : 0;
    for (size_t i = 0; i < parms.size(); ++i) b.register_param(parms[i], first + (int)i);
    if (is_method) {
      b.self_ = std::make_unique<ir::Expr>();
      b.self_->kind = ir::Expr::Kind::ParamRef;
      b.self_->type = *owner;
      b.self_->index = 0;
      b.self_->loc = f.def.loc;
    }
    if (is_ctor) {
      f.def.body = construct_body(ctx, b, f, def, *owner);
    } else {
      for (CXCursor ch : children(def))
        if (clang_getCursorKind(ch) == CXCursor_CompoundStmt) f.def.body = b.stmt(ch);
    }
  }
  ctx.functions_in_progress.pop_back();
  if (ctx.diags.error_count() != errors || !self_tail_calls_to_loop(ctx, f)) return -1;
  if (!f.def.body) f.def.body = ir::make_block({}, f.def.loc);
  if (!f.def.tg_allocs.empty()) {
    ctx.error(f.def.tg_allocs[0].loc, "threadgroup variable '" + f.def.tg_allocs[0].name + "' in helper function '" +
                                          f.display_name + "': Metal allows threadgroup variables only in kernels");
    return -1;
  }
  ctx.module.functions.push_back(std::move(f));
  int index = (int)ctx.module.functions.size() - 1;
  ctx.function_by_usr[usr] = index;
  return index;
}

const ir::Function& FunctionBuilder::callee(int index) const {
  return index == kSelfCall ? *function_ : ctx_.module.functions[index];
}

ir::ExprPtr FunctionBuilder::user_call(CXCursor c, CXCursor fn) {
  CXCursor def = clang_getCursorDefinition(fn);
  // An implicit constructor has no definition of its own: it runs the
  // default member initializers.
  if (clang_Cursor_isNull(def) && clang_getCursorKind(fn) == CXCursor_Constructor) def = fn;
  if (clang_Cursor_isNull(def)) {
    if (report_unformed_instance(ctx_, c, fn)) return nullptr;
    ctx_.unsupported(c, "call to function '" + spelling(fn) + "' without a definition");
    return nullptr;
  }
  int index = build_function(ctx_, def, c);
  if (index < 0 && index != kSelfCall) return nullptr;
  auto t = type_of(c);
  if (!t) return nullptr;
  // A copy: building the arguments may add functions to the module.
  const std::vector<ir::Param> params = callee(index).def.params;
  const std::string display = callee(index).display_name;
  auto e = std::make_unique<ir::Expr>();
  e->kind = ir::Expr::Kind::UserCall;
  e->type = *t;
  e->loc = ctx_.loc(c);
  e->index = index;
  int nargs = clang_Cursor_getNumArguments(c);
  if (nargs != (int)params.size()) {
    ctx_.unsupported(c, "call to '" + display + "' with " + std::to_string(nargs) + " arguments for " +
                            std::to_string(params.size()) + " parameters");
    return nullptr;
  }
  for (int i = 0; i < nargs; ++i) {
    CXCursor a = clang_Cursor_getArgument(c, i);
    ir::ExprPtr x;
    // A default argument (CXXDefaultArgExpr, a leaf) is the parameter's own
    // initializer, evaluated at the call.
    if (clang_getCursorKind(a) == CXCursor_UnexposedExpr && children(a).empty()) {
      CXCursor parm = clang_Cursor_getArgument(def, i);
      for (CXCursor pc : children(parm))
        if (clang_isExpression(clang_getCursorKind(pc))) x = expr(pc);
      if (!x) x = expr(a);
    } else {
      x = expr(a);
    }
    if (!x) return nullptr;
    const ir::Param& p = params[i];
    if (p.kind == ir::Param::Kind::Value && (p.type.is_scalar() || p.type.is_vector())) {
      ir::SourceLoc loc = x->loc;
      x = convert(std::move(x), p.type, loc);
    }
    e->args.push_back(std::move(x));
  }
  return e;
}

ir::ExprPtr FunctionBuilder::self_object(CXCursor at) {
  if (!self_) {
    ctx_.unsupported(at, "use of 'this' outside a member function");
    return nullptr;
  }
  auto e = self_->clone();
  e->loc = ctx_.loc(at);
  return e;
}

ir::ExprPtr FunctionBuilder::method_call(CXCursor c, CXCursor fn) {
  if (clang_CXXMethod_isVirtual(fn)) {
    ctx_.unsupported(c, "call of virtual function '" + spelling(fn) + "'");
    return nullptr;
  }
  if (clang_CXXMethod_isStatic(fn)) return user_call(c, fn);
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) {
    ctx_.unsupported(c, "call to member function '" + spelling(fn) + "' without a definition");
    return nullptr;
  }
  // The object: an operator's first operand, or the expression before `.f`
  // (none: `f()` inside another member function, on *this).
  int nargs = clang_Cursor_getNumArguments(c);
  bool is_operator = spelling(fn).rfind("operator", 0) == 0 && nargs == clang_Cursor_getNumArguments(def) + 1;
  ir::ExprPtr object;
  int first_arg = 0;
  if (is_operator) {
    object = expr(clang_Cursor_getArgument(c, 0));
    first_arg = 1;
  } else {
    CXCursor obj = member_call_object(c);
    object = clang_Cursor_isNull(obj) ? self_object(c) : object_value(obj, ctx_.loc(c));
  }
  if (!object) return nullptr;
  if (clang_getCanonicalType(clang_getCursorResultType(def)).kind == CXType_LValueReference)
    return inline_reference_method(c, def, std::move(object), first_arg);
  int index = build_function(ctx_, def, c);
  if (index < 0 && index != kSelfCall) return nullptr;
  auto t = type_of(c);
  if (!t) return nullptr;
  // A copy: building the arguments may add functions to the module.
  const std::vector<ir::Param> params = callee(index).def.params;
  const std::string display = callee(index).display_name;
  auto e = std::make_unique<ir::Expr>();
  e->kind = ir::Expr::Kind::UserCall;
  e->type = *t;
  e->loc = ctx_.loc(c);
  e->index = index;
  e->args.push_back(std::move(object));
  for (int i = first_arg; i < nargs; ++i) {
    auto x = expr(clang_Cursor_getArgument(c, i));
    if (!x) return nullptr;
    if (e->args.size() >= params.size()) break;
    const ir::Param& p = params[e->args.size()];
    if (p.kind == ir::Param::Kind::Value && (p.type.is_scalar() || p.type.is_vector())) {
      ir::SourceLoc loc = x->loc;
      x = convert(std::move(x), p.type, loc);
    }
    e->args.push_back(std::move(x));
  }
  if (e->args.size() != params.size()) {
    ctx_.unsupported(c, "call to '" + display + "' with default arguments");
    return nullptr;
  }
  return e;
}

// `T& operator[](size_t i) { return elements[i]; }` (SPIRV-Cross's
// spvUnsafeArray, accessors of the user's): a member function that returns
// a reference is the lvalue its one `return` names, with `*this` and the
// parameters replaced by the object and the arguments. Each of those is
// repeated where the body uses it, so none may have side effects.
ir::ExprPtr FunctionBuilder::inline_reference_method(CXCursor c, CXCursor def, ir::ExprPtr object, int first_arg) {
  const std::string name = spelling(def);
  CXCursor ret_expr = clang_getNullCursor();
  std::vector<CXCursor> params;
  for (CXCursor ch : children(def)) {
    if (clang_getCursorKind(ch) == CXCursor_ParmDecl) params.push_back(ch);
    if (clang_getCursorKind(ch) != CXCursor_CompoundStmt) continue;
    auto body = children(ch);
    if (body.size() == 1 && clang_getCursorKind(body[0]) == CXCursor_ReturnStmt) {
      auto r = children(body[0]);
      if (r.size() == 1) ret_expr = r[0];
    }
  }
  const int nargs = clang_Cursor_getNumArguments(c) - first_arg;
  if (clang_Cursor_isNull(ret_expr) || nargs != (int)params.size()) {
    ctx_.unsupported(c, "call to '" + name + "', which returns a reference from more than one `return` statement");
    return nullptr;
  }
  std::string usr = usr_of(def);
  for (auto& s : inline_stack_)
    if (s == usr) {
      ctx_.error(c, "recursive call to '" + name +
                        "' in a function that returns a reference: this recursion is not supported yet");
      return nullptr;
    }
  if (ir::analysis::has_side_effects(*object)) {
    ctx_.unsupported(c, "call to '" + name + "', which returns a reference, on an object with side effects");
    return nullptr;
  }
  std::vector<ir::ExprPtr> args;
  std::map<std::string, const ir::Expr*> subst;
  for (int i = 0; i < nargs; ++i) {
    auto a = expr(clang_Cursor_getArgument(c, first_arg + i));
    if (!a) return nullptr;
    if (ir::analysis::has_side_effects(*a)) {
      ctx_.unsupported(c, "call to '" + name + "', which returns a reference, with an argument that has side effects");
      return nullptr;
    }
    subst[usr_of(params[i])] = a.get();
    args.push_back(std::move(a));
  }
  ir::ExprPtr saved_self = std::move(self_);
  self_ = std::move(object);
  substitutions_.push_back(std::move(subst));
  inline_stack_.push_back(usr);
  auto e = expr(ret_expr);
  inline_stack_.pop_back();
  substitutions_.pop_back();
  self_ = std::move(saved_self);
  return e;
}

ir::ExprPtr FunctionBuilder::constructor_call(CXCursor c, CXCursor ctor) {
  CXCursor def = clang_getCursorDefinition(ctor);
  if (clang_Cursor_isNull(def)) def = ctor;  // an implicit constructor: default member initializers only
  return user_call(c, def);
}

}  // namespace mslport::front
