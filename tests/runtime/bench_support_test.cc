// OpenClBench on PoCL: the device-to-device copy roof and the build options
// emitted programs get (the NVIDIA warp-shuffle define only on NVIDIA).
#include "runtime/bench_support.h"

#include <gtest/gtest.h>

namespace mslport::runtime {
namespace {

std::unique_ptr<OpenClBench> open_pocl(std::string* err) {
  for (const auto& d : list_opencl_devices(err))
    if (d.platform.find("Portable") != std::string::npos) return OpenClBench::open(d.platform_index, err);
  return nullptr;
}

TEST(OpenClBench, CopyRoofCopiesAndTimesOnPocl) {
  std::string err;
  auto b = open_pocl(&err);
  ASSERT_NE(b, nullptr) << "PoCL (a dependency) not available: " << err;
  auto copy = b->prepare_copy(8u << 20, 2, &err);
  ASSERT_NE(copy, nullptr) << err;
  EXPECT_EQ(copy->sets(), 2u);
  for (size_t s = 0; s < 2; ++s) EXPECT_GT(copy->run(s), 0.0);
}

TEST(OpenClBench, NoWarpShuffleDefineOffNvidia) {
  std::string err;
  auto b = open_pocl(&err);
  ASSERT_NE(b, nullptr) << "PoCL (a dependency) not available: " << err;
  EXPECT_EQ(b->info().build_options, "-cl-std=CL1.2");
}

}  // namespace
}  // namespace mslport::runtime
