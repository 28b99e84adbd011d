// write_files_atomic: a set of outputs is written whole or not at all, and
// leaves no temporary files behind either way.
#include "support/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace mslport;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("mslport_atomic_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  // Every entry of the folder, by name.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (auto& e : fs::directory_iterator(path)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string contents(const std::string& path) {
  std::string s;
  EXPECT_TRUE(read_file(path, &s)) << path;
  return s;
}

}  // namespace

TEST(AtomicFiles, WritesEveryFileOfTheSet) {
  TempDir d;
  std::ofstream(d / "k.h") << "old header";
  std::string err;
  ASSERT_TRUE(write_files_atomic({{d / "k.cpp", "body"}, {d / "k.h", "header"}}, &err)) << err;
  EXPECT_EQ(contents(d / "k.cpp"), "body");
  EXPECT_EQ(contents(d / "k.h"), "header");
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"k.cpp", "k.h"}));  // no temporary left
}

TEST(AtomicFiles, ADirectoryInTheSetWritesNothing) {
  TempDir d;
  std::ofstream(d / "k.h") << "old header";
  fs::create_directories(d / "k.cpp");
  std::string err;
  EXPECT_FALSE(write_files_atomic({{d / "k.h", "new header"}, {d / "k.cpp", "body"}}, &err));
  EXPECT_NE(err.find("k.cpp' is a directory"), std::string::npos) << err;
  EXPECT_EQ(contents(d / "k.h"), "old header");
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"k.cpp", "k.h"}));
}

TEST(AtomicFiles, AMissingFolderWritesNothing) {
  TempDir d;
  std::string err;
  EXPECT_FALSE(write_files_atomic({{d / "a.cl", "cl"}, {d / "no/such/a.bindings.json", "{}"}}, &err));
  EXPECT_NE(err.find("no directory"), std::string::npos) << err;
  EXPECT_TRUE(d.entries().empty());
  EXPECT_FALSE(write_file_atomic(d / "gone/x", "x", &err));
  EXPECT_TRUE(d.entries().empty());
}

TEST(AtomicFiles, OneFileReplacesItsContent) {
  TempDir d;
  std::string err;
  ASSERT_TRUE(write_file_atomic(d / "f", "first", &err)) << err;
  ASSERT_TRUE(write_file_atomic(d / "f", "second", &err)) << err;
  EXPECT_EQ(contents(d / "f"), "second");
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"f"}));
}
