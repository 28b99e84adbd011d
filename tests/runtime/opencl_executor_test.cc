#include <gtest/gtest.h>

#include "runtime/runner.h"
#include "runtime_test_util.h"
#include "test_support.h"

namespace mslport::runtime {
namespace {

using testutil::find_result;

const std::string kCl = mslport::testing::source_path("tests/runtime/fixtures/opencl_kernels.cl");
const std::string kBindings = mslport::testing::source_path("tests/runtime/fixtures/opencl_kernels.bindings.json");
const std::string kModule = mslport::testing::source_path("tests/runtime/fixtures/openmp_module.cpp");

// PoCL is the reference OpenCL platform on the development machines.
std::unique_ptr<Executor> load_on_pocl(std::string* err) {
  return load_opencl_program(kCl, kBindings, "Portable", err);
}

#define LOAD_POCL(ex)                                                      \
  std::string load_err;                                                    \
  auto ex = load_on_pocl(&load_err);                                       \
  /* PoCL is a dependency (scripts/install-deps.sh): its absence fails. */ \
  ASSERT_NE(ex, nullptr) << load_err

TEST(OpenClExecutor, RunsHandWrittenProgramOnPocl) {
  LOAD_POCL(ex);
  EXPECT_EQ(ex->target(), "opencl");
  EXPECT_TRUE(ex->has_kernel("add_one"));
  EXPECT_TRUE(ex->has_kernel("group_sum"));
  EXPECT_FALSE(ex->has_kernel("nonexistent"));

  std::string root = testutil::fresh_dir("golden");
  for (const char* k : {"add_one", "add_one_skip_last", "needs_buffer_5", "not_in_program", "missing_kernel"})
    testutil::write_add_one_case(root, k);

  // group_sum: 300 threads in threadgroups of 128 (last one partial).
  std::vector<float> in(300);
  std::vector<float> sums(3, 0.0f);
  for (int i = 0; i < 300; ++i) {
    in[i] = static_cast<float>(i % 7);
    sums[i / 128] += in[i];
  }
  testutil::write_array(root + "/group_sum/c/in.npy", make_npy(in));
  testutil::write_array(root + "/group_sum/c/out.expected.npy", make_npy(sums));
  testutil::write_case_json(root, "group_sum", "c", R"({"threads": [300], "threads_per_threadgroup": [128]})",
                            R"([{"index": 0, "access": "read", "data": "in.npy"},
                                {"index": 1, "access": "write", "expected": "out.expected.npy"}])",
                            R"([{"index": 0, "bytes": 512}])");
  // group_sum without the threadgroup memory it binds.
  testutil::write_array(root + "/group_sum/no_tgmem/in.npy", make_npy(in));
  testutil::write_array(root + "/group_sum/no_tgmem/out.expected.npy", make_npy(sums));
  testutil::write_case_json(root, "group_sum", "no_tgmem", R"({"threads": [300], "threads_per_threadgroup": [128]})",
                            R"([{"index": 0, "access": "read", "data": "in.npy"},
                                {"index": 1, "access": "write", "expected": "out.expected.npy"}])");
  // The grid argument and the global size of a dispatchThreads case.
  testutil::write_array(root + "/dispatch_info/c/out.expected.npy", make_npy<uint32_t>({300, 1, 1, 384, 128}));
  testutil::write_case_json(root, "dispatch_info", "c", R"({"threads": [300], "threads_per_threadgroup": [128]})",
                            R"([{"index": 0, "access": "write", "expected": "out.expected.npy"}])");

  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_TRUE(errors.empty()) << errors[0].file << ": " << errors[0].message;
  ASSERT_EQ(cases.size(), 8u);
  auto results = run_cases(cases, {"opencl"}, {ex.get()}, {});
  ASSERT_EQ(results.size(), 8u);
  auto get = [&](const std::string& k, const std::string& c = "") {
    for (const auto& r : results)
      if (r.kernel == k && (c.empty() || r.case_name == c)) return r;
    ADD_FAILURE() << "no result for " << k << "/" << c;
    return CaseResult{};
  };

  CaseResult ok = get("add_one");
  EXPECT_EQ(ok.status, "pass") << ok.message;

  CaseResult skip = get("add_one_skip_last");
  EXPECT_EQ(skip.status, "fail");
  EXPECT_NE(skip.message.find("out[4]: got nan (0xffffffff)"), std::string::npos) << skip.message;

  CaseResult gs = get("group_sum", "c");
  EXPECT_EQ(gs.status, "pass") << gs.message;

  CaseResult no_tg = get("group_sum", "no_tgmem");
  EXPECT_EQ(no_tg.status, "error");
  EXPECT_NE(no_tg.message.find("threadgroup(0)"), std::string::npos) << no_tg.message;

  CaseResult info = get("dispatch_info");
  EXPECT_EQ(info.status, "pass") << info.message;

  CaseResult b5 = get("needs_buffer_5");
  EXPECT_EQ(b5.status, "error");
  EXPECT_NE(b5.message.find("binds buffer(5) 'extra'"), std::string::npos) << b5.message;
  EXPECT_NE(b5.message.find("provides no buffer with index 5"), std::string::npos) << b5.message;

  CaseResult nip = get("not_in_program");
  EXPECT_EQ(nip.status, "error");
  EXPECT_NE(nip.message.find("not_in_program"), std::string::npos) << nip.message;

  EXPECT_EQ(get("missing_kernel").status, "not_covered");
}

