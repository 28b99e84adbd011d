// Statements: clang statement cursors -> structured ir::Stmt.
//
// libclang lists only the children that exist (a `for (;;)` has just its
// body), so statements with optional parts are matched against their
// tokens to know which child is which.
#include "front/adapt_source.h"
#include "front/builder.h"
#include "front/builtins.h"
#include "front/types.h"

namespace mslport::front {

namespace {

ir::StmtPtr make_stmt(ir::Stmt::Kind kind, ir::SourceLoc loc) {
  auto s = std::make_unique<ir::Stmt>();
  s->kind = kind;
  s->loc = std::move(loc);
  return s;
}

// Which of a for statement's header parts are written: "for ( A ; B ; C )".
bool for_header_parts(const std::vector<Token>& toks, bool part[3]) {
  if (toks.size() < 5 || toks[0].text != "for" || toks[1].text != "(") return false;
  int depth = 0, idx = 0;
  part[0] = part[1] = part[2] = false;
  for (size_t i = 2; i < toks.size(); ++i) {
    const std::string& t = toks[i].text;
    if (depth == 0 && t == ")") return idx == 2;
    if (depth == 0 && t == ";") {
      if (++idx > 2) return false;
      continue;
    }
    if (t == "(" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == "]" || t == "}") --depth;
    part[idx] = true;
  }
  return false;
}

// The address space of a variable's storage (for arrays: of the elements,
// which is where clang keeps the qualifier).
ir::AddressSpace storage_space(CXType t) {
  // The written (non-canonical) type carries the qualifier; the canonical
  // array type moves it to the element type.
  for (CXType c = t; c.kind != CXType_Invalid; c = clang_getArrayElementType(clang_getCanonicalType(c))) {
    ir::AddressSpace s = address_space_of(c);
    if (s != ir::AddressSpace::Private) return s;
    CXTypeKind k = clang_getCanonicalType(c).kind;
    if (k != CXType_ConstantArray && k != CXType_IncompleteArray && k != CXType_VariableArray) break;
  }
  return ir::AddressSpace::Private;
}

}  // namespace

ir::StmtPtr FunctionBuilder::stmt(CXCursor c) {
  std::vector<ir::StmtPtr> out;
  stmts_into(c, out);
  if (out.size() == 1) return std::move(out[0]);
  return ir::make_block(std::move(out), ctx_.loc(c));
}

ir::StmtPtr FunctionBuilder::body(CXCursor c) {
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) return block(c);
  std::vector<ir::StmtPtr> out;
  stmts_into(c, out);
  return ir::make_block(std::move(out), ctx_.loc(c));
}

ir::StmtPtr FunctionBuilder::block(CXCursor c) {
  std::vector<ir::StmtPtr> out;
  for (CXCursor ch : children(c)) stmts_into(ch, out);
  return ir::make_block(std::move(out), ctx_.loc(c));
}

