// Entry points of the front end: sets up the libclang translation unit (C++
// for OpenCL plus the parse-only Metal headers), passes clang's diagnostics
// through with the user's file:line:col, and walks the program scope:
// structs, program-scope constants and kernels.
#include "front/parse_metal.h"
#include "support/phase_times.h"

#include <clang-c/Index.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "front/builder.h"
#include "front/front_context.h"
#include "front/included_files.h"
#include "front/types.h"
#include "support/regular_file.h"

#ifndef MSLPORT_METAL_SHIM_DIR
#error "MSLPORT_METAL_SHIM_DIR must be defined (lib/front/CMakeLists.txt)"
#endif

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
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(take(clang_getFileName(f)), ec).string();
  return p.size() > shim_dir.size() && p.compare(0, shim_dir.size(), shim_dir) == 0 && p[shim_dir.size()] == '/';
}

bool FrontContext::in_shim(CXCursor c) const {
  return in_shim(expansion_pos(clang_getCursorLocation(c)).file);
}

std::string usr_of(CXCursor decl) {
  std::string u = take(clang_getCursorUSR(decl));
  if (!u.empty()) return u;
  FilePos p = spelling_pos(clang_getCursorLocation(decl));
  return "loc:" + take(clang_getFileName(p.file)) + ":" + std::to_string(p.offset);
}

namespace {

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
    ctx.diags.report(is_error ? Severity::Error : Severity::Warning, ctx.loc(where), msg);
    if (is_error) ++errors;
    clang_disposeDiagnostic(d);
  }
  return errors;
}

void build_global_const(FrontContext& ctx, CXCursor v) {
  std::string why;
  auto t = convert_type(ctx, clang_getCursorType(v), &why);
  if (!t) {
    ctx.unsupported(v, why);
    return;
  }
  ir::GlobalConst g;
  g.name = spelling(v);
  g.type = *t;
  g.loc = ctx.loc(v);
  CXCursor init = clang_Cursor_getVarDeclInitializer(v);
  if (clang_Cursor_isNull(init)) {
    ctx.error(v, "program-scope constant '" + g.name + "' needs an initializer");
    return;
  }
  FunctionBuilder b(ctx, nullptr);
  g.init = b.expr(init);
  if (!g.init) return;
  ctx.module.constants.push_back(std::move(g));
  ctx.const_by_usr[usr_of(v)] = (int)ctx.module.constants.size() - 1;
}

// Program scope of the user's files (the shim's declarations are skipped).
void build_scope(FrontContext& ctx, CXCursor scope) {
  for (CXCursor c : children(scope)) {
    FilePos p = expansion_pos(clang_getCursorLocation(c));
    if (!p.file || ctx.in_shim(p.file)) continue;
    switch (clang_getCursorKind(c)) {
      case CXCursor_Namespace: build_scope(ctx, c); break;
      case CXCursor_StructDecl:
        if (clang_isCursorDefinition(c)) {
          std::string why;
          if (!struct_index(ctx, c, &why)) ctx.unsupported(c, why);
        }
        break;
      case CXCursor_UnionDecl:
        if (clang_isCursorDefinition(c)) ctx.unsupported(c, "union '" + spelling(c) + "'");
        break;
      case CXCursor_VarDecl:
        if (address_space_of(clang_getCursorType(c)) == ir::AddressSpace::Constant ||
            clang_isConstQualifiedType(clang_getCursorType(c)))
          build_global_const(ctx, c);
        else
          ctx.error(c, "program-scope variable '" + spelling(c) + "' must be declared in the constant address space");
        break;
      case CXCursor_FunctionDecl:
        // Helper functions are inlined at their call sites (or rejected
        // there); kernels are built here.
        if (is_kernel(c) && clang_isCursorDefinition(c)) build_kernel(ctx, c);
        break;
      default: break;
    }
  }
}

// Whether clang entered only files read_included_files had read (a name
// resolved differently would have been read by clang itself, unchecked):
// the check that the mechanism has no gap.
bool all_inclusions_read(CXTranslationUnit tu, const std::string& main_path,
                         const std::vector<IncludedFile>& included, DiagEngine& diags) {
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
        bool known = v->known_names.count(name) ||
                     (::stat(name.c_str(), &st) == 0 && v->known.count({st.st_dev, st.st_ino}));
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
                                             const ParseOptions& options) {
  ir::Module module;
  module.source_path = path;
  FrontContext ctx(diags, module);
  ctx.main_path = path;
  std::error_code ec;
  std::string shim = options.shim_dir.empty() ? std::string(MSLPORT_METAL_SHIM_DIR) : options.shim_dir;
  ctx.shim_dir = std::filesystem::weakly_canonical(shim, ec).string();
  while (ctx.shim_dir.size() > 1 && ctx.shim_dir.back() == '/') ctx.shim_dir.pop_back();

  // C++ for OpenCL is the closest clang language to Metal: address spaces,
  // ext vectors and C++ templates. -cl-no-stdinc keeps OpenCL's builtin
  // declarations (exp, max, ...) from clashing with namespace metal.
  // Metal has no double: -cl-single-precision-constant makes unsuffixed
  // literals (`0.5`) take part in float arithmetic, as in Metal.
  // -nostdinc: a kernel has no use for the host's C headers, and without
  // them the include search is exactly the directories named here, which
  // read_included_files mirrors.
  std::vector<std::string> args = {"-x", "clcpp", "-cl-std=clc++2021", "-cl-no-stdinc", "-nostdinc",
                                   "-Wno-unknown-attributes", "-cl-single-precision-constant", "-I", shim};
  for (auto& a : options.extra_args) args.push_back(a);
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());

  // Every file the parse may include, read (bounded, regular files only)
  // before clang could read one itself (front/included_files.h).
  std::vector<IncludedFile> included;
  if (!read_included_files(path, text, include_search_from_args(args), &included, diags)) return std::nullopt;
  std::vector<CXUnsavedFile> unsaved{{path.c_str(), text.c_str(), (unsigned long)text.size()}};
  for (const auto& f : included) unsaved.push_back({f.path.c_str(), f.text.c_str(), (unsigned long)f.text.size()});

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
    if (pass_through_diagnostics(ctx) == 0) build_scope(ctx, clang_getTranslationUnitCursor(tu));
  }
  {
    PhaseTimer timer("libclang dispose");
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
  }
  if (diags.error_count() > before) return std::nullopt;
  return module;
}

std::optional<ir::Module> parse_metal_file(const std::string& path, DiagEngine& diags, const ParseOptions& options) {
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
  return parse_metal_source(path, text, diags, options);
}

}  // namespace mslport::front
