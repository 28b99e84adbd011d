#include "bench/golden_cases.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runtime/npy.h"
#include "test_support.h"

namespace mslport::bench {
namespace {

using mslport::testing::fresh_test_dir;

runtime::NpyArray f32(size_t n) {
  runtime::NpyArray a;
  a.descr = "<f4";
  a.kind = 'f';
  a.itemsize = 4;
  a.shape = {n};
  a.data.assign(n * 4, 0);
  for (size_t i = 0; i < n * 4; ++i) a.data[i] = static_cast<uint8_t>(i);
  return a;
}

// golden/<kernel>/<name>/: x (read, n floats), y (read_write, n), out (write, 2n);
// `fc`: a "function_constants" object, or empty.
void write_case(const std::string& root, const std::string& kernel, const std::string& name, size_t n,
                const std::string& fc = "") {
  std::string d = root + "/" + kernel + "/" + name;
  std::filesystem::create_directories(d);
  std::string err;
  ASSERT_TRUE(runtime::write_npy(d + "/x.npy", f32(n), &err)) << err;
  ASSERT_TRUE(runtime::write_npy(d + "/y.npy", f32(n), &err)) << err;
  ASSERT_TRUE(runtime::write_npy(d + "/out.npy", f32(2 * n), &err)) << err;
  std::ofstream(d + "/case.json") << R"({"kernel": ")" << kernel << R"(", "case": ")" << name
                                  << R"(", "description": "n=)" << n << R"(",
    "dispatch": {"threadgroups": [2, 1, 1], "threads_per_threadgroup": [32, 1, 1]},
    "buffers": [
      {"index": 0, "name": "x", "access": "read", "data": "x.npy"},
      {"index": 2, "name": "out", "access": "write", "expected": "out.npy", "atol": 0, "rtol": 0},
      {"index": 1, "name": "y", "access": "read_write", "data": "y.npy", "expected": "y.npy", "atol": 0, "rtol": 0}
    ],
    "threadgroup_memory": [{"index": 0, "bytes": 64}])"
                                  << (fc.empty() ? "" : ", \"function_constants\": " + fc) << "}";
}

TEST(GoldenBench, PicksTheLargestCaseOfEachKernelAndSkipsKernelsWithout) {
  std::string g = fresh_test_dir("golden-bench-largest");
  write_case(g, "k1", "small", 10);
  write_case(g, "k1", "big", 100);
  write_case(g, "k2", "only", 5);
  auto sel = select_golden_cases(g, {"k1", "k2", "k3"}, {}, "", nullptr);
  EXPECT_TRUE(sel.errors.empty());
  ASSERT_EQ(sel.cases.size(), 2u);
  EXPECT_EQ(sel.cases.at("k1").name, "big");
  EXPECT_EQ(sel.cases.at("k2").name, "only");
  ASSERT_EQ(sel.skipped.size(), 1u);
  EXPECT_EQ(sel.skipped[0].rfind("k3: no golden case", 0), 0u) << sel.skipped[0];
  EXPECT_EQ(golden_case_bytes(sel.cases.at("k1")), 100u * 4 * 4);  // x, y, and out of 2n
}

TEST(GoldenBench, AKernelAskedForWithoutACaseIsAnError) {
  std::string g = fresh_test_dir("golden-bench-asked");
  write_case(g, "k1", "small", 10);
  auto sel = select_golden_cases(g, {"k1", "k2"}, {"k2"}, "", nullptr);
  EXPECT_TRUE(sel.cases.empty());
  ASSERT_EQ(sel.errors.size(), 1u);
  EXPECT_EQ(sel.errors[0].rfind("k2: no golden case in " + g, 0), 0u) << sel.errors[0];
  sel = select_golden_cases(g, {"k1"}, {"nope"}, "", nullptr);
  ASSERT_EQ(sel.errors.size(), 1u);
  EXPECT_EQ(sel.errors[0], "nope: not a kernel of the sources");
}