void FunctionBuilder::stmts_into(CXCursor c, std::vector<ir::StmtPtr>& out) {
  NestingGuard nesting(*this, c);
  if (nesting.too_deep()) return;
  ir::SourceLoc loc = ctx_.loc(c);
  CXCursorKind kind = clang_getCursorKind(c);
  switch (kind) {
    case CXCursor_CompoundStmt: out.push_back(block(c)); return;
    case CXCursor_DeclStmt: decl_stmt(c, out); return;
    case CXCursor_IfStmt:
      if (auto s = if_stmt(c)) out.push_back(std::move(s));
      return;
    case CXCursor_ForStmt:
      if (auto s = for_stmt(c)) out.push_back(std::move(s));
      return;
    case CXCursor_CXXForRangeStmt: range_for(c, out); return;
    case CXCursor_WhileStmt:
      if (auto s = while_stmt(c)) out.push_back(std::move(s));
      return;
    case CXCursor_DoStmt:
      if (auto s = do_stmt(c)) out.push_back(std::move(s));
      return;
    case CXCursor_ReturnStmt: {
      auto value = children(c);
      auto r = make_stmt(ir::Stmt::Kind::Return, loc);
      if (!value.empty()) {
        if (!function_) {
          ctx_.error(c, "a kernel cannot return a value");
          return;
        }
        r->expr = expr(value[0]);
        if (!r->expr) return;
        const ir::Type& rt = function_->return_type;
        if (rt.is_scalar() || rt.is_vector()) r->expr = convert(std::move(r->expr), rt, loc);
      }
      out.push_back(std::move(r));
      return;
    }
    case CXCursor_BreakStmt: out.push_back(make_stmt(ir::Stmt::Kind::Break, loc)); return;
    case CXCursor_ContinueStmt: out.push_back(make_stmt(ir::Stmt::Kind::Continue, loc)); return;
    case CXCursor_NullStmt: return;
    case CXCursor_SwitchStmt: switch_stmt(c, out); return;
    case CXCursor_UnexposedStmt: {
      // clang's AttributedStmt (`#pragma unroll` before a loop) is
      // unexposed: the pragma is an optimisation hint and is dropped.
      auto ch = children(c);
      if (ch.size() == 1 && clang_isStatement(clang_getCursorKind(ch[0]))) {
        stmts_into(ch[0], out);
        return;
      }
      break;
    }
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_LabelStmt: ctx_.unsupported(c, "goto"); return;
    default: break;
  }
  if (clang_isExpression(kind)) {
    // threadgroup_barrier / simdgroup_barrier are statements in the IR.
    if (kind == CXCursor_CallExpr) {
      CXCursor fn = clang_getCursorReferenced(c);
      // Shader logging (<metal_logging>) has no stream in a port: the call
      // is left out.
      if (clang_getCursorKind(fn) == CXCursor_CXXMethod && ctx_.in_shim(fn) &&
          spelling(clang_getCursorSemanticParent(fn)) == "os_log")
        return;
      if (clang_getCursorKind(fn) == CXCursor_FunctionDecl) {
        Callee callee = classify_callee(ctx_, fn);
        // __builtin_assume(c): c is never evaluated, and a port needs no hint.
        if (callee.kind == Callee::Kind::Assume) return;
        if (callee.kind == Callee::Kind::ThreadgroupBarrier || callee.kind == Callee::Kind::SimdgroupBarrier) {
          if (auto s = barrier(c, callee.kind == Callee::Kind::SimdgroupBarrier)) out.push_back(std::move(s));
          return;
        }
      }
    }
    if (auto e = expr(c)) out.push_back(ir::make_expr_stmt(std::move(e)));
    return;
  }
  ctx_.unsupported(c, "statement '" + kind_spelling(c) + "'");
}

ir::StmtPtr FunctionBuilder::barrier(CXCursor call, bool simdgroup) {
  int64_t flags = 0;
  if (clang_Cursor_getNumArguments(call) != 1 || !evaluate_int(clang_Cursor_getArgument(call, 0), &flags)) {
    ctx_.unsupported(call, "barrier whose mem_flags are not a constant");
    return nullptr;
  }
  // Metal's mem_flags values are the IR's bits: 1 device, 2 threadgroup,
  // 4 texture; imageblock/object_data have no meaning for compute ports.
  if (flags & ~int64_t(7)) {
    ctx_.unsupported(call, "barrier on threadgroup_imageblock or object_data memory");
    return nullptr;
  }
  auto s = make_stmt(ir::Stmt::Kind::Barrier, ctx_.loc(call));
  s->simdgroup_scope = simdgroup;
  s->mem_flags = (unsigned)flags;
  return s;
}

