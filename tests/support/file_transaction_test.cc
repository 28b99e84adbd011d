// FileTransaction: a set of files is replaced all or nothing, a crash after
// the commit point is completed by the next transaction (or recovery), a
// crash before it leaves only stray temporaries, which are cleaned; special
// files and directories are never replaced.
#include "support/file_transaction.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/atomic_file.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace mslport;

namespace {

std::string slurp(const std::string& p) {
  std::string s;
  EXPECT_TRUE(read_file(p, &s)) << p;
  return s;
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  for (auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(FileTransaction, WritesAndRemovesAndLeavesNothingElse) {
  std::string d = mslport::testing::fresh_test_dir("tx_basic");
  std::ofstream(d + "/stale.cpp") << "stale";
  std::ofstream(d + "/a.cpp") << "old a";
  FileTransaction t(d);
  t.write(d + "/a.cpp", "new a");
  t.write(d + "/b.h", "new b");
  t.remove(d + "/stale.cpp");
  std::string err;
  ASSERT_TRUE(t.commit(&err)) << err;
  EXPECT_EQ(slurp(d + "/a.cpp"), "new a");
  EXPECT_EQ(slurp(d + "/b.h"), "new b");
  EXPECT_EQ(entries(d), (std::vector<std::string>{"a.cpp", "b.h"}));  // no journal, no temporary
}

TEST(FileTransaction, KeepsThePermissionsOfAReplacedFile) {
  std::string d = mslport::testing::fresh_test_dir("tx_mode");
  std::ofstream(d + "/a.cpp") << "old";
  ::chmod((d + "/a.cpp").c_str(), 0640);
  std::string err;
  ASSERT_TRUE(write_file_atomic(d + "/a.cpp", "new", &err)) << err;
  struct stat st;
  ASSERT_EQ(::stat((d + "/a.cpp").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(FileTransaction, RefusesSpecialFilesAndWritesNothing) {
  std::string d = mslport::testing::fresh_test_dir("tx_special");
  ASSERT_EQ(::mkfifo((d + "/pipe.cpp").c_str(), 0644), 0);
  std::ofstream(d + "/k.h") << "old header";
  std::string err;
  EXPECT_FALSE(write_files_atomic({{d + "/k.h", "new header"}, {d + "/pipe.cpp", "body"}}, &err));
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  EXPECT_EQ(slurp(d + "/k.h"), "old header");
  struct stat st;
  ASSERT_EQ(::lstat((d + "/pipe.cpp").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));  // still the FIFO
  // A character device is refused the same way (never replaced by a file).
  EXPECT_FALSE(write_file_atomic("/dev/null", "x", &err));
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(FileTransaction, TwoNamesOfOneFileAreRefused) {
  std::string d = mslport::testing::fresh_test_dir("tx_same");
  std::string err;
  EXPECT_FALSE(write_files_atomic({{d + "/k.h", "a"}, {d + "/./k.h", "b"}}, &err));
  EXPECT_NE(err.find("same file"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(d + "/k.h"));
}

TEST(FileTransaction, WritesThroughASymbolicLink) {
  std::string d = mslport::testing::fresh_test_dir("tx_link");
  fs::create_directories(d + "/real");
  std::ofstream(d + "/real/k.cpp") << "old";
  fs::create_symlink("real/k.cpp", d + "/link.cpp");
  std::string err;
  ASSERT_TRUE(write_file_atomic(d + "/link.cpp", "new", &err)) << err;
  EXPECT_TRUE(fs::is_symlink(d + "/link.cpp"));
  EXPECT_EQ(slurp(d + "/real/k.cpp"), "new");
}

TEST(FileTransaction, RecoveryCompletesACommittedJournal) {
  // What a transaction killed between its commit point and its renames
  // leaves: flushed temporaries and the journal naming them.
  std::string d = mslport::testing::fresh_test_dir("tx_recover");
  fs::create_directories(d + "/openmp");
  std::ofstream(d + "/openmp/a.cpp") << "old a";
  std::ofstream(d + "/openmp/b.h") << "new b";  // renamed before the kill
  std::ofstream(d + "/openmp/.a.cpp.mslport-tmp-abc123") << "new a";
  std::ofstream(d + "/gone.cpp") << "stale";
  std::ofstream(d + "/" + kJournalName) << "mslport-journal 1\n"
                                        << "rename\topenmp/.a.cpp.mslport-tmp-abc123\topenmp/a.cpp\n"
                                        << "rename\topenmp/.b.h.mslport-tmp-def456\topenmp/b.h\n"
                                        << "remove\tgone.cpp\n"
                                        << "end\n";
  EXPECT_TRUE(has_unfinished_transaction(d));
  RecoveryReport r;
  std::string err;
  ASSERT_TRUE(recover_file_transaction(d, {d + "/openmp"}, &r, &err)) << err;
  EXPECT_EQ(r.completed, 2);
  EXPECT_FALSE(has_unfinished_transaction(d));
  EXPECT_EQ(slurp(d + "/openmp/a.cpp"), "new a");
  EXPECT_EQ(slurp(d + "/openmp/b.h"), "new b");
  EXPECT_FALSE(fs::exists(d + "/gone.cpp"));
  EXPECT_EQ(entries(d + "/openmp"), (std::vector<std::string>{"a.cpp", "b.h"}));
}

TEST(FileTransaction, ATruncatedJournalIsAnErrorNotAGuess) {
  std::string d = mslport::testing::fresh_test_dir("tx_bad_journal");
  std::ofstream(d + "/" + kJournalName) << "mslport-journal 1\nrename\ta\tb\n";
  RecoveryReport r;
  std::string err;
  EXPECT_FALSE(recover_file_transaction(d, {}, &r, &err));
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  FileTransaction t(d);
  t.write(d + "/x", "x");
  EXPECT_FALSE(t.commit(&err));
  EXPECT_FALSE(fs::exists(d + "/x"));
}

TEST(FileTransaction, StrayTemporariesGoUnlessAWriterHoldsThem) {
  std::string d = mslport::testing::fresh_test_dir("tx_stray");
  std::ofstream(d + "/.a.cpp.mslport-tmp-dead01") << "from a killed run";
  std::ofstream(d + "/.b.cpp.mslport-tmp-live01") << "being written";
  std::ofstream(d + "/.hidden") << "not ours";
  int fd = ::open((d + "/.b.cpp.mslport-tmp-live01").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);  // as a live writer holds it
  RecoveryReport r;
  std::string err;
  ASSERT_TRUE(recover_file_transaction(d, {}, &r, &err)) << err;
  ::close(fd);
  EXPECT_EQ(r.temporaries_removed, 1);
  EXPECT_EQ(entries(d), (std::vector<std::string>{".b.cpp.mslport-tmp-live01", ".hidden"}));
}

TEST(FileTransaction, WritingAFileRemovesWhatAnOlderMslportLeftForIt) {
  std::string d = mslport::testing::fresh_test_dir("tx_legacy");
  // Temporaries of the pre-journal writer: of a process that is gone
  // (pid_max is at most 2^22), and of this live one; and a file of the
  // same shape that is not a temporary of the file written.
  std::ofstream(d + "/k.cpp.tmp.99999999") << "old style";
  std::ofstream(d + "/k.cpp.tmp." + std::to_string(::getpid())) << "old style, live";
  std::ofstream(d + "/notes.tmp.99999999") << "somebody's";
  std::string err;
  ASSERT_TRUE(write_file_atomic(d + "/k.cpp", "new", &err)) << err;
  EXPECT_EQ(entries(d),
            (std::vector<std::string>{"k.cpp", "k.cpp.tmp." + std::to_string(::getpid()), "notes.tmp.99999999"}));
}
