// Explicit casts between half and bfloat (front/half_bfloat_casts.h): the
// text step alone, then whole parses.
#include "front/half_bfloat_casts.h"

#include <gtest/gtest.h>

#include "front/parse_metal.h"
#include "ir/printer.h"
#include "passes/pass_test_util.h"
#include "test_support.h"

namespace mslport::front {
namespace {

using testing::init_of;
using testing::parse_snippet;

// Converts the operand `operand` (its first occurrence), given twice.
std::string converted(std::string text, const std::string& operand) {
  HalfBfloatCast c;
  c.operand_begin = (unsigned)text.find(operand), c.operand_end = c.operand_begin + (unsigned)operand.size();
  if (convert_cast_operands_through_float(&text, {c, c}) != 1) return "<unchanged: " + text + ">";
  return text;
}

TEST(HalfBfloatCasts, TheOperandGoesThroughFloat) {
  EXPECT_EQ(converted("static_cast<bfloat>(h[i]);", "h[i]"),
            "static_cast<bfloat>(::metal::__mslport_convert<float>(h[i]));");
  EXPECT_EQ(converted("(half)b.x + 1", "b.x"), "(half)::metal::__mslport_convert<float>(b.x) + 1");
  EXPECT_EQ(converted("bfloat(f(a,\n b))", "f(a,\n b)"), "bfloat(::metal::__mslport_convert<float>(f(a,\n b)))");
}

TEST(HalfBfloatCasts, ConvertedAndOverlappingOperandsAreLeftAlone) {
  std::string t = "(half)::metal::__mslport_convert<float>(b)";
  EXPECT_EQ(converted(t, "::metal::__mslport_convert<float>(b)"), "<unchanged: " + t + ">");
  t = "half(bfloat(h))";
  HalfBfloatCast outer{nullptr, 5, 14}, inner{nullptr, 12, 13};
  EXPECT_EQ(convert_cast_operands_through_float(&t, {outer, inner}), 1u);
  EXPECT_EQ(t, "half(::metal::__mslport_convert<float>(bfloat(h)))");
}

// Each spelling of the cast, through typedefs too, converts through float;
// vector casts were constructors already and convert element by element.
TEST(HalfBfloatCasts, EveryExplicitCastConvertsThroughFloat) {
  auto p = parse_snippet("hb_casts.metal", R"(
typedef half float16_t;
typedef bfloat bfloat16_t;
kernel void k(device half* h [[buffer(0)]], device bfloat* b [[buffer(1)]], device half4* h4 [[buffer(2)]],
              device bfloat4* b4 [[buffer(3)]], uint i [[thread_position_in_grid]]) {
  bfloat a = static_cast<bfloat>(h[i]);
  half c = static_cast<half>(b[i]);
  bfloat d = bfloat(h[i]);
  half e = (half)b[i];
  float16_t x = h[i];
  bfloat16_t f = static_cast<bfloat16_t>(x);
  bfloat4 g = static_cast<bfloat4>(h4[i]);
  half4 q = (half4)b4[i];
  b[i] = a + d + f;
  h[i] = c + e;
  b4[i] = g;
  h4[i] = q;
}
)");
  ASSERT_PARSED(p);
  EXPECT_EQ(init_of(*p->m, "a"), "cast<bfloat>(cast<float>(h[i]))");
  EXPECT_EQ(init_of(*p->m, "c"), "cast<half>(cast<float>(b[i]))");
  EXPECT_EQ(init_of(*p->m, "d"), "cast<bfloat>(cast<float>(h[i]))");
  EXPECT_EQ(init_of(*p->m, "e"), "cast<half>(cast<float>(b[i]))");
  EXPECT_EQ(init_of(*p->m, "f"), "cast<bfloat>(cast<float>(x))");
  EXPECT_EQ(init_of(*p->m, "g"), "cast<bfloat4>(h4[i])");
  EXPECT_EQ(init_of(*p->m, "q"), "cast<half4>(b4[i])");
}

// In a template, each instance's cast is reported; the operand is
// converted once. A cast to a template parameter is the shim's conversion
// (adapt_source.h), which goes through float as well.
TEST(HalfBfloatCasts, CastsInTemplatesConvertThroughFloat) {
  auto p = parse_snippet("hb_template.metal", R"(
template <typename T>
T to_bf(half x) { return static_cast<bfloat>(x) * T(2); }
template <typename T>
T to_t(half x) { return static_cast<T>(x); }
kernel void k(device half* h [[buffer(0)]], device bfloat* b [[buffer(1)]], device float* f [[buffer(2)]],
              uint i [[thread_position_in_grid]]) {
  b[i] = to_bf<bfloat>(h[i]);
  f[i] = to_bf<float>(h[i]);
  bfloat t = to_t<bfloat>(h[i]);
  b[i] = t;
}
)");
  ASSERT_PARSED(p);
  std::string text = ir::print_module(*p->m);
  EXPECT_NE(text.find("b[i] = cast<bfloat>(cast<float>(h[i])) * cast<bfloat>(2)"), std::string::npos) << text;
  EXPECT_NE(text.find("f[i] = cast<float>(cast<bfloat>(cast<float>(h[i]))) * 2.0f"), std::string::npos) << text;
  EXPECT_NE(text.find("t = cast<bfloat>(h[i])"), std::string::npos) << text;
}

// Metal does not convert half to bfloat implicitly: clang's diagnostic
// stands.
TEST(HalfBfloatCasts, AnImplicitConversionStaysAnError) {
  auto p = parse_snippet("hb_implicit.metal", R"(
kernel void k(device half* h [[buffer(0)]], device bfloat* b [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  bfloat c = h[i];
  b[i] = c;
}
)");
  EXPECT_FALSE(p->m);
  ASSERT_FALSE(p->d.diagnostics().empty());
  std::string msg = DiagEngine::render(p->d.diagnostics().front());
  EXPECT_NE(msg.find("cannot initialize a variable of type 'bfloat'"), std::string::npos) << msg;
}

}  // namespace
}  // namespace mslport::front