void FunctionBuilder::decl_stmt(CXCursor c, std::vector<ir::StmtPtr>& out) {
  for (CXCursor v : children(c)) {
    CXCursorKind vk = clang_getCursorKind(v);
    // Local type names (typedef, using, static_assert): clang resolved
    // every use already.
    if (vk == CXCursor_TypedefDecl || vk == CXCursor_TypeAliasDecl || vk == CXCursor_StaticAssert ||
        vk == CXCursor_UsingDirective || vk == CXCursor_UsingDeclaration || vk == CXCursor_TypeAliasTemplateDecl)
      continue;
    if (vk != CXCursor_VarDecl) {
      ctx_.unsupported(v, "local declaration '" + kind_spelling(v) + "'");
      continue;
    }
    var_decl(v, out);
  }
}

void FunctionBuilder::var_decl(CXCursor v, std::vector<ir::StmtPtr>& out) {
  std::string name = spelling(v);
  ir::SourceLoc loc = ctx_.loc(v);
  CXType ct = clang_getCursorType(v);
  if (clang_Cursor_getStorageClass(v) == CX_SC_Static) {
    ctx_.unsupported(v, "static local variable '" + name + "'");
    return;
  }
  if (name == kMaxThreadsName) {
    // [[max_total_threads_per_threadgroup(n)]] (adapt_source.h)
    int64_t n = 0;
    CXCursor init_c = clang_Cursor_getVarDeclInitializer(v);
    if (function_ || clang_Cursor_isNull(init_c) || !evaluate_int(init_c, &n) || n <= 0 ||
        n > ir::kMaxThreadsPerThreadgroup) {
      ctx_.error(v, "[[max_total_threads_per_threadgroup]] needs a constant between 1 and " +
                        std::to_string(ir::kMaxThreadsPerThreadgroup));
      return;
    }
    k_->max_total_threads_per_threadgroup = (int)n;
    return;
  }
  if (clang_getCanonicalType(ct).kind == CXType_LValueReference) {
    if (is_threadgroup_storage(clang_Cursor_getVarDeclInitializer(v))) {
      // A template kernel's `threadgroup T a[N];` (adapt_source.h).
      std::string why;
      auto t = convert_type(ctx_, clang_getPointeeType(clang_getCanonicalType(ct)), &why);
      if (!t) {
        ctx_.unsupported(v, why);
        return;
      }
      k_->tg_allocs.push_back(ir::TgAlloc{ir::unique_name(*k_, name), *t, loc});
      tg_allocs_[usr_of(v)] = (int)k_->tg_allocs.size() - 1;
      return;
    }
    // `T& x = lvalue;` names an object: x is a pointer to it, and each
    // use of x reads through it (a const reference to a temporary is a
    // copy of the value; a reference to an array is the array, below).
    // One that cannot be built makes its uses fail without a diagnostic
    // of their own.
    auto unbound = [&] { unbound_refs_.insert(usr_of(v)); };
    CXType referent = clang_getPointeeType(clang_getCanonicalType(ct));
    std::string why;
    auto rt = convert_type(ctx_, referent, &why);
    CXCursor init_c = clang_Cursor_getVarDeclInitializer(v);
    if (!rt || clang_Cursor_isNull(init_c)) {
      ctx_.unsupported(v, rt ? "reference variable '" + name + "' without an initializer" : why);
      unbound();
      return;
    }
    auto init = expr(init_c);
    if (!init) {
      unbound();
      return;
    }
    if (rt->is_array() && init->kind != ir::Expr::Kind::InitList) {
      // `thread float (&row)[3] = grid[k];` names the array object: each
      // use of row is the referent itself, as a reference loop variable's
      // is (range_for.cc), so reads, writes, indexing and passing it on
      // reach the original array. C++ binds the reference once: what could
      // change afterwards (`k`) is evaluated into a constant here. (A
      // pointer to the array, as for other referents, is a type the IR's
      // printers cannot spell: `float (*row)[3]`.)
      std::vector<ir::StmtPtr> before;
      if (!stable_object(init, before, name)) {
        ctx_.error(v, "reference '" + name + "' to an array bound to '" + source_text(ctx_.tu, init_c) +
                          "' is not supported yet: only to an array variable, an element of an array of arrays "
                          "or a member");
        unbound();
        return;
      }
      for (auto& s : before) out.push_back(std::move(s));
      element_refs_[usr_of(v)] = std::move(init);
      return;
    }
    if (init->kind == ir::Expr::Kind::ParamRef && init->type == *rt) {
      // `thread float& b = a;` with `a` a parameter (a helper's reference
      // or value parameter, a kernel's argument) names the parameter
      // itself: each use of b is a, so writes through b reach what a names.
      // A parameter is never rebound: nothing needs evaluating here.
      element_refs_[usr_of(v)] = std::move(init);
      return;
    }
    bool lvalue = init->kind == ir::Expr::Kind::VarRef || init->kind == ir::Expr::Kind::Index ||
                  init->kind == ir::Expr::Kind::Member || init->kind == ir::Expr::Kind::TgAllocRef ||
                  init->kind == ir::Expr::Kind::ParamRef ||
                  (init->kind == ir::Expr::Kind::Unary && init->unary_op == ir::UnaryOp::Deref);
    if (!lvalue || init->kind == ir::Expr::Kind::ParamRef) {
      if (!clang_isConstQualifiedType(referent) && !lvalue) {
        ctx_.unsupported(v, "reference variable '" + name + "' bound to a value");
        unbound();
        return;
      }
      int var = ir::add_var(*k_, name, *rt, loc, true);
      vars_[usr_of(v)] = var;
      out.push_back(ir::make_decl(var, convert(std::move(init), *rt, loc), loc));
      return;
    }
    ir::Type pt = ir::Type::pointer_to(*rt, address_space_of(referent), clang_isConstQualifiedType(referent) != 0);
    int var = ir::add_var(*k_, name, pt, loc, true);
    reference_vars_[usr_of(v)] = var;
    out.push_back(ir::make_decl(var, ir::make_unary(ir::UnaryOp::AddrOf, pt, std::move(init), loc), loc));
    return;
  }
  std::string why;
  auto t = convert_type(ctx_, ct, &why);
  if (!t) {
    ctx_.unsupported(v, why);
    return;
  }
  CXCursor init_c = clang_Cursor_getVarDeclInitializer(v);
  bool has_init = !clang_Cursor_isNull(init_c);
  // A default construction (`simdgroup_matrix<float, 8, 8> acc;`) is no
  // initialiser.
  // A struct whose default constructor does something (a body, or default
  // member initializers) is constructed.
  if (has_init && clang_getCursorKind(init_c) == CXCursor_CallExpr &&
      clang_getCursorKind(clang_getCursorReferenced(init_c)) == CXCursor_Constructor &&
      clang_Cursor_getNumArguments(init_c) == 0 && !constructor_does_work(ctx_, clang_getCursorReferenced(init_c)))
    has_init = false;
  ir::AddressSpace space = storage_space(ct);
  if (space == ir::AddressSpace::Threadgroup) {
    // `threadgroup float a[N];` in a kernel: static threadgroup storage,
    // hoisted to Kernel::tg_allocs; its declaration statement disappears.
    if (has_init)
      ctx_.diags.warning(ctx_.loc(v), "the initializer of threadgroup variable '" + name +
                                          "' is ignored: initialize it explicitly (and put a barrier after)");
    k_->tg_allocs.push_back(ir::TgAlloc{ir::unique_name(*k_, name), *t, loc});
    tg_allocs_[usr_of(v)] = (int)k_->tg_allocs.size() - 1;
    return;
  }
  if (space != ir::AddressSpace::Private) {
    ctx_.unsupported(
        v, std::string("local variable '") + name + "' in the " + ir::address_space_name(space) + " address space");
    return;
  }
  ir::ExprPtr init;
  if (has_init) {
    init = expr(init_c);
    if (init && (t->is_scalar() || t->is_vector())) {
      ir::SourceLoc iloc = init->loc;
      init = convert(std::move(init), *t, iloc);
    }
    // `U values[4];` of a class with a constructor: clang constructs
    // every element, where libclang shows one construction (typed as the
    // array).
    if (init && t->is_array() && clang_getCursorKind(init_c) == CXCursor_CallExpr &&
        clang_getCursorKind(clang_getCursorReferenced(init_c)) == CXCursor_Constructor) {
      const ir::Type* elem = &*t;
      while (elem->is_array()) elem = elem->elem.get();
      init->type = *elem;
      init = each_element(std::move(init), *t, v);
    }
  }
  // The variable is registered even when its initialiser failed, so later
  // uses do not produce follow-on errors.
  int var = ir::add_var(*k_, name, *t, loc, clang_isConstQualifiedType(ct) != 0);
  vars_[usr_of(v)] = var;
  if (has_init && !init) return;
  out.push_back(ir::make_decl(var, std::move(init), loc));
}

