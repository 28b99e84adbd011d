// read_included_files: which directives it sees (and which it must not),
// how it resolves names, and what it refuses.
#include "front/included_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace mslport::front {
namespace {

std::vector<std::string> read_names(const std::string& dir, const std::string& text, DiagEngine& diags,
                                    IncludeSearch search = {}) {
  std::vector<IncludedFile> files;
  read_included_files(dir + "/main.metal", text, search, &files, diags);
  std::vector<std::string> names;
  for (auto& f : files) names.push_back(std::filesystem::path(f.path).filename().string());
  return names;
}

TEST(IncludedFiles, FollowsEveryDirectiveFormAndNothingElse) {
  std::string dir = mslport::testing::fresh_test_dir("included_forms");
  for (const char* n : {"a.h", "b.h", "c.h", "d.h", "e.h", "f.h", "g.h", "no1.h", "no2.h", "no3.h"})
    std::ofstream(dir + "/" + n) << "// " << n << "\n";
  DiagEngine diags;
  auto names = read_names(dir,
                          "#include \"a.h\"\n"
                          "  #  include_next \"b.h\" // comment\n"
                          "%:include \"c.h\"\n"                  // digraph
                          "#inc\\\nlude \"d.h\"\n"               // a backslash-newline inside the keyword
                          "/* x */ #include \"e.h\"\n"           // a comment before the #
                          "#if 0\n#import \"f.h\"\n#endif\n"     // dead code is followed too (a superset)
                          "#define G_H \"g.h\"\n#include G_H\n"  // a plain define
                          "// #include \"no1.h\"\n"
                          "/* #include \"no2.h\" */\n"
                          "const char* s = R\"(\n#include \"no3.h\"\n)\";\n",
                          diags);
  EXPECT_FALSE(diags.has_errors());
  EXPECT_EQ(names, (std::vector<std::string>{"a.h", "b.h", "c.h", "d.h", "e.h", "f.h", "g.h"}));
}

TEST(IncludedFiles, ResolvesAsClangSearches) {
  std::string dir = mslport::testing::fresh_test_dir("included_search");
  std::filesystem::create_directories(dir + "/inc");
  std::filesystem::create_directories(dir + "/sub");
  std::ofstream(dir + "/inc/x.h") << "#include \"y.h\"\n";  // y.h beside x.h first
  std::ofstream(dir + "/inc/y.h") << "";
  std::ofstream(dir + "/y.h") << "";
  std::ofstream(dir + "/sub/z.h") << "";
  DiagEngine diags;
  IncludeSearch search = include_search_from_args({"-I", dir + "/inc", "-I" + dir + "/sub"});
  std::vector<IncludedFile> files;
  ASSERT_TRUE(read_included_files(dir + "/main.metal", "#include <x.h>\n#include <z.h>\n#include \"missing.h\"\n",
                                  search, &files, diags));
  std::vector<std::string> paths;
  for (auto& f : files) paths.push_back(f.path);
  EXPECT_EQ(paths, (std::vector<std::string>{dir + "/inc/x.h", dir + "/sub/z.h", dir + "/inc/y.h"}));
}

TEST(IncludedFiles, RefusesSpecialFilesAndComputedNames) {
  std::string dir = mslport::testing::fresh_test_dir("included_refused");
  DiagEngine diags;
  read_names(dir, "#include </dev/zero>\n#define M(x) #x\n#include M(a.h)\n#define N other_macro\n#include N\n", diags);
  ASSERT_EQ(diags.error_count(), 3);
  EXPECT_NE(diags.diagnostics()[0].message.find("'/dev/zero' is a device"), std::string::npos);
  EXPECT_EQ(diags.diagnostics()[0].loc.line, 1);
  EXPECT_NE(diags.diagnostics()[1].message.find("computed file name ('M(a.h)')"), std::string::npos);
  EXPECT_EQ(diags.diagnostics()[1].loc.line, 3);
  EXPECT_NE(diags.diagnostics()[2].message.find("computed file name ('N')"), std::string::npos);
}

}  // namespace
}  // namespace mslport::front
