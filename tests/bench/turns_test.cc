#include "bench/turns.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_support.h"

namespace mslport::bench {
namespace {

TEST(Turns, StepsSurviveTheirLine) {
  TurnStep s{1, "rms_norm", 2};
  EXPECT_EQ(s.to_line(), "1 rms_norm 2");
  auto back = TurnStep::parse(s.to_line());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->phase, 1);
  EXPECT_EQ(back->kernel, "rms_norm");
  EXPECT_EQ(back->sub, 2);
  EXPECT_EQ((TurnStep{0, "", 0}.to_line()), "0 - 0");
  ASSERT_TRUE(TurnStep::parse("2 - 0"));
  EXPECT_EQ(TurnStep::parse("2 - 0")->kernel, "");
  EXPECT_FALSE(TurnStep::parse("bench: compiling x.cpp"));
  EXPECT_FALSE(TurnStep::parse("1 k 0 extra"));
  EXPECT_FALSE(TurnStep::parse(""));
}

TEST(Turns, TheEarliestStepGoesFirstAndTiesGoToTheFirstWorker) {
  const std::vector<std::string> order = {"b_kernel", "a_kernel"};
  // Both at round 0 of the same kernel: worker 0 (openmp) first.
  EXPECT_EQ(next_turn({TurnStep{1, "b_kernel", 0}, TurnStep{1, "b_kernel", 0}}, order), 0);
  // Worker 0 has taken round 0; worker 1 has not: worker 1.
  EXPECT_EQ(next_turn({TurnStep{1, "b_kernel", 1}, TurnStep{1, "b_kernel", 0}}, order), 1);
  // The kernel order, not the names' order.
  EXPECT_EQ(next_turn({TurnStep{1, "a_kernel", -1}, TurnStep{1, "b_kernel", 2}}, order), 1);
  // Phases before kernels: the roofs after come last.
  EXPECT_EQ(next_turn({TurnStep{2, "", 0}, TurnStep{1, "a_kernel", 0}}, order), 1);
  EXPECT_EQ(next_turn({TurnStep{0, "", 0}, TurnStep{1, "a_kernel", -1}}, order), 0);
  // A kernel outside the order comes after those in it, by name.
  EXPECT_EQ(next_turn({TurnStep{1, "zz", 0}, TurnStep{1, "a_kernel", 3}}, order), 1);
  EXPECT_EQ(next_turn({TurnStep{1, "zz", 0}, TurnStep{1, "yy", 0}}, order), 1);
  // A finished worker is passed over; none left: -1.
  EXPECT_EQ(next_turn({std::nullopt, TurnStep{2, "", 0}}, order), 1);
  EXPECT_EQ(next_turn({std::nullopt, std::nullopt}, order), -1);
}

// Two real processes (sh) that each announce two rounds of one kernel and,
// when given the turn, append their name and round to one file. A takes
// ten times longer over each step than B: on their own, B's lines would
// come first; taking turns, the rounds alternate.
TEST(Turns, WorkersAlternateRoundByRound) {
  const std::filesystem::path dir = std::filesystem::path(testing::fresh_test_dir("turns"));
  const std::string order_file = (dir / "order.txt").string();
  const std::string script =
      "for r in 0 1; do echo \"1 k $r\" >&\"$5\"; dd bs=1 count=1 <&\"$4\" >/dev/null 2>&1 || exit 3; "
      "sleep \"$3\"; echo \"$1$r\" >> \"$2\"; done";
  std::vector<TurnWorker> workers;
  for (std::string name : {"A", "B"})
    workers.push_back({{"/bin/sh", "-c", script, "worker", name, order_file, name == "A" ? "0.2" : "0.02"},
                       (dir / (name + ".log")).string()});
  auto outcomes = run_taking_turns(workers, {"k"});
  ASSERT_EQ(outcomes.size(), 2u);
  for (const auto& o : outcomes) EXPECT_TRUE(o.ok()) << o.describe();
  std::ifstream in(order_file);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), "A0\nB0\nA1\nB1\n");
}

TEST(Turns, AWorkerThatCannotStartIsReportedAndTheOthersRun) {
  const std::filesystem::path dir = std::filesystem::path(testing::fresh_test_dir("turns-missing"));
  std::vector<TurnWorker> workers = {
      {{(dir / "no-such-program").string()}, (dir / "missing.log").string()},
      {{"/bin/sh", "-c", "echo '0 - 0' >&\"$2\"; dd bs=1 count=1 <&\"$1\" >/dev/null 2>&1", "w"},
       (dir / "ok.log").string()}};
  auto outcomes = run_taking_turns(workers, {});
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_FALSE(outcomes[0].ok());
  EXPECT_EQ(outcomes[0].exit_code, 127);
  EXPECT_TRUE(outcomes[1].ok()) << outcomes[1].describe();
}

}  // namespace
}  // namespace mslport::bench
