// Entry points of the front end: sets up the libclang translation unit (C++
// for OpenCL plus the parse-only Metal headers), passes clang's diagnostics
// through with the user's file:line:col, and walks the program scope:
// structs, program-scope constants and kernels.
#include "front/parse_metal.h"

#include <clang-c/Index.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <tuple>
#include <type_traits>

#include "front/adapt_source.h"
#include "front/builder.h"
#include "front/conditional_operands.h"
#include "front/constant_copies.h"
#include "front/front_context.h"
#include "front/half_bfloat_casts.h"
#include "front/included_files.h"
#include "front/metal_lexer.h"
#include "front/reference_arguments.h"
#include "front/scalar_operands.h"
#include "front/types.h"
#include "front/vector_arguments.h"
#include "front/vector_direct_initializers.h"
#include "front/vector_initializers.h"
#include "ir/analysis/constant_value.h"
#include "ir/analysis/function_constant_reads.h"
#include "support/install_paths.h"
#include "support/phase_times.h"
#include "support/regular_file.h"

namespace mslport::front {

// ------------------------------------------------------------ FrontContext --

std::string FrontContext::file_name(CXFile f) const {
  if (!f) return main_path;
  if (main_file && clang_File_isEqual(f, main_file)) return main_path;
  return take(clang_getFileName(f));
}

ir::SourceLoc FrontContext::loc(CXSourceLocation l) const {
  // Expansion location: a construct that comes from a macro is reported at
  // the macro's use in the user's code.
  FilePos p = expansion_pos(l);
  if (!p.file) return ir::SourceLoc{main_path, 0, 0};
  return ir::SourceLoc{file_name(p.file), (int)p.line, (int)p.col};
}

bool FrontContext::in_shim(CXFile f) const {
  if (!f) return false;
  auto it = shim_files.find(f);
  if (it != shim_files.end()) return it->second;
  std::error_code ec;
  bool in = in_shim_path(std::filesystem::weakly_canonical(take(clang_getFileName(f)), ec).string());
  shim_files[f] = in;
  return in;
}

bool FrontContext::in_shim_path(const std::string& p) const {
  return p.size() > shim_dir.size() && p.compare(0, shim_dir.size(), shim_dir) == 0 && p[shim_dir.size()] == '/';
}

bool FrontContext::in_shim(CXCursor c) const { return in_shim(expansion_pos(clang_getCursorLocation(c)).file); }

std::string usr_of(CXCursor decl) {
  std::string u = take(clang_getCursorUSR(decl));
  if (!u.empty()) return u;
  FilePos p = spelling_pos(clang_getCursorLocation(decl));
  return "loc:" + take(clang_getFileName(p.file)) + ":" + std::to_string(p.offset);
}

namespace {

// clang speaks of the language it parses (C++ for OpenCL, with the shim's
// spellings); the user wrote Metal.
std::string metal_spelling(std::string msg) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"in C++ for OpenCL", "in Metal"},
      {"in OpenCL", "in Metal"},
      {"__global ", "device "},
      {"__local ", "threadgroup "},
      {"__constant ", "constant "},
      {"__private ", ""},
      {"__generic ", ""},
      {" __global", " device"},
      {" __local", " threadgroup"},
      {" __constant", " constant"},
      {" __private", ""},
      {"__bf16", "bfloat"},
      {"__mkrn", "kernel"},
      {"local__mslport_kw", "local"},
      {"global__mslport_kw", "global"},
  };
  for (auto& [from, to] : kWords)
    for (size_t p; (p = msg.find(from)) != std::string::npos;) msg.replace(p, std::strlen(from), to);
  // `float __attribute__((ext_vector_type(4)))` is float4.
  const std::string ev = " __attribute__((ext_vector_type(";
  for (size_t p; (p = msg.find(ev)) != std::string::npos;) {
    size_t close = msg.find(")))", p);
    if (close == std::string::npos) break;
    std::string n = msg.substr(p + ev.size(), close - p - ev.size());
    msg.replace(p, close + 3 - p, n);
  }
  return msg;
}

// Keys of ctx.bad_functions for type aliases clang could not form.
constexpr const char* kUnusableAliasPrefix = "alias:";

// The USR of the function (template) whose body holds `where`, when it is
// declared at program scope; "" otherwise.
std::string enclosing_function_usr(FrontContext& ctx, CXSourceLocation where) {
  CXCursor c = clang_getCursor(ctx.tu, where);
  std::string found;
  for (int depth = 0; !clang_Cursor_isNull(c) && depth < 256; ++depth) {
    CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
    if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) found = usr_of(c);
    // A type alias that clang cannot form (its uses fail where they are).
    if ((k == CXCursor_TypedefDecl || k == CXCursor_TypeAliasDecl) &&
        clang_getCursorKind(clang_getCursorSemanticParent(c)) == CXCursor_TranslationUnit)
      return std::string(kUnusableAliasPrefix) + usr_of(c);
    if (k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_ClassTemplate || k == CXCursor_CXXMethod ||
        k == CXCursor_Constructor)
      return "";  // a type's members belong to every kernel that uses the type
    c = clang_getCursorSemanticParent(c);
  }
  return found;
}

