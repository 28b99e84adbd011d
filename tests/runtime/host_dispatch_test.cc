// mslport/host.h: the dispatch builders and the check every entry point
// makes before any thread runs (zero, unfilled or oversized geometry).
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "mslport/host.h"

namespace {

// The validation's message, "" when the dispatch is accepted.
std::string refusal(const mslport_dispatch& d) {
  char err[320] = "";
  return mslport_dispatch_validate(&d, err, sizeof err) == 0 ? "" : std::string(err);
}

mslport_dispatch make(uint32_t gx, uint32_t gy, uint32_t gz, uint32_t tx, uint32_t ty, uint32_t tz, uint32_t nx,
                      uint32_t ny, uint32_t nz) {
  mslport_dispatch d;
  const uint32_t v[9] = {gx, gy, gz, tx, ty, tz, nx, ny, nz};
  for (int i = 0; i < 3; ++i) {
    d.threadgroups[i] = v[i];
    d.threads_per_tg[i] = v[3 + i];
    d.grid_threads[i] = v[6 + i];
  }
  return d;
}

TEST(HostDispatch, ZeroInitialisedIsRefusedWithAHint) {
  mslport_dispatch d;
  std::memset(&d, 0, sizeof d);
  EXPECT_NE(refusal(d).find("threads_per_tg is (0, 0, 0)"), std::string::npos) << refusal(d);
  EXPECT_NE(refusal(d).find("zero-initialised"), std::string::npos) << refusal(d);
}

TEST(HostDispatch, UnfilledGridIsRefused) {
  // What the issue saw: threadgroups and threads filled, grid_threads not.
  const std::string m = refusal(make(4, 1, 1, 256, 1, 1, 0, 0, 0));
  EXPECT_NE(m.find("grid_threads is (0, 0, 0)"), std::string::npos) << m;
}

TEST(HostDispatch, ZeroThreadgroupsAreRefused) {
  EXPECT_NE(refusal(make(0, 1, 1, 256, 1, 1, 256, 1, 1)).find("threadgroups is (0, 1, 1)"), std::string::npos);
}

TEST(HostDispatch, MoreThanMetalsThreadsPerThreadgroupAreRefused) {
  EXPECT_NE(refusal(make(1, 1, 1, 64, 32, 1, 64, 32, 1)).find("more than Metal's 1024"), std::string::npos);
  // Each dimension within 2^32, the product far beyond: no wrap-around.
  EXPECT_NE(refusal(make(1, 1, 1, 65536, 65536, 1, 65536, 65536, 1)).find("more than Metal's 1024"), std::string::npos);
  EXPECT_EQ(refusal(make(1, 1, 1, 32, 32, 1, 32, 32, 1)), "");
}

TEST(HostDispatch, GridLargerThanItsThreadgroupsIsRefused) {
  const std::string m = refusal(make(4, 1, 1, 256, 1, 1, 1025, 1, 1));
  EXPECT_NE(m.find("grid_threads.x is 1025, more than threadgroups x threads_per_tg = 1024"), std::string::npos) << m;
}

TEST(HostDispatch, EmptyThreadgroupsAreRefused) {
  const std::string m = refusal(make(5, 1, 1, 256, 1, 1, 1000, 1, 1));
  EXPECT_NE(m.find("threadgroups.x is 5, but a grid of 1000 threads in threadgroups of 256 needs 4"), std::string::npos)
      << m;
}

TEST(HostDispatch, MoreThreadgroupsThanASigned64BitCountAreRefused) {
  const std::string m =
      refusal(make(0xffffffffu, 0xffffffffu, 0xffffffffu, 1, 1, 1, 0xffffffffu, 0xffffffffu, 0xffffffffu));
  EXPECT_NE(m.find("more than 2^63 - 1 threadgroups"), std::string::npos) << m;
}

TEST(HostDispatch, ThreadgroupFormFillsTheGrid) {
  mslport_dispatch d;
  char err[320];
  ASSERT_EQ(mslport_dispatch_threadgroups(&d, 37, 2, 1, 256, 1, 1, err, sizeof err), 0) << err;
  EXPECT_EQ(d.grid_threads[0], 37u * 256u);
  EXPECT_EQ(d.grid_threads[1], 2u);
  EXPECT_EQ(d.grid_threads[2], 1u);
  EXPECT_EQ(d.threadgroups[0], 37u);
}

TEST(HostDispatch, ThreadgroupFormRefusesAGridPast32Bits) {
  mslport_dispatch d;
  char err[320];
  ASSERT_NE(mslport_dispatch_threadgroups(&d, 4194304, 1, 1, 1024, 1, 1, err, sizeof err), 0);
  EXPECT_NE(std::string(err).find("4194304 threadgroups of 1024 threads in x make 4294967296 threads"),
            std::string::npos)
      << err;
  ASSERT_NE(mslport_dispatch_threadgroups(&d, 0, 1, 1, 64, 1, 1, err, sizeof err), 0);
  EXPECT_NE(std::string(err).find("threadgroups is (0, 1, 1)"), std::string::npos) << err;
}

TEST(HostDispatch, ThreadFormRoundsTheThreadgroupsUp) {
  mslport_dispatch d;
  char err[320];
  ASSERT_EQ(mslport_dispatch_threads(&d, 1000, 3, 1, 256, 1, 1, err, sizeof err), 0) << err;
  EXPECT_EQ(d.threadgroups[0], 4u);
  EXPECT_EQ(d.threadgroups[1], 3u);
  EXPECT_EQ(d.grid_threads[0], 1000u);
  // The largest grid: no overflow in the rounding.
  ASSERT_EQ(mslport_dispatch_threads(&d, 0xffffffffu, 1, 1, 1024, 1, 1, err, sizeof err), 0) << err;
  EXPECT_EQ(d.threadgroups[0], 4194304u);
  // Zero threads per threadgroup: a message, not a division by zero.
  ASSERT_NE(mslport_dispatch_threads(&d, 1000, 1, 1, 0, 1, 1, err, sizeof err), 0);
  EXPECT_NE(std::string(err).find("threads_per_tg is (0, 1, 1)"), std::string::npos) << err;
  ASSERT_NE(mslport_dispatch_threads(&d, 0, 1, 1, 64, 1, 1, err, sizeof err), 0);
  EXPECT_NE(std::string(err).find("grid_threads is (0, 1, 1)"), std::string::npos) << err;
}

TEST(HostDispatch, MessagesFitAnyBufferAndNoneIsNeeded) {
  mslport_dispatch d;
  std::memset(&d, 0, sizeof d);
  char small[8];
  EXPECT_NE(mslport_dispatch_validate(&d, small, sizeof small), 0);
  EXPECT_EQ(std::strlen(small), 7u);
  EXPECT_NE(mslport_dispatch_validate(&d, nullptr, 0), 0);
  EXPECT_NE(mslport_dispatch_validate(nullptr, nullptr, 0), 0);
}

TEST(HostDispatch, CppBuildersThrowTheMessage) {
  const mslport_dispatch d = mslport::dispatch_threads({1000}, {256});
  EXPECT_EQ(d.threadgroups[0], 4u);
  EXPECT_EQ(d.threads_per_tg[1], 1u);
  EXPECT_EQ(mslport::dispatch_threadgroups({3, 2}, {8, 8}).grid_threads[1], 16u);
  try {
    mslport::dispatch_threadgroups({4}, {64, 32});
    FAIL() << "accepted 2048 threads per threadgroup";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("more than Metal's 1024"), std::string::npos) << e.what();
  }
}

}  // namespace
