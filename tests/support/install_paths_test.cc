// Where the programs find their files: relative to themselves, never a
// path compiled in (support/install_paths.h).
#include "support/install_paths.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

namespace {

TEST(InstallPaths, ThePrefixIsTheParentOfTheProgramsDirectory) {
  const mslport::InstallPaths p = mslport::install_paths_for("/opt/x y/bin/mslport");
  EXPECT_EQ(p.root, "/opt/x y");
  EXPECT_EQ(p.include, "/opt/x y/include");
  EXPECT_EQ(p.share, "/opt/x y/share/mslport");
  EXPECT_EQ(p.metal_include(), "/opt/x y/share/mslport/metal_include");
  EXPECT_EQ(p.python(), "/opt/x y/share/mslport/python");
}

TEST(InstallPaths, TheBuildTreeIsLaidOutLikeAnInstallation) {
  // This test program is build/tests/test_support: build/ has the links.
  ::unsetenv("MSLPORT_INCLUDE_DIR");
  const mslport::InstallPaths p = mslport::install_paths();
  EXPECT_EQ(p.root, MSLPORT_BINARY_DIR);
  EXPECT_TRUE(std::filesystem::is_regular_file(p.include + "/mslport/kernel_abi.h")) << p.include;
  EXPECT_TRUE(std::filesystem::is_regular_file(p.metal_include() + "/metal_stdlib")) << p.metal_include();
  EXPECT_TRUE(std::filesystem::is_regular_file(p.python() + "/mslport_golden/__init__.py")) << p.python();
  EXPECT_TRUE(std::filesystem::is_regular_file(p.plot_script())) << p.plot_script();
}

TEST(InstallPaths, TheEnvironmentNamesAnotherIncludeDirectory) {
  ::setenv("MSLPORT_INCLUDE_DIR", "/somewhere/else", 1);
  const mslport::InstallPaths p = mslport::install_paths();
  ::unsetenv("MSLPORT_INCLUDE_DIR");
  EXPECT_EQ(p.include, "/somewhere/else");
  EXPECT_EQ(p.root, MSLPORT_BINARY_DIR);
}

}  // namespace