// Passes clang's warnings and errors through. A diagnostic located in the
// shim is reported at the user's code that caused it (the first note that
// points outside the shim, e.g. "in instantiation of ... requested here");
// warnings inside the shim are dropped.
int pass_through_diagnostics(FrontContext& ctx) {
  int errors = 0;
  unsigned n = clang_getNumDiagnostics(ctx.tu);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(ctx.tu, i);
    CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev != CXDiagnostic_Warning && sev != CXDiagnostic_Error && sev != CXDiagnostic_Fatal) {
      clang_disposeDiagnostic(d);
      continue;
    }
    bool is_error = sev != CXDiagnostic_Warning;
    std::string msg = take(clang_getDiagnosticSpelling(d));
    // OpenCL's restrictions on kernel parameter types are not Metal's; the
    // front end checks kernel parameters with Metal's rules itself.
    const std::string kernel_param = "cannot be used as the type of a kernel parameter";
    if (msg.size() >= kernel_param.size() &&
        msg.compare(msg.size() - kernel_param.size(), kernel_param.size(), kernel_param) == 0) {
      clang_disposeDiagnostic(d);
      continue;
    }
    msg = metal_spelling(msg);
    // A static_assert clang cannot evaluate (a constexpr operator on half,
    // say) checks nothing mslport translates: it is no reason to stop.
    if (is_error && msg == "static assertion expression is not an integral constant expression") {
      is_error = false;
      msg = "static_assert not evaluated (its expression is no constant expression for mslport's parser)";
    }
    // vec<T, N> instantiated with T = bool (a template's), directly or as
    // the reason a candidate failed: `vec` is an ext vector alias, which
    // clang's OpenCL mode refuses for bool; vec<bool, N> spelled so names
    // the shim's bool vector instead (adapt_source.h).
    {
      const std::string bool_lanes = "invalid vector element type 'bool'";
      bool about_bool_lanes = msg.find(bool_lanes) != std::string::npos;
      CXDiagnosticSet notes = clang_getChildDiagnostics(d);
      for (unsigned j = 0; notes && j < clang_getNumDiagnosticsInSet(notes) && !about_bool_lanes; ++j) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, j);
        about_bool_lanes = take(clang_getDiagnosticSpelling(note)).find(bool_lanes) != std::string::npos;
        clang_disposeDiagnostic(note);
      }
      if (is_error && about_bool_lanes)
        msg +=
            " (vec<T, N> with T = bool, a template's, is not supported yet: write vec<bool, N> or bool2, bool3, "
            "bool4)";
    }
    // A function constant the host sets has no value while compiling: say
    // which one a constant expression needed, and how to give it one.
    if (is_error && !ctx.host_set_function_constants.empty()) {
      CXDiagnosticSet notes = clang_getChildDiagnostics(d);
      for (unsigned j = 0; notes && j < clang_getNumDiagnosticsInSet(notes); ++j) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, j);
        std::string text = take(clang_getDiagnosticSpelling(note));
        clang_disposeDiagnostic(note);
        const std::string unknown = "initializer of '";
        if (text.rfind(unknown, 0) != 0) continue;
        std::string name = text.substr(unknown.size(), text.find('\'', unknown.size()) - unknown.size());
        if (!ctx.host_set_function_constants.count(name)) continue;
        msg += " ('" + name + "' is a function constant the host sets at dispatch, with no value while compiling: " +
               "give it one with --function-constant " + name + "=VALUE)";
        break;
      }
    }
    CXSourceLocation where = clang_getDiagnosticLocation(d);
    if (ctx.in_shim(expansion_pos(where).file)) {
      bool found = false;
      CXDiagnosticSet kids = clang_getChildDiagnostics(d);
      for (unsigned j = 0; kids && j < clang_getNumDiagnosticsInSet(kids) && !found; ++j) {
        CXDiagnostic k = clang_getDiagnosticInSet(kids, j);
        CXSourceLocation kl = clang_getDiagnosticLocation(k);
        FilePos kp = expansion_pos(kl);
        if (kp.file && !ctx.in_shim(kp.file)) {
          where = kl;
          found = true;
        }
        clang_disposeDiagnostic(k);
      }
      if (!found && !is_error) {
        clang_disposeDiagnostic(d);
        continue;
      }
    }
    if (is_error && ctx.skipped) {
      // An error inside a function's body costs only the kernels that need
      // that function (partial translation). One outside any (a class
      // template's static member, instantiated for one type argument)
      // costs the function whose body asked for that instance.
      std::string usr = enclosing_function_usr(ctx, where);
      CXDiagnosticSet chain = clang_getChildDiagnostics(d);
      for (unsigned j = 0; usr.empty() && chain && j < clang_getNumDiagnosticsInSet(chain); ++j) {
        CXDiagnostic note = clang_getDiagnosticInSet(chain, j);
        if (take(clang_getDiagnosticSpelling(note)).rfind("in instantiation of ", 0) == 0)
          usr = enclosing_function_usr(ctx, clang_getDiagnosticLocation(note));
        clang_disposeDiagnostic(note);
      }
      if (!usr.empty()) {
        ctx.bad_functions[usr].push_back(Diagnostic{Severity::Error, ctx.loc(where), msg});
        clang_disposeDiagnostic(d);
        continue;
      }
    }
    ctx.diags.report(is_error ? Severity::Error : Severity::Warning, ctx.loc(where), msg);
    if (is_error) ++errors;
    clang_disposeDiagnostic(d);
  }
  return errors;
}

