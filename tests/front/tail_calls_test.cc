// Helper functions that call themselves last (lib/front/tail_calls.cc): the
// loop each becomes, and the calls to itself that stay refused.
#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "front/snippet.h"
#include "ir/printer.h"
#include "test_support.h"

namespace mslport::front {
namespace {

TEST(TailCalls, ACallToItselfLastAssignsTheParametersAndStartsAgain) {
  DiagEngine d;
  auto m = parse("tail.metal", R"(
uint gcd(uint a, uint b) {
  if (b == 0) return a;
  return gcd(b, a % b);
}
kernel void k(device uint* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = gcd(o[i], 12u); }
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->functions.size(), 1u);
  // Both arguments are read before either parameter changes.
  EXPECT_EQ(ir::print_kernel(*m, m->functions[0].def), R"(kernel gcd
  param 0 value a: uint
  param 1 value b: uint
  body {
    while (true) {
      if (b == 0u) {
        return a
      }
      {
        %a_next: const uint = b
        %b_next: const uint = a % b
        a = a_next
        b = b_next
        continue
      }
    }
  }
)");
}

TEST(TailCalls, AMemberFunctionOnItsOwnObjectKeepsTheObjectAndFallsOutAtItsEnd) {
  DiagEngine d;
  auto m = parse("method.metal", R"(
struct Walk {
  int at;
  void step(int n) thread {
    if (n == 0) return;
    at += n;
    if (at < 100) step(n - 1);
  }
};
kernel void k(device int* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  Walk w; w.at = int(i); w.step(3); o[i] = w.at;
}
)",
                 d);
  ASSERT_TRUE(m) << first_error(d);
  ASSERT_EQ(m->functions.size(), 1u);
  // `self` is the same object: only n is assigned. A tail call inside an
  // `if` at the end; the body's end leaves the loop.
  EXPECT_EQ(ir::print_kernel(*m, m->functions[0].def), R"(kernel step
  param 0 reference self: thread Walk&
  param 1 value n: int
  body {
    while (true) {
      if (n == 0) {
        return
      }
      self.at += n
      if (self.at < 100) {
        {
          %n_next: const int = n - 1
          n = n_next
          continue
        }
      }
      break
    }
  }
)");
}

TEST(TailCalls, ACallNotLastIsRefusedAtTheCall) {
  DiagEngine d;
  auto m = parse("not_tail.metal", R"(
int sum_to(int n) {
  if (n == 0) return 0;
  return n + sum_to(n - 1);
}
int in_loop(int n) {
  for (int j = 0; j < 2; ++j) {
    if (n > j) return in_loop(n - 1);
  }
  return n;
}
kernel void a(device int* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = sum_to(int(i)); }
kernel void b(device int* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = in_loop(int(i)); }
)",
                 d);
  EXPECT_FALSE(m);  // neither kernel is left
  std::vector<std::string> errors;
  for (const auto& x : d.diagnostics()) errors.push_back(DiagEngine::render(x));
  ASSERT_GE(errors.size(), 2u);
  EXPECT_NE(errors[0].find("not_tail.metal:6:14: error: recursive call to 'sum_to' that is not a tail call (its last "
                           "act, outside its loops)"),
            std::string::npos)
      << errors[0];
  EXPECT_NE(errors[1].find("not_tail.metal:10:23: error: recursive call to 'in_loop' that is not a tail call (its last "
                           "act, outside its loops)"),
            std::string::npos)
      << errors[1];
}

}  // namespace
}  // namespace mslport::front
