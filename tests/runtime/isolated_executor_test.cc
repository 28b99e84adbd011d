// make_isolated_executor: the executor lives in a worker process; a case
// that kills the worker or runs past the limit is an error for that case
// alone, and the next case gets a fresh worker.
#include "runtime/isolated_executor.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "runtime/case_buffers.h"

namespace mslport::runtime {
namespace {

// Does what the case's kernel name says, in whichever process it runs.
class ScriptedExecutor : public Executor {
 public:
  std::string target() const override { return "scripted"; }
  bool has_kernel(const std::string& name) const override { return name != "absent"; }
  std::vector<std::string> kernel_names() const override { return {"crash", "echo", "hang"}; }
  CaseResult run(const GoldenCase& c) override {
    if (c.kernel == "crash") ::raise(SIGSEGV);
    if (c.kernel == "hang")
      while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
    CaseResult r = make_result(c, target());
    r.status = "pass";
    // Everything the case carried, to show it crossed the process boundary.
    r.message = "pid " + std::to_string(::getpid()) + " " + c.name + " " + c.buffers.at(0).data_path + " " +
                std::to_string(c.dispatch.threadgroups[1]) + " " + std::to_string(c.threadgroup_memory.at(0).bytes);
    r.max_abs_err = c.buffers.at(0).atol;
    Finding f;
    f.kind = "race";
    f.line = 7;
    r.findings.push_back(f);
    return r;
  }
};

GoldenCase make_case(const std::string& kernel, const std::string& name) {
  GoldenCase c;
  c.kernel = kernel;
  c.name = name;
  c.dispatch.threadgroups = {1, 5, 1};
  BufferSpec b;
  b.index = 0;
  b.data_path = "/data/\xff\tx.npy";  // any bytes, not only UTF-8
  b.atol = 0.25;
  c.buffers.push_back(b);
  c.threadgroup_memory.push_back({0, 4096});
  return c;
}

std::string pid_of(const CaseResult& r) { return r.message.substr(0, r.message.find(' ', 4)); }

TEST(IsolatedExecutor, CrashesAndHangsCostOneCaseEach) {
  std::string err;
  auto ex = make_isolated_executor([](std::string*) { return std::make_unique<ScriptedExecutor>(); }, &err);
  ASSERT_NE(ex, nullptr) << err;
  ex->set_case_timeout(1);
  EXPECT_EQ(ex->target(), "scripted");
  EXPECT_EQ(ex->kernel_names(), (std::vector<std::string>{"crash", "echo", "hang"}));

  CaseResult first = ex->run(make_case("echo", "one"));
  ASSERT_EQ(first.status, "pass") << first.message;
  EXPECT_EQ(first.message.substr(first.message.find(' ', 4) + 1), "one /data/\xff\tx.npy 5 4096");
  EXPECT_EQ(first.max_abs_err, 0.25);
  ASSERT_EQ(first.findings.size(), 1u);
  EXPECT_EQ(first.findings[0].line, 7);
  EXPECT_NE(pid_of(first), "pid " + std::to_string(::getpid()));  // not this process

  CaseResult crashed = ex->run(make_case("crash", "two"));
  EXPECT_EQ(crashed.status, "error");
  EXPECT_EQ(crashed.message, "kernel crashed: signal 11 (Segmentation fault)");

  CaseResult after_crash = ex->run(make_case("echo", "three"));
  ASSERT_EQ(after_crash.status, "pass") << after_crash.message;
  EXPECT_NE(pid_of(after_crash), pid_of(first));  // a fresh worker

  CaseResult hung = ex->run(make_case("hang", "four"));
  EXPECT_EQ(hung.status, "error");
  EXPECT_EQ(hung.message, "timed out after 1 s (--case-timeout)");

  CaseResult after_hang = ex->run(make_case("echo", "five"));
  EXPECT_EQ(after_hang.status, "pass") << after_hang.message;
}

// A check of many files keeps at most 8 workers: the least recently used
// are stopped, and start again when their executor runs a case.
TEST(IsolatedExecutor, AtMostEightWorkersLive) {
  std::vector<std::unique_ptr<Executor>> executors;
  std::vector<pid_t> pids;
  for (int i = 0; i < 10; ++i) {
    std::string err;
    executors.push_back(
        make_isolated_executor([](std::string*) { return std::make_unique<ScriptedExecutor>(); }, &err));
    ASSERT_NE(executors.back(), nullptr) << err;
    CaseResult r = executors.back()->run(make_case("echo", "n"));
    ASSERT_EQ(r.status, "pass") << r.message;
    pids.push_back(static_cast<pid_t>(std::stol(r.message.substr(4))));
  }
  auto alive = [](pid_t p) { return ::kill(p, 0) == 0; };
  EXPECT_FALSE(alive(pids[0]));
  EXPECT_FALSE(alive(pids[1]));
  for (int i = 2; i < 10; ++i) EXPECT_TRUE(alive(pids[i])) << i;
  CaseResult again = executors[0]->run(make_case("echo", "again"));
  EXPECT_EQ(again.status, "pass") << again.message;
  EXPECT_FALSE(alive(pids[2]));  // now the least recently used
}

TEST(IsolatedExecutor, ABuildFailureComesBackAsTheError) {
  std::string err;
  auto ex = make_isolated_executor(
      [](std::string* e) {
        *e = "build log: line 3: syntax error";
        return std::unique_ptr<Executor>();
      },
      &err);
  EXPECT_EQ(ex, nullptr);
  EXPECT_EQ(err, "build log: line 3: syntax error");
}

TEST(IsolatedExecutor, ACrashWhileBuildingIsReported) {
  std::string err;
  auto ex = make_isolated_executor(
      [](std::string*) -> std::unique_ptr<Executor> {
        ::raise(SIGABRT);
        return nullptr;
      },
      &err);
  EXPECT_EQ(ex, nullptr);
  EXPECT_NE(err.find("died while building (signal 6"), std::string::npos) << err;
}

}  // namespace
}  // namespace mslport::runtime