ir::StmtPtr FunctionBuilder::if_stmt(CXCursor c) {
  auto ch = children(c);
  if (ch.size() < 2 || ch.size() > 3 || !clang_isExpression(clang_getCursorKind(ch[0]))) {
    ctx_.unsupported(c, "if statement with an initializer or a declaration as condition");
    return nullptr;
  }
  // A condition that function constants decide selects its branch now, as
  // Metal's specialisation does: the other branch may use constants or
  // parameters that do not exist with these values.
  if (auto taken = specialized_condition(ch[0])) {
    if (*taken) return body(ch[1]);
    if (ch.size() == 3) return body(ch[2]);
    return ir::make_block({}, ctx_.loc(c));
  }
  auto cond = expr(ch[0]);
  auto then_body = body(ch[1]);
  ir::StmtPtr else_body = ch.size() == 3 ? body(ch[2]) : nullptr;
  if (!cond) return nullptr;
  return ir::make_if(std::move(cond), std::move(then_body), std::move(else_body), ctx_.loc(c));
}

ir::StmtPtr FunctionBuilder::for_stmt(CXCursor c) {
  auto ch = children(c);
  bool part[3];
  if (ch.empty() || !for_header_parts(for_header_tokens(ctx_.tu, c, ch.back()), part)) {
    // Header not readable from tokens (the loop comes from a macro): only
    // the unambiguous shapes are accepted.
    if (ch.size() == 4) part[0] = part[1] = part[2] = true;
    else if (ch.size() == 1) part[0] = part[1] = part[2] = false;
    else {
      ctx_.unsupported(c, "for statement written inside a macro");
      return nullptr;
    }
  }
  size_t expected = 1 + part[0] + part[1] + part[2];
  if (ch.size() != expected) {
    ctx_.unsupported(c, "for statement with a declaration as condition");
    return nullptr;
  }
  auto s = make_stmt(ir::Stmt::Kind::For, ctx_.loc(c));
  size_t i = 0;
  bool ok = true;
  std::vector<ir::StmtPtr> init;
  if (part[0]) stmts_into(ch[i++], init);
  if (part[1]) ok &= (s->expr = expr(ch[i++])) != nullptr;
  if (part[2]) ok &= (s->step = expr(ch[i++])) != nullptr;
  s->body = body(ch[i]);
  if (!ok) return nullptr;
  if (init.size() <= 1) {
    if (!init.empty()) s->init = std::move(init[0]);
    return s;
  }
  // `for (int i = 0, j = 1; ...)`: the declarations move, in order, into a
  // block around the loop (variable names are unique, so scoping is kept).
  init.push_back(std::move(s));
  return ir::make_block(std::move(init), ctx_.loc(c));
}

