#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/runner.h"
#include "runtime_test_util.h"
#include "test_support.h"

namespace mslport::runtime {
namespace {

namespace fs = std::filesystem;
using testutil::find_result;

const std::string kModule = mslport::testing::source_path("tests/runtime/fixtures/openmp_module.cpp");

std::unique_ptr<Executor> load_fixture_module() {
  std::string err;
  auto ex = load_openmp_module(kModule, testutil::module_cache_dir(), &err);
  EXPECT_NE(ex, nullptr) << err;
  return ex;
}

size_t count_modules(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".so";
  return n;
}

TEST(OpenMpExecutor, RunsHandWrittenModule) {
  auto ex = load_fixture_module();
  ASSERT_NE(ex, nullptr);
  EXPECT_EQ(ex->target(), "openmp");
  EXPECT_TRUE(ex->has_kernel("add_one"));
  EXPECT_TRUE(ex->has_kernel("add_one_skip_last"));
  EXPECT_FALSE(ex->has_kernel("nonexistent"));

  std::string root = testutil::fresh_dir("golden");
  for (const char* k :
       {"add_one", "add_one_skip_last", "crash", "fail_status", "overrun", "scribble_input", "missing_kernel"})
    testutil::write_add_one_case(root, k);
  // Dispatch plumbing: a dispatchThreads case with threadgroup memory.
  testutil::write_array(root + "/dispatch_info/c/out.expected.npy",
                        make_npy<uint32_t>({3, 2, 1, 4, 2, 1, 10, 3, 1, 512, 44}));
  testutil::write_case_json(root, "dispatch_info", "c", R"({"threads": [10, 3], "threads_per_threadgroup": [4, 2]})",
                            R"([{"index": 0, "access": "write", "expected": "out.expected.npy"}])",
                            R"([{"index": 0, "bytes": 512}])");

  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_TRUE(errors.empty()) << errors[0].file << ": " << errors[0].message;
  ASSERT_EQ(cases.size(), 8u);

  auto results = run_cases(cases, {"openmp"}, {ex.get()}, {});
  ASSERT_EQ(results.size(), 8u);
  auto get = [&](const std::string& k) {
    const CaseResult* r = find_result(results, k, "openmp");
    EXPECT_NE(r, nullptr) << k;
    return r ? *r : CaseResult{};
  };

  CaseResult ok = get("add_one");
  EXPECT_EQ(ok.status, "pass") << ok.message;
  EXPECT_EQ(ok.max_abs_err, 0);
  EXPECT_EQ(ok.case_name, "small");

  // The unwritten last element stays poisoned (NaN) and fails, although the
  // expected value there is 0.
  CaseResult skip = get("add_one_skip_last");
  EXPECT_EQ(skip.status, "fail");
  EXPECT_NE(skip.message.find("1 of 5 elements differ"), std::string::npos) << skip.message;
  EXPECT_NE(skip.message.find("out[4]: got nan (0xffffffff)"), std::string::npos) << skip.message;

  // A crash is an error for that case; later cases still run.
  CaseResult crash = get("crash");
  EXPECT_EQ(crash.status, "error");
  EXPECT_NE(crash.message.find("crashed"), std::string::npos) << crash.message;
  EXPECT_NE(crash.message.find("signal 11"), std::string::npos) << crash.message;

  CaseResult fail_status = get("fail_status");
  EXPECT_EQ(fail_status.status, "error");
  EXPECT_NE(fail_status.message.find("status 3: barrier reached by only some threads"), std::string::npos)
      << fail_status.message;

  CaseResult overrun = get("overrun");
  EXPECT_EQ(overrun.status, "fail");
  EXPECT_NE(overrun.message.find("past the end"), std::string::npos) << overrun.message;

  CaseResult scribble = get("scribble_input");
  EXPECT_EQ(scribble.status, "fail");
  EXPECT_NE(scribble.message.find("read-only"), std::string::npos) << scribble.message;

  CaseResult info = get("dispatch_info");
  EXPECT_EQ(info.status, "pass") << info.message;

  EXPECT_EQ(get("missing_kernel").status, "not_covered");

  // Kernel filter.
  auto only = run_cases(cases, {"openmp"}, {ex.get()}, {"add_one"});
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only[0].kernel, "add_one");
}

TEST(OpenMpExecutor, CachesCompiledModulesByContent) {
  std::string build = testutil::fresh_dir("build");
  std::string src = testutil::fresh_dir("src") + "/mod.cpp";
  std::string text;
  {
    std::ifstream f(kModule);
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  testutil::write_text(src, text);
  std::string err;
  ASSERT_NE(load_openmp_module(src, build, &err), nullptr) << err;
  EXPECT_EQ(count_modules(build), 1u);

  auto t0 = std::chrono::steady_clock::now();
  auto again = load_openmp_module(src, build, &err);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_NE(again, nullptr) << err;
  EXPECT_EQ(count_modules(build), 1u);
  EXPECT_LT(secs, 0.5);  // no compiler run

  testutil::write_text(src, text + "\n// changed\n");
  ASSERT_NE(load_openmp_module(src, build, &err), nullptr) << err;
  EXPECT_EQ(count_modules(build), 2u);

  // A header the source includes is part of the key too.
  std::string hdr = fs::path(src).parent_path().string() + "/extra.h";
  testutil::write_text(hdr, "#define EXTRA 1\n");
  testutil::write_text(src, text + "\n#include \"extra.h\"\n");
  ASSERT_NE(load_openmp_module(src, build, &err), nullptr) << err;
  EXPECT_EQ(count_modules(build), 3u);
  testutil::write_text(hdr, "#define EXTRA 2\n");
  ASSERT_NE(load_openmp_module(src, build, &err), nullptr) << err;
  EXPECT_EQ(count_modules(build), 4u);
}

// The cache key is what gets compiled: the module is built from a private
// copy of the bytes that were hashed. Here the compiler (a wrapper) finds
// the original file replaced by another run meanwhile; the module still
// holds the hashed source's kernels, and the same source built from another
// folder (every check run has its own) hits the same cache entry.
TEST(OpenMpExecutor, CompilesExactlyWhatItHashed) {
  std::string build = testutil::fresh_dir("build");
  std::string dir = testutil::fresh_dir("src");
  std::string text;
  {
    std::ifstream f(kModule);
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  std::string src = testutil::write_text(dir + "/mod.cpp", text);
  std::string wrapper = testutil::write_text(
      dir + "/tampering-cxx",
      "#!/bin/sh\necho 'int replaced_by_another_run;' > \"$MSLPORT_TEST_TAMPER\"\nexec c++ \"$@\"\n");
  fs::permissions(wrapper, fs::perms::owner_all);
  ::setenv("MSLPORT_CXX", wrapper.c_str(), 1);
  ::setenv("MSLPORT_TEST_TAMPER", src.c_str(), 1);
  std::string err;
  auto ex = load_openmp_module(src, build, &err);
  ::unsetenv("MSLPORT_CXX");
  ::unsetenv("MSLPORT_TEST_TAMPER");
  ASSERT_NE(ex, nullptr) << err;
  EXPECT_TRUE(ex->has_kernel("add_one"));
  // The same bytes in another folder, the wrapper no longer tampering: a hit
  // (no new module), and still the hashed source's kernels.
  std::string elsewhere = testutil::write_text(testutil::fresh_dir("src2") + "/mod.cpp", text);
  ::setenv("MSLPORT_CXX", wrapper.c_str(), 1);
  auto again = load_openmp_module(elsewhere, build, &err);
  ::unsetenv("MSLPORT_CXX");
  ASSERT_NE(again, nullptr) << err;
  EXPECT_TRUE(again->has_kernel("add_one"));
  EXPECT_EQ(count_modules(build), 1u);
}

TEST(OpenMpExecutor, ReportsCompileErrorsAndMissingTable) {
  std::string dir = testutil::fresh_dir("src");
  std::string err;
  std::string bad = testutil::write_text(dir + "/bad.cpp", "int f( { return 0; }\n");
  EXPECT_EQ(load_openmp_module(bad, dir + "/build", &err), nullptr);
  EXPECT_NE(err.find("compiling"), std::string::npos) << err;
  EXPECT_NE(err.find("error"), std::string::npos) << err;

  std::string no_table = testutil::write_text(dir + "/no_table.cpp", "extern \"C\" int f() { return 0; }\n");
  EXPECT_EQ(load_openmp_module(no_table, dir + "/build", &err), nullptr);
  EXPECT_NE(err.find("mslport_module_kernels"), std::string::npos) << err;

  EXPECT_EQ(load_openmp_module(dir + "/none.cpp", dir + "/build", &err), nullptr);
  EXPECT_NE(err.find("none.cpp"), std::string::npos) << err;
}

TEST(OpenMpExecutor, MissingDataFileAtRunTimeIsAnError) {
  auto ex = load_fixture_module();
  ASSERT_NE(ex, nullptr);
  std::string root = testutil::fresh_dir("golden");
  testutil::write_add_one_case(root, "add_one");
  std::vector<LoadError> errors;
  auto cases = load_golden_dir(root, &errors);
  ASSERT_EQ(cases.size(), 1u);
  fs::remove(root + "/add_one/small/in.npy");  // vanished after loading
  auto results = run_cases(cases, {"openmp"}, {ex.get()}, {});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, "error");
  EXPECT_NE(results[0].message.find("in.npy"), std::string::npos) << results[0].message;
}

}  // namespace
}  // namespace mslport::runtime