// Does the expression under `c` read a function constant or a constant
// that one decides?
bool reads_specialization_constant(FrontContext& ctx, CXCursor c) {
  struct Scan {
    FrontContext* ctx;
    bool found = false;
  } scan{&ctx};
  clang_visitChildren(
      c,
      [](CXCursor x, CXCursor, CXClientData d) {
        auto* s = static_cast<Scan*>(d);
        if (clang_getCursorKind(x) == CXCursor_DeclRefExpr) {
          std::string n = spelling(clang_getCursorReferenced(x));
          if (n.rfind(kFcDefinedPrefix, 0) == 0 || s->ctx->specialization_constants.count(n)) s->found = true;
        }
        return s->found ? CXChildVisit_Break : CXChildVisit_Recurse;
      },
      &scan);
  return scan.found;
}

void build_global_const(FrontContext& ctx, CXCursor v) {
  std::string name = spelling(v);
  // is_function_constant_defined's companions are read as literals, and a
  // function constant without a value has none to declare.
  if (name.rfind(kFcDefinedPrefix, 0) == 0) return;
  if (auto d = ctx.function_constant_defined.find(name); d != ctx.function_constant_defined.end() && !d->second) return;
  // A host-set function constant's index (adapt_source.h), declared right
  // after the constant.
  if (name.rfind(kFcIndexPrefix, 0) == 0) {
    auto c = ctx.const_by_usr.find(ctx.host_set_usr[name.substr(strlen(kFcIndexPrefix))]);
    if (c == ctx.const_by_usr.end()) return;  // the constant itself was refused
    ir::GlobalConst& g = ctx.module.constants[c->second];
    CXCursor init = clang_Cursor_getVarDeclInitializer(v);
    CXEvalResult r = clang_Cursor_isNull(init) ? nullptr : clang_Cursor_Evaluate(init);
    if (r && clang_EvalResult_getKind(r) == CXEval_Int)
      g.function_constant_index = (int)clang_EvalResult_getAsLongLong(r);
    if (r) clang_EvalResult_dispose(r);
    if (g.function_constant_index < 0 || g.function_constant_index > 65535)
      ctx.error(g.loc, "function constant '" + g.name + "': its index must be an integer constant in 0..65535");
    return;
  }
  if (ctx.host_set_function_constants.count(name) && clang_Cursor_hasVarDeclExternalStorage(v) == 1) {
    // The host sets it: no value here, a kernel parameter where it is read.
    std::string why;
    auto t = convert_type(ctx, clang_getCursorType(v), &why);
    if (!t || !t->is_scalar()) {
      const std::string why = "function constant '" + name +
                              "' has no value, and only a scalar one can be set by the host at dispatch: give it one "
                              "with --function-constant " +
                              name + "=VALUE";
      if (ctx.skipped) ctx.bad_constants[usr_of(v)] = why;  // partial translation: its readers are skipped
      else ctx.error(v, why);
      return;
    }
    ir::GlobalConst g;
    g.name = name;
    g.type = *t;
    g.loc = ctx.loc(v);
    g.host_set = true;
    ctx.specialization_constants[name] = std::nullopt;
    ctx.module.constants.push_back(std::move(g));
    ctx.const_by_usr[usr_of(v)] = (int)ctx.module.constants.size() - 1;
    ctx.host_set_usr[name] = usr_of(v);
    return;
  }
  // A shader logger (`constant os_log logger("subsystem", "category");`):
  // its calls are left out (build_stmt.cc), so it needs no storage.
  CXCursor type_decl = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(v)));
  if (!clang_Cursor_isNull(type_decl) && ctx.in_shim(type_decl) && spelling(type_decl) == "os_log") return;
  std::string why;
  auto t = convert_type(ctx, clang_getCursorType(v), &why);
  if (!t) {
    ctx.unsupported(v, why);
    return;
  }
  ir::GlobalConst g;
  g.name = name;
  g.type = *t;
  g.loc = ctx.loc(v);
  CXCursor init = clang_Cursor_getVarDeclInitializer(v);
  if (clang_Cursor_isNull(init)) {
    ctx.error(v, "program-scope constant '" + g.name + "' needs an initializer");
    return;
  }
  if (ctx.function_constants.count(name) || reads_specialization_constant(ctx, init)) {
    std::optional<int64_t> value;
    CXEvalResult r = clang_Cursor_Evaluate(init);
    if (r && clang_EvalResult_getKind(r) == CXEval_Int) value = clang_EvalResult_getAsLongLong(r);
    if (r) clang_EvalResult_dispose(r);
    ctx.specialization_constants[name] = value;
  }
  FunctionBuilder b(ctx, nullptr);
  g.init = b.expr(init);
  if (!g.init) return;
  // A helper's call is inlined into kernels' code only (passes::inline_functions).
  bool calls_helper = false;
  ir::walk_exprs(*g.init, [&](const ir::Expr& x) {
    calls_helper = calls_helper || x.kind == ir::Expr::Kind::UserCall;
    return !calls_helper;
  });
  // A helper's result (a matrix or struct constructor), or a value read
  // from such a constant: each kernel that reads it computes it
  // (passes::compute_constants_in_kernels).
  ir::walk_exprs(*g.init, [&](const ir::Expr& x) {
    calls_helper = calls_helper || (x.kind == ir::Expr::Kind::GlobalConstRef && ctx.module.constants[x.index].computed);
    return !calls_helper;
  });
  g.computed = calls_helper;
  // `constant uint x = size.x;`, with `size` a constant vector, is no
  // constant expression in OpenCL C or C++ as written: a scalar is its value.
  if (g.type.is_scalar() && g.init->kind != ir::Expr::Kind::IntLit && g.init->kind != ir::Expr::Kind::FloatLit)
    if (auto v = ir::analysis::constant_scalar(ctx.module, *g.init)) g.init = std::move(v);
  ctx.module.constants.push_back(std::move(g));
  ctx.const_by_usr[usr_of(v)] = (int)ctx.module.constants.size() - 1;
}