TEST(OpenClExecutor, ShowsBuildLogOnFailure) {
  std::string dir = testutil::fresh_dir("cl");
  std::string cl =
      testutil::write_text(dir + "/bad.cl", "__kernel void f(__global float* out) { out[0] = undeclared_thing; }\n");
  std::string err;
  auto ex = load_opencl_program(cl, kBindings, "Portable", &err);
  EXPECT_EQ(ex, nullptr);
  EXPECT_NE(err.find("build log"), std::string::npos) << err;
  EXPECT_NE(err.find("undeclared_thing"), std::string::npos) << err;
}

TEST(OpenClExecutor, RejectsUnknownPlatformAndBadBindings) {
  std::string err;
  EXPECT_EQ(load_opencl_program(kCl, kBindings, "no-such-platform-xyz", &err), nullptr);
  EXPECT_NE(err.find("no-such-platform-xyz"), std::string::npos) << err;

  std::string dir = testutil::fresh_dir("cl");
  std::string bad =
      testutil::write_text(dir + "/b.json", R"({"kernels": [{"name": "add_one", "args": [{"kind": "sampler"}]}]})");
  EXPECT_EQ(load_opencl_program(kCl, bad, "Portable", &err), nullptr);
  EXPECT_NE(err.find("kernels[0].args[0].kind"), std::string::npos) << err;
}

// Both targets side by side in one process (the OpenMP child processes are
// forked after PoCL has started its threads).
TEST(OpenClExecutor, BothTargetsInOneRun) {
  LOAD_POCL(cl);
  std::string err;
  auto omp = load_openmp_module(kModule, testutil::module_cache_dir(), &err);
  ASSERT_NE(omp, nullptr) << err;
  std::string root = testutil::fresh_dir("golden");
  testutil::write_add_one_case(root, "add_one");
  testutil::write_add_one_case(root, "add_one_skip_last");
  testutil::write_add_one_case(root, "group_sum_missing_in_omp");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_EQ(cases.size(), 3u);
  auto results = run_cases(cases, {"openmp", "opencl"}, {omp.get(), cl.get()}, {});
  ASSERT_EQ(results.size(), 6u);
  for (const char* t : {"openmp", "opencl"}) {
    EXPECT_EQ(find_result(results, "add_one", t)->status, "pass")
        << t << ": " << find_result(results, "add_one", t)->message;
    EXPECT_EQ(find_result(results, "add_one_skip_last", t)->status, "fail") << t;
    EXPECT_EQ(find_result(results, "group_sum_missing_in_omp", t)->status, "not_covered") << t;
  }
  std::string table = format_table(results);
  EXPECT_NE(table.find("0 errors, 2 not covered\n2 passed, 2 failed\n"), std::string::npos) << table;
}

}  // namespace
}  // namespace mslport::runtime
