// State shared by the front end's builders while one translation unit is
// turned into an ir::Module. Internal to lib/front.
#pragma once

#include <clang-c/Index.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "front/cursor_util.h"
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::front {

struct FrontContext {
  CXTranslationUnit tu = nullptr;
  std::string main_path;  // as given by the caller (used in every SourceLoc)
  CXFile main_file = nullptr;
  std::string shim_dir;
  DiagEngine& diags;
  ir::Module& module;

  // Declarations already turned into module-level entities, keyed by USR.
  std::map<std::string, int> struct_by_usr;
  std::map<std::string, int> const_by_usr;
  std::map<std::string, int> function_by_usr;  // Module::functions
  // Module::structs that are the shim's packed vectors (packed_float3).
  std::set<int> packed_vectors;
  // Function constants of the program (name -> index) and those given no
  // value (their value must not be used).
  std::map<std::string, int> function_constants;
  std::map<std::string, bool> function_constant_defined;
  // Function constants the host sets at dispatch (adapt_source.h), and the
  // USR of each one's declaration.
  std::set<std::string> host_set_function_constants;
  std::map<std::string, std::string> host_set_usr;
  // Program-scope constants whose value a function constant decides
  // (function constants included), with their value when it is an integer.
  std::map<std::string, std::optional<int64_t>> specialization_constants;
  // Partial translation: where skipped kernels go (null: errors stay
  // errors), and the clang errors inside each function's body, by USR.
  std::vector<SkippedKernel>* skipped = nullptr;
  std::map<std::string, std::vector<Diagnostic>> bad_functions;
  // Program-scope constants that could not be built, by USR: why. Only the
  // kernels that read one are skipped.
  std::map<std::string, std::string> bad_constants;
  // Kernel names already built (host names must be unique).
  std::map<std::string, ir::SourceLoc> kernel_names;
  // Cache of in_shim(CXFile).
  mutable std::map<const void*, bool> shim_files;
  std::vector<std::string> functions_in_progress;  // USRs being built (recursion)

  FrontContext(DiagEngine& d, ir::Module& m) : diags(d), module(m) {}

  ir::SourceLoc loc(CXSourceLocation l) const;
  ir::SourceLoc loc(CXCursor c) const { return loc(clang_getCursorLocation(c)); }
  // The file name a SourceLoc uses for `file` (main file: as given).
  std::string file_name(CXFile f) const;
  bool in_shim(CXFile f) const;
  bool in_shim_path(const std::string& canonical_path) const;
  bool in_shim(CXCursor c) const;

  void error(CXCursor c, const std::string& msg) { diags.error(loc(c), msg); }
  void error(const ir::SourceLoc& l, const std::string& msg) { diags.error(l, msg); }
  // "<what> is not supported yet": the one wording for every construct the
  // front end knowingly rejects.
  void unsupported(CXCursor c, const std::string& what) { error(c, what + " is not supported yet"); }
};

// USR of a declaration; the key under which builders remember declarations.
std::string usr_of(CXCursor decl);

// The clang errors inside `fn`'s body or its template's (partial
// translation), or null.
const std::vector<Diagnostic>* function_errors(const FrontContext& ctx, CXCursor fn);
// A call of `fn` that has no definition: when fn is a template instance
// clang could not form, reports the template's errors and that the call
// cannot be translated (true); false when fn has no errors on record.
bool report_unformed_instance(FrontContext& ctx, CXCursor call, CXCursor fn);

// A declaration's template arguments as the user would write them
// ("<float, 4>"), or "" when it is no template specialisation.
std::string template_args_text(CXCursor decl);
// An identifier made of a name and its template arguments ("load_float_4").
std::string mangled_name(const std::string& name, const std::string& template_args);

}  // namespace mslport::front
