// read_regular_file: only regular files, only up to the limit, and a FIFO
// or /dev/zero is refused at once instead of blocking or reading forever.
#include "support/regular_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "test_support.h"

using mslport::read_regular_file;

TEST(RegularFile, ReadsAFileWhole) {
  std::string p = mslport::testing::write_temp_file("regular.txt", "abc\n");
  std::string s, err;
  ASSERT_TRUE(read_regular_file(p, 100, &s, &err)) << err;
  EXPECT_EQ(s, "abc\n");
}

TEST(RegularFile, RefusesDevicesFifosAndDirectories) {
  std::string s, err;
  EXPECT_FALSE(read_regular_file("/dev/zero", 1 << 20, &s, &err));
  EXPECT_NE(err.find("a device"), std::string::npos) << err;
  std::string d = mslport::testing::fresh_test_dir("regular_fifo");
  ASSERT_EQ(::mkfifo((d + "/pipe").c_str(), 0644), 0);
  EXPECT_FALSE(read_regular_file(d + "/pipe", 1 << 20, &s, &err));  // no writer: must not block
  EXPECT_NE(err.find("a FIFO"), std::string::npos) << err;
  EXPECT_FALSE(read_regular_file(d, 1 << 20, &s, &err));
  EXPECT_NE(err.find("a directory"), std::string::npos) << err;
}

TEST(RegularFile, RefusesFilesOverTheLimit) {
  std::string p = mslport::testing::write_temp_file("big.txt", std::string(5000, 'x'));
  std::string s, err;
  EXPECT_FALSE(read_regular_file(p, 4096, &s, &err));
  EXPECT_NE(err.find("larger than 4 KiB"), std::string::npos) << err;
  EXPECT_TRUE(read_regular_file(p, 5000, &s, &err)) << err;
}
