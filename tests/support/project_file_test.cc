// The project file (support/project_file.h): parsing, errors at their
// place, finding it upwards, and the sources' patterns.
#include "support/project_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace mslport;

namespace {

void touch(const fs::path& p, const std::string& text = "") {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string all_diags(const DiagEngine& d) {
  std::string s;
  for (auto& x : d.diagnostics()) s += DiagEngine::render(x);
  return s;
}

}  // namespace

TEST(ProjectFile, ParsesEveryKey) {
  DiagEngine d;
  auto p = parse_project_file("/proj/mslport.toml", R"(
sources = ["src/**/*.metal", "extra.metal"]
include_dirs = ["include", "/abs/inc"]
defines = ["BIAS=0.25f", "FLAG"]
undefines = ["__METAL_MACOS__"]
werror = true
targets = "out/targets"
golden = "cases"
platform = "pocl"

[function_constants]
scale = 2.5
use_bias = true
count = 3
"0" = 1.0
raw = "0.5f"
)",
                              d);
  ASSERT_TRUE(p) << all_diags(d);
  EXPECT_EQ(p->dir, "/proj");
  EXPECT_EQ(p->sources, (std::vector<std::string>{"src/**/*.metal", "extra.metal"}));
  EXPECT_EQ(p->include_dirs, (std::vector<std::string>{"/proj/include", "/abs/inc"}));
  EXPECT_EQ(p->defines, (std::vector<std::string>{"BIAS=0.25f", "FLAG"}));
  EXPECT_EQ(p->undefines, (std::vector<std::string>{"__METAL_MACOS__"}));
  EXPECT_TRUE(p->werror);
  EXPECT_EQ(p->targets_dir, "/proj/out/targets");
  EXPECT_EQ(p->golden_dir, "/proj/cases");
  EXPECT_EQ(p->platform, "pocl");
  EXPECT_EQ(p->function_constants.at("scale"), "2.5");
  EXPECT_EQ(p->function_constants.at("use_bias"), "true");
  EXPECT_EQ(p->function_constants.at("count"), "3");
  EXPECT_EQ(p->function_constants.at("0"), "1.0");
  EXPECT_EQ(p->function_constants.at("raw"), "0.5f");
}

TEST(ProjectFile, EmptyFileMeansDefaults) {
  DiagEngine d;
  auto p = parse_project_file("mslport.toml", "# nothing yet\n", d);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->sources.empty());
  EXPECT_TRUE(p->golden_dir.empty());
  EXPECT_FALSE(p->werror);
}

TEST(ProjectFile, UnknownKeyIsAnErrorAtItsPlace) {
  DiagEngine d;
  auto p = parse_project_file("p/mslport.toml", "sources = [\"a.metal\"]\ninclude_dir = [\"x\"]\n", d);
  EXPECT_FALSE(p);
  std::string s = all_diags(d);
  EXPECT_HAS(s, "p/mslport.toml:2:1: error: unknown key 'include_dir'");
}

TEST(ProjectFile, WrongTypesAreErrorsAtTheirPlace) {
  DiagEngine d;
  auto p = parse_project_file("mslport.toml",
                              "sources = \"a.metal\"\nwerror = 1\ndefines = [\"A\", 2]\ngolden = \"\"\n"
                              "[function_constants]\nx = [1]\n\"a-b\" = 1\n",
                              d);
  EXPECT_FALSE(p);
  std::string s = all_diags(d);
  EXPECT_HAS(s, "mslport.toml:1:11: error: 'sources' must be an array of strings");
  EXPECT_HAS(s, "mslport.toml:2:10: error: 'werror' must be true or false");
  EXPECT_HAS(s, "mslport.toml:3:17: error: 'defines' must be an array of strings");
  EXPECT_HAS(s, "mslport.toml:4:10: error: 'golden' must not be empty");
  EXPECT_HAS(s, "mslport.toml:6:5: error: function constant 'x' must be true, false, a number or a string");
  EXPECT_HAS(s, "mslport.toml:7:1: error: function constant 'a-b'");
}

TEST(ProjectFile, SyntaxErrorIsReportedAtItsPlace) {
  DiagEngine d;
  auto p = parse_project_file("mslport.toml", "sources = [\"a.metal\"\n", d);
  EXPECT_FALSE(p);
  ASSERT_EQ(d.diagnostics().size(), 1u);
  EXPECT_EQ(d.diagnostics()[0].loc.file, "mslport.toml");
  EXPECT_GE(d.diagnostics()[0].loc.line, 1);
}

