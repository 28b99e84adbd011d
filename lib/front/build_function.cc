// Helper functions: the user's (non-kernel) functions and template instances,
// built once each into Module::functions; calls to them become UserCall
// expressions that passes::inline_functions replaces by their bodies.
#include <cctype>

#include "front/builder.h"
#include "front/types.h"

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
        for (auto [from, to] : {std::pair<std::string, std::string>{"__global ", "device "}, {"__local ", "threadgroup "},
                                {"__constant ", "constant "}, {"__private ", ""}, {"__bf16", "bfloat"}}) {
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
        else
          s += std::to_string(clang_Cursor_getTemplateArgumentValue(decl, i));
        break;
      }
      default: s += "?"; break;
    }
  }
  return s + ">";
}

std::string mangled_name(const std::string& name, const std::string& template_args) {
  std::string s = name;
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

int build_function(FrontContext& ctx, CXCursor def, CXCursor call) {
  std::string usr = usr_of(def);
  if (auto it = ctx.function_by_usr.find(usr); it != ctx.function_by_usr.end()) return it->second;
  if (const auto* errs = function_errors(ctx, def)) {
    for (auto& d : *errs) ctx.diags.report(d.severity, d.loc, d.message);
    ctx.error(call, "'" + spelling(def) + "' cannot be translated (errors above)");
    return -1;
  }
  std::string name = spelling(def);
  for (auto& u : ctx.functions_in_progress)
    if (u == usr) {
      ctx.error(call, "recursive call to '" + name + "': Metal does not allow recursion");
      return -1;
    }
  if (clang_Cursor_isVariadic(def)) {
    ctx.unsupported(call, "call to variadic function '" + name + "'");
    return -1;
  }

  ir::Function f;
  std::string targs = template_args_text(def);
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
  std::vector<CXCursor> parms;
  if (!build_helper_params(ctx, def, f.def, &parms)) return -1;

  ctx.functions_in_progress.push_back(usr);
  int errors = ctx.diags.error_count();
  {
    FunctionBuilder b(ctx, &f.def, &f);
    for (size_t i = 0; i < parms.size(); ++i) b.register_param(parms[i], (int)i);
    for (CXCursor ch : children(def))
      if (clang_getCursorKind(ch) == CXCursor_CompoundStmt) f.def.body = b.stmt(ch);
  }
  ctx.functions_in_progress.pop_back();
  if (ctx.diags.error_count() != errors) return -1;
  if (!f.def.body) f.def.body = ir::make_block({}, f.def.loc);
  if (!f.def.tg_allocs.empty()) {
    ctx.error(f.def.tg_allocs[0].loc, "threadgroup variable '" + f.def.tg_allocs[0].name +
                                          "' in helper function '" + f.display_name +
                                          "': Metal allows threadgroup variables only in kernels");
    return -1;
  }
  ctx.module.functions.push_back(std::move(f));
  int index = (int)ctx.module.functions.size() - 1;
  ctx.function_by_usr[usr] = index;
  return index;
}

ir::ExprPtr FunctionBuilder::user_call(CXCursor c, CXCursor fn) {
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) {
    ctx_.unsupported(c, "call to function '" + spelling(fn) + "' without a definition");
    return nullptr;
  }
  int index = build_function(ctx_, def, c);
  if (index < 0) return nullptr;
  auto t = type_of(c);
  if (!t) return nullptr;
  const ir::Function& f = ctx_.module.functions[index];
  auto e = std::make_unique<ir::Expr>();
  e->kind = ir::Expr::Kind::UserCall;
  e->type = *t;
  e->loc = ctx_.loc(c);
  e->index = index;
  int nargs = clang_Cursor_getNumArguments(c);
  if (nargs != (int)f.def.params.size()) {
    ctx_.unsupported(c, "call to '" + f.display_name + "' with " + std::to_string(nargs) + " arguments for " +
                            std::to_string(f.def.params.size()) + " parameters");
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
    const ir::Param& p = f.def.params[i];
    if (p.kind == ir::Param::Kind::Value && (p.type.is_scalar() || p.type.is_vector())) {
      ir::SourceLoc loc = x->loc;
      x = convert(std::move(x), p.type, loc);
    }
    e->args.push_back(std::move(x));
  }
  return e;
}

}  // namespace mslport::front
