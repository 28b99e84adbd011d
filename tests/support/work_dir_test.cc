// The work root: the default one under $TMPDIR must be this user's own,
// closed to others (anyone can create a name in /tmp first); each run gets
// a private directory that goes away with it.
#include "support/work_dir.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace mslport;

namespace {

// Sets TMPDIR for one test.
struct ScopedTmpdir {
  std::string old;
  bool had;
  explicit ScopedTmpdir(const std::string& dir) {
    const char* o = std::getenv("TMPDIR");
    had = o != nullptr;
    if (had) old = o;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (had) ::setenv("TMPDIR", old.c_str(), 1);
    else ::unsetenv("TMPDIR");
  }
};

std::string default_root(const std::string& tmp) { return tmp + "/mslport-" + std::to_string(::getuid()); }

}  // namespace

TEST(WorkDir, DefaultRootIsPrivate) {
  std::string tmp = mslport::testing::fresh_test_dir("workdir_default");
  ScopedTmpdir t(tmp);
  std::string root, err;
  ASSERT_TRUE(prepare_work_root("", &root, &err)) << err;
  EXPECT_EQ(root, default_root(tmp));
  struct stat st;
  ASSERT_EQ(::stat(root.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST(WorkDir, RefusesADefaultRootOthersCanWrite) {
  std::string tmp = mslport::testing::fresh_test_dir("workdir_open");
  ScopedTmpdir t(tmp);
  fs::create_directories(default_root(tmp));
  ::chmod(default_root(tmp).c_str(), 0777);
  std::string root, err;
  EXPECT_FALSE(prepare_work_root("", &root, &err));
  EXPECT_NE(err.find("open to other users"), std::string::npos) << err;
}

TEST(WorkDir, RefusesALinkPlantedAsTheDefaultRoot) {
  std::string tmp = mslport::testing::fresh_test_dir("workdir_link");
  ScopedTmpdir t(tmp);
  fs::create_directories(tmp + "/elsewhere");
  ::chmod((tmp + "/elsewhere").c_str(), 0700);
  fs::create_directory_symlink(tmp + "/elsewhere", default_root(tmp));
  std::string root, err;
  EXPECT_FALSE(prepare_work_root("", &root, &err));
  EXPECT_NE(err.find("not a directory"), std::string::npos) << err;
}

TEST(WorkDir, TmpdirOrWorkDirThatIsAFileIsAMessage) {
  std::string tmp = mslport::testing::fresh_test_dir("workdir_file");
  std::ofstream(tmp + "/file") << "x";
  std::string root, err;
  EXPECT_FALSE(prepare_work_root(tmp + "/file", &root, &err));
  EXPECT_NE(err.find("is not a directory"), std::string::npos) << err;
  ScopedTmpdir t(tmp + "/file");
  EXPECT_FALSE(prepare_work_root("", &root, &err));
  EXPECT_NE(err.find("TMPDIR"), std::string::npos) << err;
}

TEST(WorkDir, RunDirsAreDistinctAndRemoved) {
  std::string parent = mslport::testing::fresh_test_dir("workdir_runs");
  std::string a, b, err;
  {
    RunDir r1, r2;
    ASSERT_TRUE(r1.create(parent, "run", &err)) << err;
    ASSERT_TRUE(r2.create(parent, "run", &err)) << err;
    a = r1.path();
    b = r2.path();
    EXPECT_NE(a, b);
    std::ofstream(a + "/k.cpp") << "x";
  }
  EXPECT_FALSE(fs::exists(a));
  EXPECT_FALSE(fs::exists(b));
}
