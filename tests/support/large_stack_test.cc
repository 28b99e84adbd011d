// run_with_stack: work that needs far more than a thread's usual 8 MB of
// stack runs to the end; its exceptions reach the caller.
#include "support/large_stack.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace {

// About 1 KB of stack per level, kept from being turned into a loop.
int deep(int n) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(n);
  if (n == 0) return 0;
  return deep(n - 1) + (frame[0] == static_cast<char>(n) ? 1 : 0);
}

}  // namespace

TEST(LargeStack, RunsRecursionFarBeyondEightMegabytes) {
  int result = -1;
  // ~64 MB of frames: a crash on an ordinary thread.
  mslport::run_with_stack(mslport::kTranslationStackBytes, [&] { result = deep(64 * 1024); });
  EXPECT_EQ(result, 64 * 1024);
}

TEST(LargeStack, PassesExceptionsBack) {
  EXPECT_THROW(mslport::run_with_stack(1 << 20, [] { throw std::runtime_error("boom"); }), std::runtime_error);
}
