// Range-based for loops: `for (T x : range)` over an array of known size or
// a metal::array<T, N>, lowered to the IR's counted loop
//
//     for (int x_index = 0; x_index < N; ++x_index) { T x = range[x_index]; body }
//
// C++ defines the statement through begin(), end() and a hidden iterator
// `__begin`, and binds the range once before the loop. libclang shows three
// children: the loop variable (initialised from `*__begin`), the range
// expression and the body; neither the iterator nor a C++20 init-statement.
// While the loop variable is built, `*__begin` is the element the counter is
// at, so its initializer takes the ordinary declaration path (conversions,
// struct copies). A reference loop variable names the element itself: each
// use is `range[x_index]`, whose counter no statement of the user's can
// change. That takes no pointer, which an array's row (`auto& row : grid`)
// would need and the IR's printers cannot spell.
#include "front/builder.h"
#include "front/types.h"

namespace mslport::front {

namespace {

// Whether `for ( ... )`'s header has a C++20 init-statement (a `;` outside
// brackets); false when the header is not readable from tokens (the loop
// comes from a macro).
bool read_header(const std::vector<Token>& toks, bool* has_init) {
  if (toks.size() < 5 || toks[0].text != "for" || toks[1].text != "(") return false;
  *has_init = false;
  int depth = 0;
  for (size_t i = 2; i < toks.size(); ++i) {
    const std::string& t = toks[i].text;
    if (t == "(" || t == "[" || t == "{") ++depth;
    else if (t == ")" || t == "]" || t == "}") {
      if (depth-- == 0) return t == ")";
    } else if (t == ";" && depth == 0) *has_init = true;
  }
  return false;
}

// The USR of the `__begin` iterator that a loop variable's initializer
// dereferences; empty when there is none.
std::string begin_usr(CXCursor init) {
  std::string usr;
  clang_visitChildren(
      init,
      [](CXCursor x, CXCursor, CXClientData d) {
        if (clang_getCursorKind(x) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
        CXCursor v = clang_getCursorReferenced(x);
        if (clang_getCursorKind(v) != CXCursor_VarDecl || spelling(v).rfind("__begin", 0) != 0)
          return CXChildVisit_Recurse;
        *static_cast<std::string*>(d) = usr_of(v);
        return CXChildVisit_Break;
      },
      &usr);
  return usr;
}

// An expression that names an object (a reference can bind to it).
bool names_object(const ir::Expr& e) {
  using K = ir::Expr::Kind;
  return e.kind == K::VarRef || e.kind == K::ParamRef || e.kind == K::TgAllocRef || e.kind == K::GlobalConstRef ||
         e.kind == K::Index || e.kind == K::Member || (e.kind == K::Unary && e.unary_op == ir::UnaryOp::Deref);
}

}  // namespace

ir::ExprPtr FunctionBuilder::range_element(CXCursor operand) {
  if (range_elements_.empty()) return nullptr;
  CXCursor x = operand;
  while (clang_getCursorKind(x) == CXCursor_UnexposedExpr || clang_getCursorKind(x) == CXCursor_ParenExpr) {
    std::vector<CXCursor> inner;
    for (CXCursor ch : children(x))
      if (clang_isExpression(clang_getCursorKind(ch))) inner.push_back(ch);
    if (inner.size() != 1) return nullptr;
    x = inner[0];
  }
  if (clang_getCursorKind(x) != CXCursor_DeclRefExpr) return nullptr;
  auto it = range_elements_.find(usr_of(clang_getCursorReferenced(x)));
  if (it == range_elements_.end()) return nullptr;
  auto e = it->second->clone();
  e->loc = ctx_.loc(operand);
  return e;
}

void FunctionBuilder::stable_value(ir::ExprPtr& e, std::vector<ir::StmtPtr>& before, const std::string& base) {
  using K = ir::Expr::Kind;
  switch (e->kind) {
    case K::IntLit:
    case K::FloatLit:
    case K::BoolLit: return;
    case K::VarRef:
      if (k_->vars[e->index].is_const || range_counters_.count(e->index)) return;
      break;
    case K::ParamRef:
      // A kernel's constant buffer or function constant cannot be written,
      // and a `device T&` parameter never rebinds; a helper's parameters
      // may be assigned.
      if (!function_ && (ir::is_dispatch_constant(k_->params[e->index]) || reference_params_.count(e->index))) return;
      break;
    case K::Unary:
      if (e->unary_op == ir::UnaryOp::AddrOf && stable_object(e->args[0], before, base)) return;
      break;
    default: break;
  }
  ir::SourceLoc loc = e->loc;
  int var = ir::add_var(*k_, base + (e->type.is_pointer() ? "_pointer" : "_index"), e->type, loc, true);
  before.push_back(ir::make_decl(var, std::move(e), loc));
  e = ir::make_var_ref(*k_, var, loc);
}

bool FunctionBuilder::stable_object(ir::ExprPtr& e, std::vector<ir::StmtPtr>& before, const std::string& base) {
  if ((e->kind == ir::Expr::Kind::Call || e->kind == ir::Expr::Kind::UserCall) && e->type.is_struct()) {
    // A metal::array a function returns: C++ binds the range to the
    // temporary for the whole loop, so the loop walks one copy of it.
    ir::SourceLoc loc = e->loc;
    int var = ir::add_var(*k_, base, e->type, loc);
    before.push_back(ir::make_decl(var, std::move(e), loc));
    e = ir::make_var_ref(*k_, var, loc);
    return true;
  }
  return ir::for_each_object_selector(e, [&](ir::ExprPtr& v) { stable_value(v, before, base); });
}

void FunctionBuilder::range_for(CXCursor c, std::vector<ir::StmtPtr>& out) {
  auto ch = children(c);
  const ir::SourceLoc loc = ctx_.loc(c);
  if (ch.size() != 3 || !clang_isExpression(clang_getCursorKind(ch[1]))) {
    ctx_.unsupported(c, "range-based for statement of this form");
    return;
  }
  if (clang_getCursorKind(ch[0]) != CXCursor_VarDecl) {
    ctx_.unsupported(ch[0], "range-based for with a structured binding");
    return;
  }
  bool has_init = false;
  if (!read_header(for_header_tokens(ctx_.tu, c, ch[2]), &has_init)) {
    ctx_.unsupported(c, "range-based for statement written inside a macro");
    return;
  }
  if (has_init) {
    // libclang does not show the init-statement: building the loop without
    // it would drop its effects.
    ctx_.unsupported(c, "range-based for statement with an init-statement (C++20)");
    return;
  }

  // The range: an array of known size, or metal::array (a struct holding
  // T[N], types.cc). A class's own begin() and end() are not read.
  CXCursor range_c = ch[1];
  CXType rt = clang_getCanonicalType(clang_getCursorType(range_c));
  if (rt.kind == CXType_LValueReference || rt.kind == CXType_RValueReference)
    rt = clang_getCanonicalType(clang_getPointeeType(rt));
  const bool metal_array = rt.kind == CXType_Record && ctx_.in_shim(clang_getTypeDeclaration(rt)) &&
                           spelling(clang_getTypeDeclaration(rt)) == "array";
  if (rt.kind != CXType_ConstantArray && !metal_array) {
    // A class is named as declared, without the address space clang's
    // OpenCL mode spells.
    const bool record = rt.kind == CXType_Record;
    CXType shown = record ? clang_getCursorType(clang_getTypeDeclaration(rt)) : clang_getCursorType(range_c);
    ctx_.error(range_c, "range-based for over '" + type_spelling(shown) +
                            "' is not supported yet: only over arrays of known size and metal::array" +
                            (record ? " (not a class's own begin() and end())" : ""));
    return;
  }
  auto range = expr(range_c);
  if (!range) return;
  std::vector<ir::StmtPtr> before;
  if (!stable_object(range, before)) {
    ctx_.unsupported(range_c, "range-based for over the expression '" + source_text(ctx_.tu, range_c) + "'");
    return;
  }
  if (metal_array) {
    // Its elements, the struct's one field.
    const ir::StructDef& sd = ctx_.module.structs[range->type.struct_index];
    auto elems = std::make_unique<ir::Expr>();
    elems->kind = ir::Expr::Kind::Member;
    elems->type = sd.fields[0].type;
    elems->loc = range->loc;
    elems->index = 0;
    elems->args.push_back(std::move(range));
    range = std::move(elems);
  }
  if (!range->type.is_array() || range->type.count <= 0) {
    ctx_.unsupported(range_c, "range-based for over '" + ir::type_name(ctx_.module, range->type) + "'");
    return;
  }
  const int count = range->type.count;
  const ir::Type element_type = *range->type.elem;

  CXCursor var = ch[0];
  const std::string name = spelling(var);
  CXCursor init = clang_Cursor_getVarDeclInitializer(var);
  const std::string begin = clang_Cursor_isNull(init) ? "" : begin_usr(init);
  if (begin.empty()) {
    ctx_.unsupported(var, "range-based for whose variable '" + name + "' is not initialised from the range");
    return;
  }
  const ir::Type index_type = ir::Type::scalar_of(ir::ScalarKind::Int);
  const int counter = ir::add_var(*k_, name + "_index", index_type, loc);
  range_counters_.insert(counter);
  auto at = [&] { return ir::make_var_ref(*k_, counter, loc); };
  range_elements_[begin] = ir::make_index(std::move(range), at(), element_type);

  // The loop variable, then the body that uses it.
  std::vector<ir::StmtPtr> stmts;
  bool ok = true;
  CXType vt = clang_getCanonicalType(clang_getCursorType(var));
  if (vt.kind == CXType_LValueReference || vt.kind == CXType_RValueReference) {
    auto e = expr(init);
    CXType referent = clang_getPointeeType(vt);
    std::string why;
    auto t = convert_type(ctx_, referent, &why);
    if (!e || !t) {
      if (!t) ctx_.unsupported(var, why);
      ok = false;
    } else if (names_object(*e)) {
      element_refs_[usr_of(var)] = std::move(e);
    } else {
      // `const float& v : ints`: a reference to a temporary holding the
      // converted element, which is a copy.
      int v = ir::add_var(*k_, name, *t, ctx_.loc(var), clang_isConstQualifiedType(referent) != 0);
      vars_[usr_of(var)] = v;
      stmts.push_back(ir::make_decl(v, convert(std::move(e), *t, ctx_.loc(var)), ctx_.loc(var)));
    }
  } else {
    var_decl(var, stmts);
  }
  range_elements_.erase(begin);
  auto user_body = body(ch[2]);
  if (!ok) return;
  for (auto& s : user_body->stmts) stmts.push_back(std::move(s));

  auto loop = std::make_unique<ir::Stmt>();
  loop->kind = ir::Stmt::Kind::For;
  loop->loc = loc;
  loop->init = ir::make_decl(counter, ir::make_int(index_type, 0, loc), loc);
  loop->expr = ir::make_binary(ir::BinaryOp::Lt, ir::Type::scalar_of(ir::ScalarKind::Bool), at(),
                               ir::make_int(index_type, count, loc), loc);
  loop->step = ir::make_unary(ir::UnaryOp::PreInc, index_type, at(), loc);
  loop->body = ir::make_block(std::move(stmts), user_body->loc);
  for (auto& s : before) out.push_back(std::move(s));
  out.push_back(std::move(loop));
}

}  // namespace mslport::front