// A kernel that reads a function constant the host sets (in its body, a
// helper or a constant computed from it) takes it as a parameter, after its
// own, in function-constant index order: its interface says what the host
// must set.
void add_function_constant_params(FrontContext& ctx) {
  for (ir::Kernel& k : ctx.module.kernels)
    for (int c : ir::analysis::host_set_constants_read(ctx.module, k)) {
      const ir::GlobalConst& g = ctx.module.constants[c];
      bool clash = false;
      for (const ir::Param& p : k.params) clash = clash || p.name == g.name;
      if (clash) {
        ctx.error(k.loc, "kernel '" + k.name + "' has a parameter named like the function constant '" + g.name +
                             "' it reads: this is not supported yet");
        continue;
      }
      ir::Param p;
      p.kind = ir::Param::Kind::FunctionConstant;
      p.name = g.name;
      p.type = g.type;
      p.index = g.function_constant_index;
      p.loc = g.loc;
      k.params.push_back(std::move(p));
    }
}

bool has_annotation(CXCursor c, const std::string& prefix, std::string* rest) {
  for (CXCursor ch : children(c))
    if (clang_getCursorKind(ch) == CXCursor_AnnotateAttr) {
      std::string a = spelling(ch);
      if (a.rfind(prefix, 0) == 0) {
        if (rest) *rest = a.substr(prefix.size());
        return true;
      }
    }
  return false;
}

