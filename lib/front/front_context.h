// State shared by the front end's builders while one translation unit is
// turned into an ir::Module. Internal to lib/front.
#pragma once

#include <clang-c/Index.h>

#include <map>
#include <optional>
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

  FrontContext(DiagEngine& d, ir::Module& m) : diags(d), module(m) {}

  ir::SourceLoc loc(CXSourceLocation l) const;
  ir::SourceLoc loc(CXCursor c) const { return loc(clang_getCursorLocation(c)); }
  // The file name a SourceLoc uses for `file` (main file: as given).
  std::string file_name(CXFile f) const;
  bool in_shim(CXFile f) const;
  bool in_shim(CXCursor c) const;

  void error(CXCursor c, const std::string& msg) { diags.error(loc(c), msg); }
  void error(const ir::SourceLoc& l, const std::string& msg) { diags.error(l, msg); }
  // "<what> is not supported yet": the one wording for every construct the
  // front end knowingly rejects.
  void unsupported(CXCursor c, const std::string& what) { error(c, what + " is not supported yet"); }
};

// USR of a declaration; the key under which builders remember declarations.
std::string usr_of(CXCursor decl);

}  // namespace mslport::front
