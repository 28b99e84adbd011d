// The ?: operands clang refuses for their address space alone
// (front/conditional_operands.h): which one is copied, and the text step.
#include "front/conditional_operands.h"

#include <gtest/gtest.h>

using namespace mslport::front;

TEST(ConditionalOperands, TheOperandWithAnAddressSpaceIsCopied) {
  EXPECT_EQ(operand_with_address_space("'S'", "'__private S'"), 1);
  EXPECT_EQ(operand_with_address_space("'__private M<...>'", "'M<...>'"), 0);
  EXPECT_EQ(operand_with_address_space("'__global S' (aka '__global Foo')", "'S'"), 0);
  // Types that differ in more than the address space stay clang's error.
  EXPECT_EQ(operand_with_address_space("'S'", "'__private T'"), -1);
  EXPECT_EQ(operand_with_address_space("'S'", "'S'"), -1);
  EXPECT_EQ(operand_with_address_space("'__private S'", "'__global S'"), 2);  // both copied
  EXPECT_EQ(operand_with_address_space("'const __global S'", "'S'"), 0);
  EXPECT_EQ(operand_with_address_space("'__constant const S'", "'const __constant S'"), -1);
}

TEST(ConditionalOperands, EachOperandIsWrappedOnce) {
  std::string text = "return c ? f(a) : m;\nreturn d ? n : g(b);\n";
  unsigned m = (unsigned)text.find("m;"), n = (unsigned)text.find("n :");
  ConditionalOperand a{nullptr, m, m + 1}, b{nullptr, n, n + 1};
  // A template's instances report an operand once each.
  EXPECT_EQ(copy_conditional_operands(&text, {a, b, a}), 2u);
  EXPECT_EQ(text,
            "return c ? f(a) : ::metal::__mslport_value(m);\n"
            "return d ? ::metal::__mslport_value(n) : g(b);\n");
  // Already wrapped: nothing to do.
  unsigned w = (unsigned)text.find("::metal::__mslport_value(m)");
  EXPECT_EQ(copy_conditional_operands(&text, {{nullptr, w, w + 28}}), 0u);
}
