#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/case_buffers.h"
#include "runtime/runner.h"

namespace mslport::runtime {
namespace {

CaseResult res(std::string kernel, std::string c, std::string target, std::string status, double abs = 0,
               double rel = 0, std::string message = "") {
  CaseResult r;
  r.kernel = std::move(kernel);
  r.case_name = std::move(c);
  r.target = std::move(target);
  r.status = std::move(status);
  r.max_abs_err = abs;
  r.max_rel_err = rel;
  r.message = std::move(message);
  return r;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream ss(s);
  std::string l;
  while (std::getline(ss, l)) out.push_back(l);
  return out;
}

TEST(Report, TableHasAlignedColumnsAndSummaryLines) {
  std::vector<CaseResult> rs = {
      res("silu_mul_stacked_f32", "small", "openmp", "pass", 1.5e-7, 2e-7),
      res("k", "a_longer_case_name", "opencl", "fail", 0.25, std::numeric_limits<double>::infinity(),
          "out: 1 of 4 elements differ\n    out[3]: got nan"),
      res("k", "c", "opencl", "error", 0, 0, "kernel crashed"),
      res("k", "d", "openmp", "not_covered"),
  };
  std::string t = format_table(rs);
  auto ls = lines(t);
  ASSERT_GE(ls.size(), 7u);
  EXPECT_EQ(ls[0].rfind("kernel", 0), 0u);
  // Every column starts at the same offset in each row.
  size_t status_col = ls[0].find("status");
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(ls[i].find_first_not_of(' ', status_col), status_col) << ls[i];
    EXPECT_NE(ls[i].find(' ', status_col - 2), std::string::npos);
  }
  EXPECT_NE(ls[1].find("1.5e-07"), std::string::npos) << ls[1];
  EXPECT_NE(ls[2].find("inf"), std::string::npos) << ls[2];
  EXPECT_NE(ls[3].find("-"), std::string::npos) << ls[3];
  EXPECT_NE(t.find("fail: k / a_longer_case_name [opencl]: out: 1 of 4 elements differ"), std::string::npos) << t;
  EXPECT_NE(t.find("error: k / c [opencl]: kernel crashed"), std::string::npos) << t;
  EXPECT_EQ(ls[ls.size() - 2], "1 errors, 1 not covered");
  EXPECT_EQ(ls.back(), "1 passed, 1 failed");
}

TEST(Report, SummaryOnlyLineWhenAllPassOrFail) {
  std::string t = format_table({res("k", "a", "openmp", "pass"), res("k", "b", "openmp", "fail", 1, 1, "x")});
  auto ls = lines(t);
  EXPECT_EQ(ls.back(), "1 passed, 1 failed");
  EXPECT_EQ(t.find("errors"), std::string::npos) << t;
  EXPECT_EQ(lines(format_table({})).back(), "0 passed, 0 failed");
}

TEST(Report, Json) {
  std::vector<CaseResult> rs = {
      res("k", "a", "openmp", "pass", 1e-7, 2e-7),
      res("k", "b", "opencl", "fail", std::numeric_limits<double>::infinity(), 1, "why"),
      res("k", "c", "opencl", "error"),
      res("k", "d", "openmp", "not_covered"),
  };
  auto j = nlohmann::json::parse(format_json(rs));
  ASSERT_EQ(j["results"].size(), 4u);
  EXPECT_EQ(j["results"][0]["kernel"], "k");
  EXPECT_EQ(j["results"][0]["case"], "a");
  EXPECT_EQ(j["results"][0]["target"], "openmp");
  EXPECT_EQ(j["results"][0]["status"], "pass");
  EXPECT_DOUBLE_EQ(j["results"][0]["max_abs_err"].get<double>(), 1e-7);
  EXPECT_DOUBLE_EQ(j["results"][0]["max_rel_err"].get<double>(), 2e-7);
  EXPECT_FALSE(j["results"][0].contains("message"));
  EXPECT_TRUE(j["results"][1]["max_abs_err"].is_null());
  EXPECT_EQ(j["results"][1]["message"], "why");
  EXPECT_EQ(j["summary"]["passed"], 1);
  EXPECT_EQ(j["summary"]["failed"], 1);
  EXPECT_EQ(j["summary"]["errors"], 1);
  EXPECT_EQ(j["summary"]["not_covered"], 1);
}

// run_cases turns an executor's exception into an error result.
class ThrowingExecutor : public Executor {
 public:
  std::string target() const override { return "openmp"; }
  bool has_kernel(const std::string&) const override { return true; }
  CaseResult run(const GoldenCase&) override { throw std::runtime_error("boom"); }
};

TEST(RunCases, ExceptionsBecomeErrorsAndUncoveredTargetsAreReported) {
  GoldenCase c;
  c.kernel = "k";
  c.name = "a";
  ThrowingExecutor ex;
  auto rs = run_cases({c, c}, {"openmp", "opencl"}, {&ex}, {});
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0].status, "error");
  EXPECT_NE(rs[0].message.find("boom"), std::string::npos);
  EXPECT_EQ(rs[0].kernel, "k");
  EXPECT_EQ(rs[0].case_name, "a");
  EXPECT_EQ(rs[1].target, "opencl");
  EXPECT_EQ(rs[1].status, "not_covered");
  EXPECT_TRUE(run_cases({c}, {"openmp"}, {&ex}, {"other"}).empty());
}

// A case runs on the executor whose module was translated with exactly the
// case's function constants.
class NamedExecutor : public Executor {
 public:
  explicit NamedExecutor(std::string id) : id_(std::move(id)) {}
  std::string target() const override { return "openmp"; }
  bool has_kernel(const std::string&) const override { return true; }
  CaseResult run(const GoldenCase& c) override {
    CaseResult r = make_result(c, target());
    r.status = "pass";
    r.message = id_;
    return r;
  }

 private:
  std::string id_;
};

TEST(RunCases, FunctionConstantsPickTheExecutor) {
  GoldenCase plain, two, three, none;
  plain.kernel = two.kernel = three.kernel = none.kernel = "k";
  two.function_constants = {{"n", "2"}};
  three.function_constants = {{"n", "3"}};
  none.function_constants = {{"n", "4"}};
  NamedExecutor a("plain"), b("two"), c("three");
  b.set_function_constants({{"n", "2"}});
  c.set_function_constants({{"n", "3"}});
  auto rs = run_cases({three, plain, two, none}, {"openmp"}, {&a, &b, &c}, {});
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0].message, "three");
  EXPECT_EQ(rs[1].message, "plain");
  EXPECT_EQ(rs[2].message, "two");
  EXPECT_EQ(rs[3].status, "not_covered");
  EXPECT_NE(rs[3].message.find("function constants"), std::string::npos) << rs[3].message;
}

}  // namespace
}  // namespace mslport::runtime