// `__mslport_instance_N() { (void)&k<T>; }` (adapt_source.h): the kernel is
// the template instance it names.
void build_instance(FrontContext& ctx, CXCursor fn, const std::string& host_name) {
  // A failed instance costs that kernel only (partial translation).
  auto fail = [&](const std::string& name, std::vector<Diagnostic> reasons) {
    if (ctx.skipped) {
      ctx.skipped->push_back(SkippedKernel{name, ctx.loc(fn), std::move(reasons)});
      return;
    }
    for (auto& d : reasons) ctx.diags.report(d.severity, d.loc, d.message);
  };
  std::string label = host_name.empty() ? "<instance at line " + std::to_string(ctx.loc(fn).line) + ">" : host_name;
  if (const auto* errs = function_errors(ctx, fn)) {
    // clang could not instantiate it; a function given as a template
    // argument is the usual reason (clang's OpenCL mode cannot match it).
    std::vector<Diagnostic> reasons = *errs;
    for (auto& d : reasons)
      if (d.message.find("invalid explicitly-specified argument") != std::string::npos ||
          d.message.find("address of overloaded function") != std::string::npos)
        d.message += " (a function as a template argument is not supported yet)";
    fail(label, std::move(reasons));
    return;
  }
  CXCursor instance = clang_getNullCursor();
  clang_visitChildren(
      fn,
      [](CXCursor x, CXCursor, CXClientData d) {
        if (clang_getCursorKind(x) == CXCursor_DeclRefExpr) {
          *static_cast<CXCursor*>(d) = clang_getCursorReferenced(x);
          return CXChildVisit_Break;
        }
        return CXChildVisit_Recurse;
      },
      &instance);
  auto reason = [&](const std::string& msg) {
    return std::vector<Diagnostic>{Diagnostic{Severity::Error, ctx.loc(fn), msg}};
  };
  if (clang_Cursor_isNull(instance) || clang_getCursorKind(instance) != CXCursor_FunctionDecl) {
    fail(label, reason("explicit instantiation does not name a kernel template instance"));
    return;
  }
  if (!is_kernel(instance)) {
    fail(label,
         reason("explicit instantiation with [[host_name]] of '" + spelling(instance) + "', which is not a kernel"));
    return;
  }
  CXCursor def = clang_getCursorDefinition(instance);
  if (clang_Cursor_isNull(def)) {
    // clang gave up on this instance's body: its errors are the reason.
    if (const auto* errs = function_errors(ctx, instance)) {
      fail(label, *errs);
      return;
    }
    fail(label, reason("kernel template instance '" + spelling(instance) + template_args_text(instance) +
                       "' has no definition"));
    return;
  }
  std::string name = host_name.empty() ? mangled_name(spelling(def), template_args_text(def)) : host_name;
  build_kernel(ctx, def, name, ctx.loc(fn));
}

// Program scope of the user's files (the shim's declarations are skipped).
void build_scope(FrontContext& ctx, CXCursor scope) {
  for (CXCursor c : children(scope)) {
    FilePos p = expansion_pos(clang_getCursorLocation(c));
    if (!p.file || ctx.in_shim(p.file)) continue;
    switch (clang_getCursorKind(c)) {
      case CXCursor_Namespace: build_scope(ctx, c); break;
      case CXCursor_StructDecl:
      case CXCursor_UnionDecl:
        // Under partial translation a struct without an IR form costs only
        // the kernels that use it (they meet the same reason there).
        if (clang_isCursorDefinition(c)) {
          std::string why;
          if (!struct_index(ctx, c, &why) && !ctx.skipped) ctx.unsupported(c, why);
        }
        break;
      case CXCursor_VarDecl:
        if (address_space_of(clang_getCursorType(c)) == ir::AddressSpace::Constant ||
            clang_isConstQualifiedType(clang_getCursorType(c)))
          build_global_const(ctx, c);
        else
          ctx.error(c, "program-scope variable '" + spelling(c) + "' must be declared in the constant address space");
        break;
      case CXCursor_FunctionDecl: {
        // Helper functions are built when a kernel calls them; kernels and
        // the instances of template kernels are built here.
        std::string host;
        if (has_annotation(c, kInstancePrefix, &host)) {
          build_instance(ctx, c, host);
        } else if (is_kernel(c) && clang_isCursorDefinition(c)) {
          has_annotation(c, kHostNamePrefix, &host);
          build_kernel(ctx, c, host.empty() ? spelling(c) : host, ctx.loc(c));
        }
        break;
      }
      default: break;
    }
  }
}

// Whether clang entered only files read_included_files had read (a name
// resolved differently would have been read by clang itself, unchecked):
// the check that the mechanism has no gap.
bool all_inclusions_read(CXTranslationUnit tu, const std::string& main_path, const std::vector<IncludedFile>& included,
                         DiagEngine& diags) {
  struct Visit {
    std::set<std::pair<dev_t, ino_t>> known;
    std::set<std::string> known_names;
    std::vector<std::string> unknown;
  } v;
  auto add = [&](const std::string& p) {
    v.known_names.insert(p);
    struct stat st;
    if (::stat(p.c_str(), &st) == 0) v.known.insert({st.st_dev, st.st_ino});
  };
  add(main_path);
  for (const auto& f : included) add(f.path);
  clang_getInclusions(
      tu,
      [](CXFile file, CXSourceLocation*, unsigned, CXClientData data) {
        auto* v = static_cast<Visit*>(data);
        std::string name = take(clang_getFileName(file));
        struct stat st;
        bool known =
            v->known_names.count(name) || (::stat(name.c_str(), &st) == 0 && v->known.count({st.st_dev, st.st_ino}));
        if (!known) v->unknown.push_back(name);
      },
      &v);
  for (const auto& name : v.unknown)
    diags.error(ir::SourceLoc{main_path, 0, 0},
                "internal error: clang included '" + name + "', which the front end's include check did not read");
  return v.unknown.empty();
}

}  // namespace

