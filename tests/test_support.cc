#include "test_support.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ir/printer.h"

namespace mslport::testing {
std::string write_temp_file(const std::string& name, const std::string& text) {
  std::filesystem::path dir = std::filesystem::path(MSLPORT_BINARY_DIR) / "test_tmp" / std::to_string(getpid());
  std::filesystem::create_directories(dir);
  auto p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}
std::string fresh_test_dir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(MSLPORT_BINARY_DIR) / "test_tmp" / std::to_string(getpid()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}
std::string source_path(const std::string& rel) { return std::string(MSLPORT_SOURCE_DIR) + "/" + rel; }
std::string init_of(const ir::Module& m, const std::string& var) {
  const ir::Kernel& k = m.kernels.at(0);
  std::string out = "<no decl of " + var + ">";
  ir::walk_stmts(*k.body, [&](const ir::Stmt& s) {
    if (s.kind == ir::Stmt::Kind::Decl && k.vars[s.var].name == var)
      out = s.expr ? ir::print_expr(m, k, *s.expr) : "<no init>";
    return true;
  });
  return out;
}
}  // namespace mslport::testing
