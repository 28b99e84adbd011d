// run_process: arguments reach the program as they are (no shell ever
// interprets them), output and status come back, a time limit kills.
#include "support/subprocess.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "test_support.h"

namespace fs = std::filesystem;
using mslport::ProcessOptions;
using mslport::run_process;

TEST(Subprocess, ArgumentsAreNeverInterpretedByAShell) {
  fs::path dir = mslport::testing::fresh_test_dir("subprocess_no_shell");
  std::string hostile = "q'$(touch " + (dir / "PWNED").string() + ")'; touch " + (dir / "PWNED2").string();
  auto r = run_process({"/bin/echo", hostile, "a b"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.output, hostile + " a b\n");
  EXPECT_FALSE(fs::exists(dir / "PWNED"));
  EXPECT_FALSE(fs::exists(dir / "PWNED2"));
}

TEST(Subprocess, ReportsExitStatusAndCapturesStderr) {
  auto r = run_process({"ls", "/no/such/path/mslport"});
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.output.find("/no/such/path/mslport"), std::string::npos) << r.output;
  EXPECT_EQ(r.describe(), "exit " + std::to_string(r.exit_code));
}

TEST(Subprocess, AMissingProgramIsAnErrorNotACrash) {
  auto r = run_process({"/no/such/program-mslport"});
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.describe().find("could not run"), std::string::npos) << r.describe();
}

TEST(Subprocess, TimeLimitKills) {
  ProcessOptions o;
  o.timeout_seconds = 0.3;
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_process({"sleep", "30"}, o);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(secs, 10);
}

TEST(Subprocess, DisplayQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(mslport::display_command({"c++", "-O2", "a b.cpp", "it's"}), "c++ -O2 'a b.cpp' 'it'\\''s'");
}