ir::StmtPtr FunctionBuilder::while_stmt(CXCursor c) {
  auto ch = children(c);
  if (ch.size() != 2 || !clang_isExpression(clang_getCursorKind(ch[0]))) {
    ctx_.unsupported(c, "while statement with a declaration as condition");
    return nullptr;
  }
  auto s = make_stmt(ir::Stmt::Kind::While, ctx_.loc(c));
  s->expr = expr(ch[0]);
  s->body = body(ch[1]);
  if (!s->expr) return nullptr;
  return s;
}

ir::StmtPtr FunctionBuilder::do_stmt(CXCursor c) {
  auto ch = children(c);
  if (ch.size() != 2) {
    ctx_.unsupported(c, "do statement form");
    return nullptr;
  }
  auto s = make_stmt(ir::Stmt::Kind::DoWhile, ctx_.loc(c));
  s->body = body(ch[0]);
  s->expr = expr(ch[1]);
  if (!s->expr) return nullptr;
  return s;
}

namespace {

// A `break` that would leave the switch from somewhere other than the end of
// its case (loops and nested switches own their breaks).
bool has_inner_break(CXCursor c) {
  bool found = false;
  clang_visitChildren(
      c,
      [](CXCursor x, CXCursor, CXClientData d) {
        switch (clang_getCursorKind(x)) {
          case CXCursor_BreakStmt: *static_cast<bool*>(d) = true; return CXChildVisit_Break;
          case CXCursor_ForStmt:
          case CXCursor_CXXForRangeStmt:
          case CXCursor_WhileStmt:
          case CXCursor_DoStmt:
          case CXCursor_SwitchStmt: return CXChildVisit_Continue;
          default: return CXChildVisit_Recurse;
        }
      },
      &found);
  return found;
}

}  // namespace

