// Scalar operands of greater rank than the vector beside them
// (front/scalar_operands.h): the text step alone, then whole parses.
#include "front/scalar_operands.h"

#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "passes/pass_test_util.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::init_of;
using testing::parse_snippet;

// Wraps the operand `scalar` beside `vector` (their first occurrences).
std::string wrapped(std::string text, const std::string& scalar, const std::string& vector) {
  ScalarOperand op;
  op.scalar_begin = (unsigned)text.find(scalar), op.scalar_end = op.scalar_begin + (unsigned)scalar.size();
  op.vector_begin = (unsigned)text.find(vector), op.vector_end = op.vector_begin + (unsigned)vector.size();
  if (wrap_scalar_operands(&text, {op, op}) != 1) return "<unchanged: " + text + ">";
  return text;
}

TEST(ScalarOperands, TheScalarTakesTheVectorsElementType) {
  EXPECT_EQ(wrapped("h * s;", "s", "h"), "h * ::metal::__mslport_scalar_operand<decltype(h)>(s);");
  EXPECT_EQ(wrapped("a.s * p[i]", "a.s", "p[i]"), "::metal::__mslport_scalar_operand<decltype(p[i])>(a.s) * p[i]");
}

TEST(ScalarOperands, LinesStayWhereTheyWere) {
  EXPECT_EQ(wrapped("s * f(a,\n  b);", "s", "f(a,\n  b)"),
            "::metal::__mslport_scalar_operand<decltype(f(a,   b))>(s) * f(a,\n  b);");
}

TEST(ScalarOperands, WrappedOperandsAndCommentsAreLeftAlone) {
  std::string t = "h * ::metal::__mslport_scalar_operand<decltype(h)>(s)";
  EXPECT_EQ(wrapped(t, "::metal::__mslport_scalar_operand<decltype(h)>(s)", "h"), "<unchanged: " + t + ">");
  t = "s * g(/* h */ x)";
  EXPECT_EQ(wrapped(t, "s", "g(/* h */ x)"), "<unchanged: " + t + ">");
}

// MSL 3.1: the scalar converts to the element type, so half4 * float is a
// half4; also in a compound assignment, a ?: and a vector constructor's
// argument (the constructors are macros), and short4 * int.
TEST(ScalarOperands, MetalConvertsTheScalarToTheElementType) {
  auto p = parse_snippet("rank.metal", R"(
kernel void k(device const half4* h [[buffer(0)]], constant float& s [[buffer(1)]],
              device short4* q [[buffer(2)]], device float4* o [[buffer(3)]], uint i [[thread_position_in_grid]]) {
  half4 a = h[i] * s;
  half4 b = s + h[i];
  a *= s;
  half4 c = i > 0 ? s * b : 0.0f;
  float4 d = float4(s * c);
  short4 e = q[i] * 3;
  o[i] = float4(a) + d;
  q[i] = e;
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "a"), "h[i] * cast<half4>(cast<half>(s))");
  EXPECT_EQ(init_of(*p->m, "b"), "cast<half4>(cast<half>(s)) + h[i]");
  EXPECT_EQ(init_of(*p->m, "c"), "(i > 0u) ? (cast<half4>(cast<half>(s)) * b) : cast<half4>(cast<half>(0.0f))");
  EXPECT_EQ(init_of(*p->m, "d"), "cast<float4>(cast<half4>(cast<half>(s)) * c)");
  EXPECT_EQ(init_of(*p->m, "e"), "q[i] * cast<short4>(3:short)");
}

// In a template each instance converts to its own element type: the float4
// instance keeps s a float.
TEST(ScalarOperands, EachTemplateInstanceHasItsOwnElementType) {
  auto p = parse_snippet("rank_template.metal", R"(
template <typename T>
kernel void k(device const T* a [[buffer(0)]], constant float& s [[buffer(1)]], device float4* o [[buffer(2)]],
              uint i [[thread_position_in_grid]]) {
  T x = s * a[i];
  o[i] = (float4)(x);
}
template [[host_name("k_h")]] kernel void k<half4>(device const half4*, constant float&, device float4*, uint);
template [[host_name("k_f")]] kernel void k<float4>(device const float4*, constant float&, device float4*, uint);
)");
  ASSERT_PARSED(p);
  ASSERT_EQ(p->m->kernels.size(), 2u);
  std::string text = ir::print_module(*p->m);
  EXPECT_NE(text.find("cast<half4>(cast<half>(s)) * a[i]"), std::string::npos) << text;
  EXPECT_NE(text.find("cast<float4>(s) * a[i]"), std::string::npos) << text;
}

// Where Metal does not convert either (a floating scalar beside an integer
// vector), clang's diagnostic stands as it is.
TEST(ScalarOperands, AFloatBesideAnIntegerVectorStaysAnError) {
  auto p = parse_snippet("rank_bad.metal", R"(
kernel void k(device int4* o [[buffer(0)]], constant float& s [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  o[i] = o[i] * s;
}
)");
  EXPECT_FALSE(p->m);
  ASSERT_FALSE(p->d.diagnostics().empty());
  std::string msg = DiagEngine::render(p->d.diagnostics().front());
  EXPECT_NE(msg.find("('int4' (vector of 4 'int' values) and 'float')"), std::string::npos) << msg;
}

}  // namespace
}  // namespace mslport::front
