#include "bench/isolated.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace mslport::bench {
namespace {

BenchRow row(const std::string& kernel, const std::string& target, const std::string& platform,
             std::vector<double> launches_ms) {
  BenchRow r;
  r.kernel = kernel;
  r.target = target;
  r.platform = platform;
  r.bytes = 1'000'000;
  r.launch_ms = launches_ms;
  r.repeats = launches_ms.size();
  std::sort(launches_ms.begin(), launches_ms.end());
  r.ms = launches_ms[launches_ms.size() / 2];
  r.round_ms = {r.ms};
  return r;
}

BenchReport part(const std::string& target, double ms, double roof_gbps, const std::string& error = "") {
  BenchReport p;
  if (target == "openmp") p.rows.push_back(row("k", "openmp", "cpu", {ms, ms, ms}));
  else p.rows.push_back(row("k", "opencl", "pocl", {ms, ms, ms}));
  Roof roof;
  roof.backend = target == "openmp" ? "openmp/cpu" : "opencl/pocl";
  roof.add("triad", 1'000'000'000, 1e3 / roof_gbps);
  roof.gbps_lowest = roof.gbps;
  p.roofs.push_back(roof);
  if (!error.empty()) p.errors.push_back(error);
  return p;
}

TEST(IsolatedBench, MergesRoundsIntoMediansSpreadsAndRatiosPerRound) {
  // Three rounds, openmp then opencl in each.
  std::vector<BenchReport> parts = {part("openmp", 1.0, 50), part("opencl", 4.0, 30, "same error"),
                                    part("openmp", 2.0, 60), part("opencl", 4.0, 20, "same error"),
                                    part("openmp", 1.5, 40), part("opencl", 6.0, 25)};
  BenchReport r = merge_rounds(parts, 3);
  EXPECT_EQ(r.rounds, 3);
  EXPECT_EQ(r.isolation, "process");
  ASSERT_EQ(r.rows.size(), 2u);
  const BenchRow& omp = r.rows[0];
  EXPECT_EQ(omp.backend(), "openmp/cpu");
  EXPECT_EQ(omp.round_ms, (std::vector<double>{1.0, 2.0, 1.5}));
  EXPECT_DOUBLE_EQ(omp.ms, 1.5);
  EXPECT_EQ(omp.repeats, 9u);
  EXPECT_DOUBLE_EQ(omp.spread(), (2.0 - 1.0) / 1.5);
  ASSERT_TRUE(omp.vs_pocl);
  EXPECT_DOUBLE_EQ(*omp.vs_pocl, 4.0 / 1.5);
  EXPECT_EQ(omp.vs_pocl_rounds, (std::vector<double>{4.0, 2.0, 4.0}));
  ASSERT_EQ(r.roofs.size(), 2u);
  EXPECT_NEAR(r.roofs[0].gbps, 60, 1e-9);
  EXPECT_NEAR(r.roofs[0].gbps_lowest, 40, 1e-9);
  EXPECT_EQ(r.roofs[0].samples, 3);
  EXPECT_EQ(r.errors, std::vector<std::string>{"same error"});
}

TEST(IsolatedBench, RequestAndReportSurviveTheFiles) {
  BenchRequest q;
  runtime::EmittedFiles m;
  m.source = "a.metal";
  m.cpp = "a.cpp";
  m.function_constants = {{"scale", "2"}};
  q.modules = {m};
  q.targets = {"openmp"};
  q.kernels = {"k"};
  q.plan.repeats = 7;
  q.rounds = 1;
  q.golden_dir = "g";
  q.case_name = "c";
  q.source_kernels = {"k", "l"};
  q.build_dir = "/tmp/b";
  q.platforms = {"pocl"};
  q.platform_index = 1;
  BenchRequest back;
  std::string err;
  ASSERT_TRUE(request_from_json(request_to_json(q), &back, &err)) << err;
  EXPECT_EQ(back.modules[0].function_constants, m.function_constants);
  EXPECT_EQ(back.plan.repeats, 7);
  EXPECT_EQ(back.golden_dir, "g");
  EXPECT_EQ(back.case_name, "c");
  EXPECT_EQ(back.source_kernels, q.source_kernels);
  EXPECT_EQ(back.platforms, q.platforms);
  EXPECT_EQ(back.platform_index, 1);

  BenchReport r = merge_rounds({part("openmp", 1.0, 50), part("opencl", 2.0, 30)}, 1);
  r.skipped = {"x: no golden case"};
  BenchReport r2;
  ASSERT_TRUE(report_from_json(report_to_json(r), &r2, &err)) << err;
  ASSERT_EQ(r2.rows.size(), 2u);
  EXPECT_EQ(r2.rows[0].launch_ms, r.rows[0].launch_ms);
  EXPECT_EQ(r2.rows[1].round_ms, r.rows[1].round_ms);
  EXPECT_EQ(r2.roofs[1].method_gbps, r.roofs[1].method_gbps);
  EXPECT_EQ(r2.skipped, r.skipped);
  EXPECT_FALSE(request_from_json("{}", &back, &err));
}

// Each OpenCL platform gets a worker of its own, chosen with the same
// filters the worker applies.
TEST(IsolatedBench, PlatformFiltersMatchNameOrShortName) {
  runtime::OpenClDeviceInfo pocl, nvidia;
  pocl.platform = "Portable Computing Language";
  nvidia.platform = "NVIDIA CUDA";
  EXPECT_TRUE(platform_selected(pocl, {}));
  EXPECT_TRUE(platform_selected(pocl, {"pocl"}));
  EXPECT_TRUE(platform_selected(pocl, {"PORTABLE"}));
  EXPECT_FALSE(platform_selected(pocl, {"nvidia"}));
  EXPECT_TRUE(platform_selected(nvidia, {"pocl", "nvidia"}));
  EXPECT_FALSE(platform_selected(nvidia, {"intel"}));
}

}  // namespace
}  // namespace mslport::bench
