// Small helpers shared by the unit tests.
#pragma once
#include <string>

#include "ir/ir.h"

namespace mslport::testing {
// Writes `text` to a fresh file under the build tree and returns its path.
std::string write_temp_file(const std::string& name, const std::string& text);
// An empty directory under the build tree (emptied if it exists).
std::string fresh_test_dir(const std::string& name);
// Absolute path of a file in the source tree.
std::string source_path(const std::string& rel);
// The printed initialiser of the declaration of `var` in the module's first
// kernel: "<no init>" when it has none, "<no decl of VAR>" when there is no
// such declaration.
std::string init_of(const ir::Module& m, const std::string& var);
}  // namespace mslport::testing

// For emitted text: `needle` appears in `text` (gtest; prints both when not).
#define EXPECT_HAS(text, needle) \
  EXPECT_NE((text).find(needle), std::string::npos) << "missing: " << (needle) << "\n" << (text)