// `switch` becomes an if / else-if chain over the case values, which keeps
// the IR free of a switch node. Only the structured form is accepted: every
// case group ends in break (or return/continue, or is the last group), with
// no other break inside it; stacked labels (`case 1: case 2:`) share a group.
void FunctionBuilder::switch_stmt(CXCursor c, std::vector<ir::StmtPtr>& out) {
  auto ch = children(c);
  if (ch.size() != 2 || !clang_isExpression(clang_getCursorKind(ch[0])) ||
      clang_getCursorKind(ch[1]) != CXCursor_CompoundStmt) {
    ctx_.unsupported(c, "switch statement with an initializer or without a braced body");
    return;
  }
  struct Group {
    std::vector<int64_t> values;
    bool is_default = false;
    std::vector<CXCursor> stmts;
    CXCursor label;
  };
  std::vector<Group> groups;
  for (CXCursor s : children(ch[1])) {
    CXCursorKind k = clang_getCursorKind(s);
    if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt) {
      if (groups.empty()) {
        ctx_.unsupported(s, "statement before the first case label of a switch");
        return;
      }
      groups.back().stmts.push_back(s);
      continue;
    }
    if (groups.empty() || !groups.back().stmts.empty()) groups.push_back(Group{{}, false, {}, s});
    // Unwrap stacked labels: CaseStmt(value, CaseStmt(value, stmt)).
    CXCursor cur = s;
    while (true) {
      CXCursorKind ck = clang_getCursorKind(cur);
      if (ck != CXCursor_CaseStmt && ck != CXCursor_DefaultStmt) {
        groups.back().stmts.push_back(cur);
        break;
      }
      auto parts = children(cur);
      if (ck == CXCursor_CaseStmt) {
        int64_t v = 0;
        if (parts.size() != 2 || !evaluate_int(parts[0], &v)) {
          ctx_.unsupported(cur, "case label");
          return;
        }
        groups.back().values.push_back(v);
        cur = parts[1];
      } else {
        if (parts.size() != 1) {
          ctx_.unsupported(cur, "default label");
          return;
        }
        groups.back().is_default = true;
        cur = parts[0];
      }
    }
  }
  // Check the structure and drop each group's final break.
  for (size_t g = 0; g < groups.size(); ++g) {
    auto& st = groups[g].stmts;
    // A braced case body (`case 1: { ...; break; }`) is spliced into its
    // group; variable names are unique per kernel, so the braces' scope is
    // not needed.
    while (!st.empty() && clang_getCursorKind(st.back()) == CXCursor_CompoundStmt) {
      auto inner = children(st.back());
      st.pop_back();
      st.insert(st.end(), inner.begin(), inner.end());
    }
    bool ends = !st.empty() && clang_getCursorKind(st.back()) == CXCursor_BreakStmt;
    if (ends) st.pop_back();
    bool exits = ends || (!st.empty() && (clang_getCursorKind(st.back()) == CXCursor_ReturnStmt ||
                                          clang_getCursorKind(st.back()) == CXCursor_ContinueStmt));
    if (!exits && g + 1 < groups.size()) {
      ctx_.unsupported(groups[g].label, "switch case that falls through to the next case");
      return;
    }
    for (CXCursor s : st)
      if (clang_getCursorKind(s) == CXCursor_BreakStmt || has_inner_break(s)) {
        ctx_.unsupported(s, "break before the end of a switch case");
        return;
      }
  }
  auto cond = expr(ch[0]);
  if (!cond) return;
  ir::SourceLoc loc = ctx_.loc(c);
  // Evaluate the condition once, unless it is already a plain name.
  auto value = [&]() -> ir::ExprPtr { return cond->clone(); };
  if (cond->kind != ir::Expr::Kind::VarRef && cond->kind != ir::Expr::Kind::ParamRef) {
    int var = ir::add_var(*k_, "switch_value", cond->type, loc, true);
    out.push_back(ir::make_decl(var, std::move(cond), loc));
    cond = ir::make_var_ref(*k_, var, loc);
  }
  auto group_body = [&](const Group& g) {
    std::vector<ir::StmtPtr> body;
    for (CXCursor s : g.stmts) stmts_into(s, body);
    return ir::make_block(std::move(body), ctx_.loc(g.label));
  };
  ir::StmtPtr chain;
  for (auto& g : groups)
    if (g.is_default) chain = group_body(g);
  for (auto it = groups.rbegin(); it != groups.rend(); ++it) {
    if (it->is_default) continue;
    ir::ExprPtr test;
    for (int64_t v : it->values) {
      auto eq = ir::make_binary(ir::BinaryOp::Eq, ir::Type::scalar_of(ir::ScalarKind::Bool), value(),
                                ir::make_int(cond->type, v, ctx_.loc(it->label)), ctx_.loc(it->label));
      test = test ? ir::make_binary(ir::BinaryOp::LogOr, ir::Type::scalar_of(ir::ScalarKind::Bool), std::move(test),
                                    std::move(eq), ctx_.loc(it->label))
                  : std::move(eq);
    }
    if (chain && chain->kind != ir::Stmt::Kind::Block)
      chain = ir::make_block(
          [&] {
            std::vector<ir::StmtPtr> v;
            v.push_back(std::move(chain));
            return v;
          }(),
          loc);
    chain = ir::make_if(std::move(test), group_body(*it), std::move(chain), ctx_.loc(it->label));
  }
  if (chain) out.push_back(std::move(chain));
}

// Elements an array declaration may construct one by one: a list this long
// is already more text than any kernel writes by hand.
constexpr int kMaxConstructedElements = 4096;

ir::ExprPtr FunctionBuilder::each_element(ir::ExprPtr e, const ir::Type& t, CXCursor at) {
  if (!t.is_array()) return convert(std::move(e), t, e->loc);
  int total = 1;
  for (const ir::Type* x = &t; x->is_array(); x = x->elem.get()) total *= std::max(x->count, 1);
  if (total > kMaxConstructedElements) {
    ctx_.unsupported(at, "an array of " + std::to_string(total) + " constructed elements (mslport's limit is " +
                             std::to_string(kMaxConstructedElements) + ")");
    return nullptr;
  }
  auto list = std::make_unique<ir::Expr>();
  list->kind = ir::Expr::Kind::InitList;
  list->type = t;
  list->loc = e->loc;
  for (int i = 0; i < t.count; ++i) {
    auto one = each_element(e->clone(), *t.elem, at);
    if (!one) return nullptr;
    list->args.push_back(std::move(one));
  }
  return list;
}

}  // namespace mslport::front