TEST(ProjectFile, FoundInTheFolderOrAbove) {
  std::string root = mslport::testing::fresh_test_dir("project_find");
  touch(fs::path(root) / "lib" / "mslport.toml");
  fs::create_directories(fs::path(root) / "lib" / "a" / "b");
  EXPECT_EQ(find_project_file(root + "/lib/a/b"), root + "/lib/mslport.toml");
  EXPECT_EQ(find_project_file(root + "/lib"), root + "/lib/mslport.toml");
  // A folder named like the file is not a project file.
  fs::create_directories(fs::path(root) / "other" / "mslport.toml");
  std::string above = find_project_file(root + "/other");
  EXPECT_NE(above, root + "/other/mslport.toml");
}

TEST(ProjectFile, LoadRefusesADirectoryAndAHugeFile) {
  std::string root = mslport::testing::fresh_test_dir("project_load");
  fs::create_directories(fs::path(root) / "dir.toml");
  DiagEngine d;
  EXPECT_FALSE(load_project_file(root + "/dir.toml", d));
  EXPECT_TRUE(d.has_errors());
  touch(fs::path(root) / "big.toml", std::string(kMaxProjectFileBytes + 1, '#'));
  DiagEngine d2;
  EXPECT_FALSE(load_project_file(root + "/big.toml", d2));
  EXPECT_TRUE(d2.has_errors());
}

TEST(Glob, Components) {
  EXPECT_TRUE(glob_match("src/*.metal", "src/a.metal"));
  EXPECT_FALSE(glob_match("src/*.metal", "src/x/a.metal"));
  EXPECT_TRUE(glob_match("src/**/*.metal", "src/a.metal"));
  EXPECT_TRUE(glob_match("src/**/*.metal", "src/x/y/a.metal"));
  EXPECT_FALSE(glob_match("src/**/*.metal", "other/a.metal"));
  EXPECT_TRUE(glob_match("k?.metal", "k1.metal"));
  EXPECT_FALSE(glob_match("k?.metal", "k12.metal"));
  EXPECT_TRUE(glob_match("**", "a/b/c"));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXbY"));
}

TEST(SourcePatterns, GlobsFoldersAndFiles) {
  std::string root = mslport::testing::fresh_test_dir("project_sources");
  touch(fs::path(root) / "src" / "b.metal");
  touch(fs::path(root) / "src" / "a.metal");
  touch(fs::path(root) / "src" / "sub" / "c.metal");
  touch(fs::path(root) / "src" / "sub" / "notes.h");
  touch(fs::path(root) / "one.metal");
  std::string err;
  // Relative to the folder they lie in, sorted, each once.
  auto got = expand_source_patterns({"src/**/*.metal", "one.metal", "src/a.metal"}, root, root, &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(got, (std::vector<std::string>{"src/a.metal", "src/b.metal", "src/sub/c.metal", "one.metal"}));
  // A folder names its .metal files, never the others.
  got = expand_source_patterns({"src"}, root, root + "/src", &err);
  EXPECT_EQ(got, (std::vector<std::string>{"a.metal", "b.metal", "sub/c.metal"}));
  // Outside `relative_to`: absolute.
  got = expand_source_patterns({"one.metal"}, root, root + "/src", &err);
  EXPECT_EQ(got, (std::vector<std::string>{root + "/one.metal"}));
}

TEST(SourcePatterns, NamingNothingIsAnError) {
  std::string root = mslport::testing::fresh_test_dir("project_sources_none");
  fs::create_directories(fs::path(root) / "empty");
  std::string err;
  EXPECT_TRUE(expand_source_patterns({"src/*.metal"}, root, root, &err).empty());
  EXPECT_HAS(err, "'src/*.metal' matches no file");
  err.clear();
  EXPECT_TRUE(expand_source_patterns({"empty"}, root, root, &err).empty());
  EXPECT_HAS(err, "'empty' holds no .metal file");
  err.clear();
  EXPECT_TRUE(expand_source_patterns({"missing.metal"}, root, root, &err).empty());
  EXPECT_HAS(err, "'missing.metal': no such file or directory");
}