void parse_on_calling_thread() { ::setenv("LIBCLANG_NOTHREADS", "1", 1); }

std::optional<ir::Module> parse_metal_source(const std::string& path, const std::string& text, DiagEngine& diags,
                                             const ParseOptions& options, std::vector<SkippedKernel>* skipped) {
  ir::Module module;
  module.source_path = path;
  FrontContext ctx(diags, module);
  ctx.main_path = path;
  ctx.skipped = skipped;
  std::error_code ec;
  // PREFIX/share/mslport/metal_include beside the program (support/install_paths.h).
  std::string shim = options.shim_dir.empty() ? install_paths().metal_include() : options.shim_dir;
  ctx.shim_dir = std::filesystem::weakly_canonical(shim, ec).string();
  while (ctx.shim_dir.size() > 1 && ctx.shim_dir.back() == '/') ctx.shim_dir.pop_back();

  if (!std::filesystem::is_regular_file(std::filesystem::path(shim) / "metal_stdlib", ec)) {
    diags.error(ir::SourceLoc{path, 0, 0}, "mslport's Metal headers are missing: no " +
                                               (std::filesystem::path(shim) / "metal_stdlib").string() +
                                               " (reinstall mslport)");
    return std::nullopt;
  }

  // C++ for OpenCL is the closest clang language to Metal: address spaces,
  // ext vectors and C++ templates. -cl-no-stdinc keeps OpenCL's builtin
  // declarations (exp, max, ...) from clashing with namespace metal.
  // Metal has no double: -cl-single-precision-constant makes unsuffixed
  // literals (`0.5`) take part in float arithmetic, as in Metal.
  // -nostdinc: a kernel has no use for the host's C headers, and without
  // them the include search is exactly the directories named here, which
  // read_included_files mirrors.
  // -ferror-limit=0: partial translation wants every error, not the first
  // 20. Function constants without a value read as 0 in the parse, where
  // clang's division-by-zero warnings are noise.
  std::vector<std::string> args = {"-x", "clcpp", "-cl-std=clc++2021", "-cl-no-stdinc", "-nostdinc",
                                   "-Wno-unknown-attributes", "-cl-single-precision-constant", "-Xclang",
                                   "-cl-ext=+__cl_clang_function_pointers", "-ferror-limit=0", "-Wno-division-by-zero",
                                   // `const constant T` is `const __constant const T` with the shim's constant
                                   "-Wno-duplicate-decl-specifier"};
  for (auto& d : options.include_dirs) {
    args.push_back("-I");
    args.push_back(d);
  }
  args.push_back("-I");
  args.push_back(shim);
  for (const char* m : kPredefinedMacros) args.push_back(std::string("-D") + m);
  // Metal's scalar and vector types, and its keywords, exist before any
  // #include (a header may use int32_t before including <metal_stdlib>).
  std::string prelude = (std::filesystem::path(shim) / "metal_stdlib").string();
  args.push_back("-include");
  args.push_back(prelude);
  for (auto& m : options.macros) args.push_back(m.arg());
  for (auto& a : options.extra_args) args.push_back(a);
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());

  // Every file the parse may include, read (bounded, regular files only)
  // before clang could read one itself (front/included_files.h): the
  // prelude and what it includes, then the main file's includes.
  std::vector<IncludedFile> included(1);
  {
    std::string why;
    included[0].path = prelude;
    if (!read_regular_file(prelude, kMaxIncludedFileBytes, &included[0].text, &why)) {
      diags.error(ir::SourceLoc{path, 0, 0}, "mslport's Metal headers cannot be read: " + why + " (reinstall mslport)");
      return std::nullopt;
    }
  }
  IncludeSearch search = include_search_from_args(args);
  if (!read_included_files(prelude, included[0].text, search, &included, diags)) return std::nullopt;
  size_t shim_files = included.size();
  if (!read_included_files(path, text, search, &included, diags)) return std::nullopt;

  // Metal syntax clang does not take is adapted first, in the main file and
  // in every header of the user's it includes (adapt_source.h); mslport's
  // own headers are written for clang already.
  AdaptOptions adapt;
  adapt.function_constants = options.function_constants;
  // Optional function constants are those any file checks for a value.
  adapt.checked_function_constants = function_constants_checked(text);
  for (size_t i = shim_files; i < included.size(); ++i)
    for (auto& n : function_constants_checked(included[i].text)) adapt.checked_function_constants.insert(n);
  std::string main_text;
  {
    PhaseTimer timer("front end: source adaptation");
    auto adapt_file = [&](const std::string& file, const std::string& in, std::string* out) {
      AdaptResult a = adapt_metal_source(in, adapt);
      for (auto& [line, msg] : a.errors) diags.error(ir::SourceLoc{file, line, 1}, msg);
      for (auto& [line, msg] : a.warnings) diags.warning(ir::SourceLoc{file, line, 1}, msg);
      for (auto& [n, idx] : a.function_constants) ctx.function_constants[n] = idx;
      for (auto& [n, d] : a.function_constant_defined) ctx.function_constant_defined[n] = d;
      for (auto& n : a.host_set_function_constants) ctx.host_set_function_constants.insert(n);
      *out = std::move(a.text);
    };
    adapt_file(path, text, &main_text);
    for (size_t i = shim_files; i < included.size(); ++i) {
      std::string canon = std::filesystem::weakly_canonical(included[i].path, ec).string();
      if (ctx.in_shim_path(canon)) continue;
      std::string adapted;
      adapt_file(included[i].path, included[i].text, &adapted);
      included[i].text = std::move(adapted);
    }
  }
  if (diags.has_errors()) return std::nullopt;
  // The adapted texts as libclang reads them. Completing vector
  // initialisers below edits the texts (moving their buffers), so the list
  // is made again, the same way, before each parse.
  auto unsaved_files = [&] {
    std::vector<CXUnsavedFile> out{{path.c_str(), main_text.c_str(), (unsigned long)main_text.size()}};
    for (const auto& f : included) out.push_back({f.path.c_str(), f.text.c_str(), (unsigned long)f.text.size()});
    return out;
  };
  std::vector<CXUnsavedFile> unsaved = unsaved_files();

  CXIndex index = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
  CXTranslationUnit tu = nullptr;
  CXErrorCode err;
  {
    PhaseTimer timer("libclang parse");
    err = clang_parseTranslationUnit2(index, path.c_str(), argv.data(), (int)argv.size(), unsaved.data(),
                                      (unsigned)unsaved.size(), CXTranslationUnit_None, &tu);
  }
  if (err != CXError_Success || !tu) {
    // libclang runs the parse under crash recovery: a crash inside clang
    // comes back as CXError_Crashed and is an error for this file only.
    diags.error(ir::SourceLoc{path, 0, 0},
                err == CXError_Crashed ? std::string("libclang crashed while parsing this file (contained)")
                                       : "libclang could not parse the file (error " + std::to_string(err) + ")");
    clang_disposeIndex(index);
    return std::nullopt;
  }
  // Metal that clang's C++ for OpenCL refuses but reports exactly enough to
  // mend in the text, then the file is parsed again: vector brace
  // initialisers shorter than their vector are completed with zeros
  // (front/vector_initializers.h), scalar operands of greater rank than the
  // vector beside them are converted to its element type
  // (front/scalar_operands.h), the operands of casts between half and
  // bfloat go through float (front/half_bfloat_casts.h), brace lists
  // passed for vector parameters are given the vector's type
  // (front/vector_arguments.h), vectors initialised with parentheses are
  // given the shim's constructor (front/vector_direct_initializers.h), and an lvalue operand of ?: beside a call's
  // class value is copied (front/conditional_operands.h). One round mends every list clang reported;
  // the lists go first, and operands take a round per level of nesting
  // (`s * (t * h4)` is reported once the inner product is mended), up to a
  // bound.
  // Each round parses once more; a file takes a round per kind of mend it
  // needs (and per level of nesting), so the bound leaves room for all.
  constexpr int kMaxMendRounds = 16;
  auto text_of = [&](CXFile file) -> std::string* {
    if (clang_File_isEqual(file, clang_getFile(tu, path.c_str()))) return &main_text;
    for (size_t i = shim_files; i < included.size(); ++i)
      if (CXFile f = clang_getFile(tu, included[i].path.c_str()); f && clang_File_isEqual(file, f))
        return &included[i].text;
    return nullptr;
  };
  // Applies `mend` to each file's reports together (one lexing per file);
  // true when it changed a text. Reports in files not parsed from text
  // here (the shims) are left, and so are those in a file another step
  // changed this round: their offsets are into the text clang parsed,
  // which that step has moved (the next round reports them again).
  std::set<const std::string*> mended_this_round;
  auto mend_by_file = [&](const auto& reports, auto mend) {
    using Report = typename std::decay_t<decltype(reports)>::value_type;
    std::vector<std::pair<std::string*, std::vector<Report>>> by_file;
    for (const auto& r : reports) {
      std::string* text = text_of(r.file);
      if (!text || mended_this_round.count(text)) continue;
      auto it = std::find_if(by_file.begin(), by_file.end(), [&](const auto& e) { return e.first == text; });
      if (it == by_file.end()) it = by_file.insert(by_file.end(), {text, {}});
      it->second.push_back(r);
    }
    bool changed = false;
    for (auto& [text, list] : by_file)
      if (mend(text, list) > 0) {
        changed = true;
        mended_this_round.insert(text);
      }
    return changed;
  };
  for (int round = 0; round < kMaxMendRounds; ++round) {
    mended_this_round.clear();
    bool changed = false;
    auto shorts = short_vector_initializers(tu);
    if (!shorts.empty()) {
      // By offset, so that the reports of one list are side by side.
      std::sort(shorts.begin(), shorts.end(),
                [](const auto& a, const auto& b) { return a.brace_offset > b.brace_offset; });
      // A list in a template is reported once per instance: complete it once,
      // and not at all when instances disagree on the count (vec<T, N>).
      std::vector<ShortVectorInitializer> unique;
      for (size_t i = 0; i < shorts.size();) {
        size_t j = i;
        bool agree = true;
        for (; j < shorts.size() && shorts[j].brace_offset == shorts[i].brace_offset &&
               clang_File_isEqual(shorts[j].file, shorts[i].file);
             ++j)
          agree = agree && shorts[j].missing == shorts[i].missing;
        if (agree) unique.push_back(shorts[i]);
        i = j;
      }
      changed = mend_by_file(unique, complete_vector_initializers);
    }
    if (!changed) changed = mend_by_file(scalar_operands_of_greater_rank(tu), wrap_scalar_operands);
    if (mend_by_file(half_bfloat_casts(tu), convert_cast_operands_through_float)) changed = true;
    if (mend_by_file(vector_argument_lists(tu), construct_vector_arguments)) changed = true;
    if (mend_by_file(vector_direct_initializers(tu), construct_vector_direct_initializers)) changed = true;
    if (mend_by_file(address_space_conditional_operands(tu), copy_conditional_operands)) changed = true;
    if (mend_by_file(unbound_reference_arguments(tu), box_reference_arguments)) changed = true;
    if (mend_by_file(constant_space_copies(tu), load_constant_copies)) changed = true;
    if (!changed) break;
    unsaved = unsaved_files();
    PhaseTimer timer("libclang parse");
    if (int rc = clang_reparseTranslationUnit(tu, (unsigned)unsaved.size(), unsaved.data(),
                                              clang_defaultReparseOptions(tu))) {
      diags.error(ir::SourceLoc{path, 0, 0},
                  "libclang could not parse the file again after adapting vector initialisers, scalar operands, casts "
                  "or vector arguments (error " +
                      std::to_string(rc) + ")");
      clang_disposeTranslationUnit(tu);  // libclang's rule after a failed reparse
      clang_disposeIndex(index);
      return std::nullopt;
    }
  }
  ctx.tu = tu;
  ctx.main_file = clang_getFile(tu, path.c_str());
  if (!all_inclusions_read(tu, path, included, diags)) {
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return std::nullopt;
  }

  int before = diags.error_count();
  {
    PhaseTimer timer("front end: AST walk to IR");
    if (pass_through_diagnostics(ctx) == 0) {
      build_scope(ctx, clang_getTranslationUnitCursor(tu));
      add_function_constant_params(ctx);
      // Aliases that could not be formed cost only what uses them; say so.
      for (auto& [key, errs] : ctx.bad_functions)
        if (key.rfind(kUnusableAliasPrefix, 0) == 0)
          for (auto& d : errs) diags.warning(d.loc, d.message + " (this type alias is left out)");
    } else {
      // The file fails as a whole: the errors held back for partial
      // translation are errors too.
      std::vector<Diagnostic> held;
      for (auto& [usr, errs] : ctx.bad_functions) held.insert(held.end(), errs.begin(), errs.end());
      std::stable_sort(held.begin(), held.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.loc.file, a.loc.line, a.loc.col) < std::tie(b.loc.file, b.loc.line, b.loc.col);
      });
      for (auto& d : held) diags.report(d.severity, d.loc, d.message);
    }
  }
  {
    PhaseTimer timer("libclang dispose");
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
  }
  if (diags.error_count() > before) return std::nullopt;
  return module;
}

std::optional<ir::Module> parse_metal_file(const std::string& path, DiagEngine& diags, const ParseOptions& options,
                                           std::vector<SkippedKernel>* skipped) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {  // an ifstream opens a directory and reads nothing
    diags.error(ir::SourceLoc{path, 0, 0}, "'" + path + "' is a directory, not a .metal file");
    return std::nullopt;
  }
  if (!std::filesystem::exists(path, ec)) {
    diags.error(ir::SourceLoc{path, 0, 0}, "cannot open file '" + path + "'");
    return std::nullopt;
  }
  // Bounded, and regular files only: /dev/zero or a FIFO is an error.
  std::string text, why;
  if (!read_regular_file(path, kMaxIncludedFileBytes, &text, &why)) {
    diags.error(ir::SourceLoc{path, 0, 0}, "cannot read the source: " + why);
    return std::nullopt;
  }
  return parse_metal_source(path, text, diags, options, skipped);
}

}  // namespace mslport::front