TEST(GoldenBench, NothingToTimeIsAnError) {
  std::string g = fresh_test_dir("golden-bench-empty");
  auto sel = select_golden_cases(g, {"k1"}, {}, "", nullptr);
  EXPECT_TRUE(sel.cases.empty());
  ASSERT_EQ(sel.errors.size(), 1u);
  EXPECT_EQ(sel.errors[0].rfind("nothing to time", 0), 0u) << sel.errors[0];
}

TEST(GoldenBench, ACaseNamedIsTakenAndOtherwiseReported) {
  std::string g = fresh_test_dir("golden-bench-named");
  write_case(g, "k1", "small", 10);
  write_case(g, "k1", "big", 100);
  write_case(g, "k2", "big", 5);
  auto sel = select_golden_cases(g, {"k1", "k2"}, {}, "small", nullptr);
  ASSERT_EQ(sel.cases.size(), 1u);
  EXPECT_EQ(sel.cases.at("k1").name, "small");
  ASSERT_EQ(sel.skipped.size(), 1u);
  EXPECT_NE(sel.skipped[0].find("no golden case named 'small' (its cases: big)"), std::string::npos) << sel.skipped[0];
}

TEST(GoldenBench, CasesThatCannotRunAreLeftOut) {
  std::string g = fresh_test_dir("golden-bench-fc");
  write_case(g, "k1", "plain", 10);
  write_case(g, "k1", "specialised", 100, R"({"scale": 2})");
  write_case(g, "k2", "specialised", 100, R"({"scale": 2})");
  auto plain_only = [](const runtime::GoldenCase& c) { return c.function_constants.empty(); };
  auto sel = select_golden_cases(g, {"k1", "k2"}, {}, "", plain_only);
  ASSERT_EQ(sel.cases.size(), 1u);
  EXPECT_EQ(sel.cases.at("k1").name, "plain");
  ASSERT_EQ(sel.skipped.size(), 1u);
  EXPECT_NE(sel.skipped[0].find("function constants"), std::string::npos) << sel.skipped[0];
  // Every case can run: the largest, with its constants.
  sel = select_golden_cases(g, {"k1"}, {}, "", nullptr);
  EXPECT_EQ(sel.cases.at("k1").name, "specialised");
  EXPECT_EQ(sel.cases.at("k1").function_constants.size(), 1u);
}

TEST(GoldenBench, TheBenchCaseCountsEachBufferReadOnceAndWrittenOnce) {
  std::string g = fresh_test_dir("golden-bench-case");
  write_case(g, "k1", "c", 16);
  auto sel = select_golden_cases(g, {"k1"}, {}, "", nullptr);
  BenchCase bc = bench_case_from_golden(sel.cases.at("k1"));
  EXPECT_EQ(bc.kernel, "k1");
  EXPECT_EQ(bc.case_name, "c");
  EXPECT_EQ(bc.dispatch.threadgroups[0], 2u);
  ASSERT_EQ(bc.threadgroup_memory.size(), 1u);
  ASSERT_EQ(bc.buffers.size(), 3u);
  EXPECT_EQ(bc.buffers[0].index, 0);  // sorted by index
  EXPECT_EQ(bc.buffers[0].bytes_read, 64u);
  EXPECT_EQ(bc.buffers[0].bytes_written, 0u);
  EXPECT_EQ(bc.buffers[0].fill, Fill::Bytes);
  EXPECT_EQ(bc.buffers[0].contents, f32(16).data);
  EXPECT_EQ(bc.buffers[1].bytes_read, 64u);  // read_write: both
  EXPECT_EQ(bc.buffers[1].bytes_written, 64u);
  EXPECT_EQ(bc.buffers[2].bytes, 128u);  // write-only: sized like the expected array, zeroed
  EXPECT_EQ(bc.buffers[2].fill, Fill::Zero);
  EXPECT_EQ(bc.buffers[2].bytes_written, 128u);
  EXPECT_EQ(bc.min_bytes(), 64u + 128u + 128u);
}

}  // namespace
}  // namespace mslport::bench
